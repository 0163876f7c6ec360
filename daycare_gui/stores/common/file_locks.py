"""Which other processes lock a file — how the kinds whose own program keeps a SQLite database open
(AgentStack, the CianaParrot bot) tell that it runs, without opening that database.

A SQLite connection holds shared POSIX locks on its database (and, in WAL mode, on the ``-shm`` file) for as
long as it is open. On Linux the kernel lists every lock in ``/proc/locks``: reading it opens nothing of the
store's. Elsewhere ``fcntl(F_GETLK)`` asks about one byte range of one file; it needs a descriptor on the
file, and closing a descriptor drops every POSIX lock this process holds on that file, so a caller must
have no SQLite connection of its own open on it then.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

PROC_LOCKS = Path("/proc/locks")


def proc_lock_holders(paths: list[Path]) -> list[int] | None:
    """The ids of the other processes that hold, or wait for, a lock on any of ``paths`` (POSIX, OFD or
    flock), in the order the kernel lists them; None where ``/proc/locks`` cannot be read (not Linux).
    A process waiting for a lock has the file open too, so it counts."""
    try:
        text = PROC_LOCKS.read_text(errors="replace")
    except OSError:
        return None
    wanted = set()
    for p in paths:
        try:
            st = p.stat()
        except OSError:
            continue
        wanted.add((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
    me, pids = os.getpid(), []
    for line in text.splitlines():
        # "1: POSIX  ADVISORY  READ 15568 fe:00:2146562 128 128"; a waiter's line has "->" after the number
        parts = [part for part in line.split() if part != "->"]
        if len(parts) < 6:
            continue
        try:
            pid = int(parts[4])
            major, minor, inode = parts[5].split(":")
            key = (int(major, 16), int(minor, 16), int(inode))
        except ValueError:
            continue
        if key in wanted and pid > 0 and pid != me and pid not in pids:
            pids.append(pid)
    return pids


def _flock_format() -> str | None:
    """``struct flock``'s layout on this system, or None where it is not known."""
    if sys.platform.startswith("linux"):
        return "hhqqi"  # l_type, l_whence, l_start, l_len, l_pid (native alignment)
    if sys.platform == "darwin" or "bsd" in sys.platform:
        return "qqihh"  # l_start, l_len, l_pid, l_type, l_whence
    return None


def getlk_holder(path: Path, start: int, length: int) -> int | None:
    """Whether another process locks bytes ``start`` .. ``start + length`` of ``path``, by ``F_GETLK``: 0
    when none does, its process id when one does (-1 when the system does not say which), None when
    this cannot be asked here (no ``fcntl``, an unknown layout, a file that cannot be opened).

    Opens ``path`` and closes it again: never call it while this process has a SQLite connection on it."""
    try:
        import fcntl
    except ImportError:
        return None
    fmt = _flock_format()
    if fmt is None:
        return None
    if fmt == "hhqqi":
        probe = struct.pack(fmt, fcntl.F_WRLCK, os.SEEK_SET, start, length, 0)
    else:
        probe = struct.pack(fmt, start, length, 0, fcntl.F_WRLCK, os.SEEK_SET)
    probe += b"\0" * 16  # room for the platform's tail padding
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        answer = fcntl.fcntl(fd, fcntl.F_GETLK, probe)
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = struct.unpack(fmt, answer[: struct.calcsize(fmt)])
    kind, pid = (fields[0], fields[4]) if fmt == "hhqqi" else (fields[3], fields[2])
    return 0 if kind == fcntl.F_UNLCK else (pid or -1)


def program_of(pid: int) -> str:
    """The program's name ("node", "sqlite3"), or "" where the system does not say."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""
