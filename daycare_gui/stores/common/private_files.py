"""Files only their owner may read: the search indexes (a copy of every history) and the window's settings
(the stores opened, server URLs). Folders made for them are 0700 and the files 0600; ones an earlier version
left open to others are tightened when they are next opened. A mode is only ever narrowed, and only on the
user's own files and folders (never through a link)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def make_private_folders(folder: Path, ours: Iterable[Path] = ()) -> None:
    """Make ``folder`` and its missing parents 0700; tighten the existing folders in ``ours`` (the
    application's own: never a folder the user named, which may be any of theirs)."""
    folder = Path(folder)
    missing = []
    while not os.path.lexists(folder) and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(mode=PRIVATE_DIR, exist_ok=True)
        tighten(made, PRIVATE_DIR)
    for path in ours:
        tighten(Path(path), PRIVATE_DIR)


def make_private_file(path: Path, siblings: Iterable[str] = ()) -> Path:
    """Create ``path`` empty and 0600 if it is missing (so a writer that keeps an existing file's mode, as
    SQLite and Qt's settings do, never makes it readable by others), else tighten it; tighten each existing
    ``path + suffix`` of ``siblings`` too (an SQLite database's -wal, -shm, -journal)."""
    path = Path(path)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    except FileExistsError:
        pass
    for part in (path, *(Path(f"{path}{suffix}") for suffix in siblings)):
        tighten(part, PRIVATE_FILE)
    return path


def tighten(path: Path, mode: int) -> None:
    """``path`` (if it exists and is the user's own) no more open than ``mode``."""
    try:
        st = os.stat(path, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return  # a link, or another user's file: not ours to change
        if stat.S_IMODE(st.st_mode) & ~mode:
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
    except OSError:
        pass  # a file system without modes, a race with a removal: the file still opens
