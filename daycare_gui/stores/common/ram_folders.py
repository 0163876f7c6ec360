"""Where a small private copy goes instead of the temporary folder: a folder of this user's in RAM (tmpfs).

A PGlite store is some 1,100 files even when it is new. Creating them on a disk that is busy writing back
(the previous copy, the sidecar starting) took 1.2 to 1.7 s of the small demo's 2-second open, against 0.6 s
or less in RAM: the cost is per file, not per byte. So a store that is small beside the room there is copied
into RAM, and any other one on disk as before (the 1M demo is gigabytes).

Where, in this order:

* ``$XDG_RUNTIME_DIR``, when it is an absolute path to a real folder of this user's, private (no group or
  other bits: the XDG spec's 0700) and on tmpfs;
* ``/dev/shm``, when it is a tmpfs whose folder others cannot rename our entries in (sticky when
  world-writable); the copy's own folder there is a ``mkdtemp`` folder, 0700, as in the temporary folder.

``DAYCARE_GUI_RAM_DIR`` overrides the choice: empty turns copies in RAM off, a path names the one folder to
use (taken as it is: the user vouches for it; the size rule still applies).

The size rule (:func:`folder_for`): at most :data:`MAX_BYTES`, and at most a quarter of both the folder's free
space and the memory the kernel says is available. tmpfs pages are memory that cannot be reclaimed without
swap, and PGlite writes into its copy as it runs (its WAL grows by 16 MB segments), hence the wide margin;
the cap, 64 MB, is half what the sidecar itself holds once started (~120 MB on any store) and takes in a
new store (24 MB) and one grown several times over, while the stores whose copy is bytes-bound rather than
files-bound stay on disk, where the page cache may give their memory back.

Every private folder made here is found by the sweep of crashed instances' copies as in the temporary
folder (:func:`folders` lists where to look, whatever the size of today's copy).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MB = 1 << 20
MAX_BYTES = 64 * MB
MARGIN = 4  # the copy may use at most 1/MARGIN of the folder's free space and of the available memory
OVERRIDE = "DAYCARE_GUI_RAM_DIR"
RAM_TYPES = ("tmpfs", "ramfs")
MOUNTS = "/proc/self/mounts"


def folders() -> list[Path]:
    """The RAM folders private copies may be in, best first (the sweep looks in each). Never raises."""
    given = os.environ.get(OVERRIDE)
    if given is not None:
        return [Path(given)] if given and os.path.isabs(given) and _real_folder_of_ours(Path(given)) else []
    found = []
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime) and _private_runtime_dir(Path(runtime)) and _in_ram(runtime):
        found.append(Path(runtime))
    if _shared_ram_dir(Path("/dev/shm")) and _in_ram("/dev/shm"):
        found.append(Path("/dev/shm"))
    return found


def folder_for(size: int) -> Path | None:
    """The RAM folder a private copy of ``size`` bytes goes in, or None (the temporary folder, as before)."""
    if size > MAX_BYTES:
        return None
    available = _available_memory()
    if available is not None and size * MARGIN > available:
        return None
    for folder in folders():
        if size * MARGIN <= _free(folder):
            return folder
    return None


def _free(folder: Path) -> int:
    """The bytes this user may still write in ``folder``'s filesystem (0 when it cannot be told)."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return 0
    return st.f_bavail * st.f_frsize


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except OSError:
        return None


def _ours(st: os.stat_result) -> bool:
    return not hasattr(os, "geteuid") or st.st_uid == os.geteuid()


def _real_folder_of_ours(path: Path) -> bool:
    st = _lstat(path)
    return st is not None and stat.S_ISDIR(st.st_mode) and _ours(st)


def _private_runtime_dir(path: Path) -> bool:
    """The XDG runtime folder as the spec has it: this user's, a real folder, nobody else's to enter."""
    st = _lstat(path)
    return st is not None and stat.S_ISDIR(st.st_mode) and _ours(st) and not st.st_mode & 0o077


def _shared_ram_dir(path: Path) -> bool:
    """/dev/shm (through a link, as some systems have it): a folder of root's or ours, in which nobody else
    can remove or rename what we make (sticky when others may write in it)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode) or not (st.st_uid == 0 or _ours(st)):
        return False
    return not st.st_mode & 0o022 or bool(st.st_mode & stat.S_ISVTX)


def _in_ram(path: str) -> bool:
    """Whether ``path`` is on a tmpfs (or ramfs): the mount holding it, by the longest mount point that
    contains its real path (/proc/self/mounts; elsewhere it is not known, so not)."""
    real = os.path.realpath(path)
    best, kind = "", None
    try:
        with open(MOUNTS, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                fields = line.split()
                if len(fields) < 3:
                    continue
                point = _unescape(fields[1])
                inside = real == point or real.startswith(point.rstrip("/") + "/")
                if inside and len(point) >= len(best):
                    best, kind = point, fields[2]
    except OSError:
        return False
    return kind in RAM_TYPES


def _unescape(field: str) -> str:
    """A mount point as /proc/self/mounts writes it (space, tab, newline and backslash as octal escapes)."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def _available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes; None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None
