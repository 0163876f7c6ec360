"""Private folders in the temporary folder (copies of a store read in place of the original), made so that
whoever finds one after a crash can tell whether its owner still runs, and remove it only then.

A kill (SIGKILL, power loss, a crashed desktop session) leaves such a folder behind: a full copy of the
user's data. So each folder

* is made ``0700`` (``tempfile.mkdtemp``) and the copies in it ``0600`` by their writers;
* carries its owner's pid and, where ``/proc`` tells it, the owner's start time in its name
  (``<prefix><pid>-t<start>-XXXXXXXX``): a pid reused by a later process has another start time;
* holds ``.daycare-gui-owner.lock``, locked with ``flock`` by the owner for the folder's whole life. The
  kernel drops the lock when the owner ends, however it ends, and sees it held from any pid namespace, so
  a lock that can be taken means the owner is gone.

:func:`remove_if_abandoned` removes a folder only when it is a real folder of this user (not a symbolic
link), its owner is gone by those tests, and it holds the lock while removing; ``shutil.rmtree`` never
follows a symbolic link inside. The prefixes themselves (which kinds make such folders) live in
core.leftovers.
"""

from __future__ import annotations

import os
import shutil
import stat
import time
from pathlib import Path

from daycare_gui.stores.common.processes import process_exists

try:
    import fcntl
except ImportError:  # Windows: no flock; the name's pid and start time decide alone
    fcntl = None

LOCK_NAME = ".daycare-gui-owner.lock"


def process_start(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot, field 22 of ``/proc/<pid>/stat``); None without
    ``/proc`` or when no such process is there."""
    try:
        with open(f"/proc/{int(pid)}/stat", "rb") as fh:
            data = fh.read()
    except (OSError, ValueError):
        return None
    try:  # the command name (field 2) may hold spaces and ')': the fields after its last ')' are fixed
        return int(data[data.rindex(b")") + 2:].split()[19])
    except (ValueError, IndexError):
        return None


def owner_tag() -> str:
    """``<pid>-t<start>`` of this process (``<pid>`` alone where the start time cannot be read)."""
    pid = os.getpid()
    start = process_start(pid)
    return f"{pid}" if start is None else f"{pid}-t{start}"


class PrivateFolder:
    """A new ``0700`` folder named ``<prefix>XXXXXXXX`` in the temporary folder (or in ``where``: a RAM folder
    of this user's, stores.common.ram_folders), locked as its owner's for as long as this object lives;
    :meth:`remove` deletes it and lets the lock go."""

    def __init__(self, prefix: str, where: Path | None = None) -> None:
        import tempfile  # (not at import: every start imports this module for the sweep)

        self.path = Path(tempfile.mkdtemp(prefix=prefix, dir=where))
        self._lock_fd = _take_ownership(self.path)

    def remove(self, attempts: int = 1) -> None:
        """Delete the folder (``attempts`` tries, 0.1 s apart: a helper process may still be closing files
        in it), then release the lock. Never raises."""
        for attempt in range(attempts):
            shutil.rmtree(self.path, ignore_errors=True)
            if not os.path.lexists(self.path):
                break
            if attempt + 1 < attempts:
                time.sleep(0.1)
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            os.close(fd)


def _take_ownership(folder: Path) -> int | None:
    """Create the folder's lock file, locked. It gets its final name only once locked: a lock file that can
    be locked must always mean a gone owner. None where locks do not work (the name's pid decides then)."""
    if fcntl is None:
        return None
    pending = folder / (LOCK_NAME + ".new")
    try:
        fd = os.open(pending, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(pending, folder / LOCK_NAME)
    except OSError:
        os.close(fd)
        try:
            os.unlink(pending)
        except OSError:
            pass
        return None
    return fd


def _pid_says_alive(pid: int, start: int | None) -> bool | None:
    exists = process_exists(pid)
    if exists is not True:
        return exists
    if start is not None:
        now = process_start(pid)
        if now is not None and now != start:
            return False  # the pid was given to a later process
    return True


def is_ours(folder: Path) -> bool:
    """A real folder (not a symbolic link) belonging to this user."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and (not hasattr(os, "geteuid") or st.st_uid == os.geteuid())


def _lock_if_free(folder: Path) -> tuple[bool | None, int | None]:
    """(owner alive?, fd holding the lock). ``(None, None)``: the folder has no lock file (an older copy, or
    one being made this instant); ``(True, None)``: the lock is held or cannot be tested; ``(False, fd)``:
    the lock was free and is now ours."""
    if fcntl is None:
        return None, None
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None, None
    except OSError:  # a symbolic link (ELOOP), unreadable: not something we made
        return True, None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (hasattr(os, "geteuid") and st.st_uid != os.geteuid()):
            os.close(fd)
            return True, None
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # held (EWOULDBLOCK), or locks unsupported here: count it as alive
        os.close(fd)
        return True, None
    return False, fd


def owner_alive(folder: Path, pid: int, start: int | None) -> bool | None:
    """Whether the owner of ``folder`` still runs: its lock decides when the folder has one, else the pid and
    start time in its name. None: cannot be told (counts as alive)."""
    held, fd = _lock_if_free(folder)
    if fd is not None:
        os.close(fd)
    return _pid_says_alive(pid, start) if held is None else held


def remove_if_abandoned(folder: Path, pid: int, start: int | None) -> bool:
    """Delete ``folder`` if it is ours and its owner is gone, holding its lock meanwhile. Returns whether it
    is gone."""
    if not os.path.lexists(folder):
        return True
    if not is_ours(folder):
        return False
    held, fd = _lock_if_free(folder)
    if held is None:
        held = _pid_says_alive(pid, start) is not False
    if held:
        return False
    try:
        shutil.rmtree(folder)
    except FileNotFoundError:
        pass
    except OSError:
        return False
    finally:
        if fd is not None:
            os.close(fd)
    return True
