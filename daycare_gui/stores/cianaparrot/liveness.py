"""Is the CianaParrot bot running? It writes no pid or lock file, so we look at its database.

The bot keeps one aiosqlite connection to ``checkpoints.db`` open for its whole life, in WAL mode. Every
such connection holds a shared POSIX lock on the ``-shm`` file (SQLite's "dead man switch" byte), and
closing the last connection removes ``-wal`` and ``-shm``. So, in order:

1. another process holds a lock on ``checkpoints.db-shm`` or ``checkpoints.db`` → **running** (certain on
   this machine; read from ``/proc/locks`` on Linux, which needs no file handle of ours, else ``F_GETLK``);
2. ``-wal`` changed in the last few minutes → **running** (a bot in a VM or container whose locks this
   machine cannot see, e.g. Docker Desktop);
3. ``-wal``/``-shm`` exist but are idle and unlocked → not running, noted (it stopped without closing, or
   its locks are invisible here);
4. none of them → not running.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

RECENT_SECONDS = 300
SHM_LOCK_START, SHM_LOCK_LEN = 120, 9  # SQLite's WAL-index lock bytes 120..127 and the DMS byte 128


@dataclass(frozen=True)
class BotStatus:
    running: bool
    detail: str
    method: str  # "lock" | "wal activity" | "files" | "none"


def _proc_locks(paths: list[Path]) -> int | None:
    """The pid of another process holding a POSIX/OFD lock on one of ``paths`` (Linux), or None."""
    try:
        text = Path("/proc/locks").read_text()
    except OSError:
        return None
    wanted = set()
    for p in paths:
        try:
            st = p.stat()
        except OSError:
            continue
        wanted.add((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))
    me = os.getpid()
    for line in text.splitlines():
        parts = line.split()
        if "->" in parts:  # a blocked waiter: "1: -> POSIX ..."
            parts.remove("->")
        if len(parts) < 6:
            continue
        try:
            pid = int(parts[4])
            major, minor, inode = parts[5].split(":")
            key = (int(major, 16), int(minor, 16), int(inode))
        except ValueError:
            continue
        if key in wanted and pid != me and pid > 0:
            return pid
    return None


def _fcntl_lock(shm: Path) -> int | None:
    """Ask the kernel (macOS/BSD ``struct flock`` layout) whether another process locks the -shm bytes.
    Only used where /proc/locks is missing, and never while we hold a connection: closing our handle
    would release our own SQLite locks on that file (POSIX lock semantics)."""
    if not hasattr(os, "uname") or os.uname().sysname not in ("Darwin", "FreeBSD"):
        return None
    import fcntl
    import struct

    try:
        fd = os.open(shm, os.O_RDONLY)
    except OSError:
        return None
    try:
        req = struct.pack("qqihh", SHM_LOCK_START, SHM_LOCK_LEN, 0, fcntl.F_WRLCK, 0)
        _start, _len, pid, ltype, _whence = struct.unpack("qqihh", fcntl.fcntl(fd, fcntl.F_GETLK, req))
        return (pid or -1) if ltype != fcntl.F_UNLCK else None
    except OSError:
        return None
    finally:
        os.close(fd)


def bot_status(db: Path, *, holding_connection: bool = False) -> BotStatus:
    """What we can tell about the bot from its database files (never opens the database itself)."""
    shm, wal = Path(str(db) + "-shm"), Path(str(db) + "-wal")
    pid = _proc_locks([shm, db])
    if pid is None and not holding_connection and shm.exists() and not Path("/proc/locks").exists():
        pid = _fcntl_lock(shm)
    if pid is not None:
        who = f"process {pid}" if pid > 0 else "another process"
        return BotStatus(True, f"{who} holds {db.name} open (its -shm lock)", "lock")
    try:
        age = time.time() - wal.stat().st_mtime
    except OSError:
        age = None
    if age is not None and age < RECENT_SECONDS:
        return BotStatus(True, f"{wal.name} changed {int(age)} s ago", "wal activity")
    if age is not None or shm.exists():
        return BotStatus(False, f"{wal.name if age is not None else shm.name} is left beside the database but "
                                "idle and unlocked (the bot stopped without closing, or runs where its locks "
                                "are not visible)", "files")
    return BotStatus(False, f"no -wal/-shm beside {db.name} and no lock on it", "none")
