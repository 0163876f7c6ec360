"""Who else has the database open, found without waiting and without touching the file.

Every SQLite connection to a database in WAL mode (AgentStack's) holds a shared POSIX lock on the
database file's lock range for as long as it is open, idle or not; a connection in rollback mode holds
one while it reads or writes. So a lock on that range owned by another process means "something has it
open": most likely AgentStack (``node``), possibly the ``sqlite3`` shell or another daycare-gui.

On Linux the kernel lists every lock in ``/proc/locks``: reading it opens nothing of the store's. Elsewhere
``fcntl(F_GETLK)`` asks the same question; it needs a descriptor on the file, and closing one drops every
POSIX lock this process holds on that file, so callers must have no SQLite connection open on it then
(``Database.quiet``). Without either (Windows) the answer is "unknown", and the short write transaction's
busy timeout is the only guard.
"""

from __future__ import annotations

import os
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

# SQLite's lock bytes on the database file (os_unix.c): PENDING, RESERVED, then the SHARED range.
LOCK_START = 0x40000000
LOCK_LEN = 2 + 510
# The "DMS" byte of the -shm file, read-locked by every open WAL connection.
SHM_DMS = 128


@dataclass(frozen=True)
class Holder:
    pid: int
    program: str  # "node", "sqlite3", ... ("" when the system does not say)

    def __str__(self) -> str:
        return f"{self.program or 'a program'} (pid {self.pid})"


def holders(db_path: Path, *, use_proc: bool = True) -> list[Holder] | None:
    """Other processes holding a lock on the database (or its -shm); None when this cannot be known."""
    targets = [p for p in (Path(db_path), Path(str(db_path) + "-shm")) if p.exists()]
    if not targets:
        return []
    if use_proc and Path("/proc/locks").exists():
        found = _from_proc_locks(targets)
        if found is not None:
            return found
    return _from_fcntl(targets)


def _from_proc_locks(targets: list[Path]) -> list[Holder] | None:
    wanted = {}
    for p in targets:
        try:
            st = p.stat()
        except OSError:
            continue
        wanted[(os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)] = p
    try:
        text = Path("/proc/locks").read_text(errors="replace")
    except OSError:
        return None
    me, pids = os.getpid(), []
    for line in text.splitlines():
        parts = line.split()
        # "1: POSIX  ADVISORY  READ 15568 fe:00:2146562 128 128" ("->" marks a waiter: skip it)
        if len(parts) < 8 or parts[1] == "->":
            continue
        try:
            pid = int(parts[4])
            major, minor, inode = parts[5].split(":")
            key = (int(major, 16), int(minor, 16), int(inode))
        except ValueError:
            continue
        if key in wanted and pid != me and pid not in pids:
            pids.append(pid)
    return [Holder(pid, _program(pid)) for pid in pids]


def _flock_format() -> str | None:
    if sys.platform.startswith("linux"):
        return "hhqqi"  # l_type, l_whence, l_start, l_len, l_pid (native alignment)
    if sys.platform == "darwin" or "bsd" in sys.platform:
        return "qqihh"  # l_start, l_len, l_pid, l_type, l_whence
    return None


def _from_fcntl(targets: list[Path]) -> list[Holder] | None:
    try:
        import fcntl
    except ImportError:
        return None
    fmt = _flock_format()
    if fmt is None:
        return None
    pids: list[int] = []
    for path in targets:
        start, length = (SHM_DMS, 1) if str(path).endswith("-shm") else (LOCK_START, LOCK_LEN)
        pid = _getlk(fcntl, fmt, path, start, length)
        if pid is None:
            return None
        if pid and pid not in pids:
            pids.append(pid)
    return [Holder(pid, _program(pid)) for pid in pids]


def _getlk(fcntl, fmt: str, path: Path, start: int, length: int) -> int | None:
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
    return 0 if kind == fcntl.F_UNLCK else pid


def _program(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""
