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

import time
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.file_locks import getlk_holder, proc_lock_holders

RECENT_SECONDS = 300
SHM_LOCK_START, SHM_LOCK_LEN = 120, 9  # SQLite's WAL-index lock bytes 120..127 and the DMS byte 128


@dataclass(frozen=True)
class BotStatus:
    running: bool
    detail: str
    method: str  # "lock" | "wal activity" | "files" | "none"


def bot_status(db: Path, *, holding_connection: bool = False) -> BotStatus:
    """What we can tell about the bot from its database files (never opens the database itself)."""
    shm, wal = Path(str(db) + "-shm"), Path(str(db) + "-wal")
    pids = proc_lock_holders([shm, db])
    pid = pids[0] if pids else None
    if pids is None and not holding_connection and shm.exists():  # (closing our handle would drop our locks)
        pid = getlk_holder(shm, SHM_LOCK_START, SHM_LOCK_LEN) or None
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
