"""Load a file for editing and save it back atomically, refusing to clobber changes made meanwhile.

The editor remembers the SHA-256 of the bytes it loaded. Saving compares that hash with what is on
disk *now* (content, not mtime: a tool may rewrite a file within one mtime tick, or restore an old
mtime), and refuses with :class:`ConflictError` when they differ, so the caller can show both versions.

A file whose owner may not write it (mode 0444) is refused with :class:`ReadOnlyError`: the user marked
it read-only, and a rename needs only the folder's permission, so it would otherwise be replaced anyway.

A save names the folders it must stay in (``within``: the store's): a file of the store that is a symlink
to one outside it (``cron/x/TASK.md → ~/notes.md``, planted by whoever filled the store) is refused with
:class:`OutsideStoreError` rather than written through.

The write itself goes to a temporary file in the same directory (same filesystem, so ``os.replace``
is atomic), which is fsynced, given the original file's mode, moved over the target, and then the
directory is fsynced so the rename survives a crash.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common import leftovers
from daycare_gui.stores.common.regular_files import open_regular, read_regular


# hashlib (~3 ms to import) only when a file is loaded for editing or saved, not with every store's capabilities:
# a window imports it in idle time after its first page (ui/preload.py), before any worker needs it.
def sha256_of(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def sha256_of_file(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes, read a megabyte at a time (a store's files may be large)."""
    import hashlib

    h = hashlib.sha256()
    with open_regular(path) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class Loaded:
    """What an editor needs to remember about a file it opened: the bytes and the hash to check on save."""

    data: bytes
    sha256: str
    mode: int  # permission bits only (stat.S_IMODE)
    mtime: float


class ConflictError(Exception):
    """The file on disk is not the one the edit started from.

    ``current`` holds the on-disk bytes now, or ``None`` if the file was deleted (or, for a file the
    caller meant to create, ``current`` is what appeared there meanwhile).
    """

    def __init__(self, path: str | os.PathLike, current: bytes | None, message: str | None = None) -> None:
        self.path = Path(path)
        self.current = current
        if message is None:
            message = (
                f"{self.path} was deleted since it was opened"
                if current is None
                else f"{self.path} was changed on disk since it was opened"
            )
        super().__init__(message)


class ReadOnlyError(PermissionError):
    """The file's owner has no write permission: someone marked it read-only. Nothing was written.

    Checked on the mode bits, not with ``os.access``: root may write anything, yet the mark still says the
    owner wants the file left alone."""

    def __init__(self, path: str | os.PathLike, mode: int) -> None:
        self.path = Path(path)
        self.mode = mode
        super().__init__(errno.EACCES, f"{self.path} is read-only (mode {mode:04o}); nothing was written",
                         str(self.path))

    def __str__(self) -> str:
        return self.strerror


class OutsideStoreError(PermissionError):
    """The file, links resolved, is not in any of the folders the save must stay in. Nothing was written."""

    def __init__(self, path: str | os.PathLike, real: str | os.PathLike) -> None:
        self.path = Path(path)
        self.real = Path(real)
        super().__init__(errno.EACCES, f"{self.path} leads to {self.real}, outside the store's folders; "
                                       "nothing was written", str(self.path))

    def __str__(self) -> str:
        return self.strerror


def refuse_outside(path: str | os.PathLike, within: Iterable[str | os.PathLike] | None) -> None:
    """Raise :class:`OutsideStoreError` when ``path``, symlinks resolved, lies in none of the folders
    ``within`` (also resolved). ``within=None``: no such limit (a file that belongs to no store)."""
    if within is None:
        return
    real = Path(os.path.realpath(path))
    for folder in within:
        base = Path(os.path.realpath(folder))
        if real == base or base in real.parents:
            return
    raise OutsideStoreError(path, real)


def refuse_read_only(path: str | os.PathLike) -> None:
    """Raise :class:`ReadOnlyError` when ``path`` (a symlink: its target) exists without write permission for
    its owner. Callers may ask this early, before other questions, so the user hears it first."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return
    if not mode & stat.S_IWUSR:
        raise ReadOnlyError(os.path.realpath(path), mode)


def load_for_edit(path: str | os.PathLike) -> Loaded:
    with open_regular(path) as handle:
        st = os.fstat(handle.fileno())
        data = handle.read()
    return Loaded(data=data, sha256=sha256_of(data), mode=stat.S_IMODE(st.st_mode), mtime=st.st_mtime)


def _read_current(path: Path) -> bytes | None:
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None


def _default_new_file_mode() -> int:
    # Reading the umask without changing it: os.umask() would set it process-wide (racy with threads).
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o644


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # e.g. platforms where directories cannot be opened; the rename already happened
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_atomic(
    path: str | os.PathLike,
    data: bytes,
    *,
    expected_sha256: str | None,
    force: bool = False,
    new_mode: int | None = None,
    within: Iterable[str | os.PathLike] | None = None,
) -> Loaded:
    """Replace ``path`` with ``data`` if it still holds the bytes whose hash is ``expected_sha256``.

    ``expected_sha256=None`` means "this is a new file": a file already there is a conflict.
    ``force=True`` skips the check (the user saw the conflict and chose to overwrite).
    ``new_mode``: the permission bits of a file that does not exist yet (default: what the umask gives);
    a backup passes its original's, so the copy is no more readable than the file it copies.
    A read-only file (no owner write bit) raises :class:`ReadOnlyError`, forced or not.
    ``within``: the folders the file (links resolved) must lie in, else :class:`OutsideStoreError`.
    Returns the :class:`Loaded` state of the saved file, ready for the next save.
    """
    # Edit the file a symlink points to, not the link itself (os.replace would swap the link for a file),
    # as long as that file is in the store.
    refuse_outside(path, within)
    target = Path(os.path.realpath(path))
    current = _read_current(target)
    if not force:
        if expected_sha256 is None:
            if current is not None:
                raise ConflictError(target, current, f"{target} already exists")
        elif current is None or sha256_of(current) != expected_sha256:
            raise ConflictError(target, current)
    refuse_read_only(target)  # also when forced: force overrides a conflict, never the owner's mark

    try:
        st = os.stat(target)
        mode, owner = stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
    except FileNotFoundError:
        mode, owner = (_default_new_file_mode() if new_mode is None else new_mode), None

    directory = target.parent
    # Temp files of saves that were killed here (their process is gone) would stay for ever otherwise.
    leftovers.clean(leftovers.in_folder(directory), only=(leftovers.SAVE,))
    fd, tmp_name = tempfile.mkstemp(prefix=leftovers.save_temp_prefix(target.name), suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, mode)
        if owner is not None and hasattr(os, "chown"):
            try:
                os.chown(tmp_name, *owner)
            except OSError:  # only root may give files away; keeping our own ownership is fine
                pass
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise
    _fsync_directory(directory)
    st = os.stat(target)
    return Loaded(data=data, sha256=sha256_of(data), mode=stat.S_IMODE(st.st_mode), mtime=st.st_mtime)
