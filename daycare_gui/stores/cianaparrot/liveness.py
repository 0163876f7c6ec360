"""Is the CianaParrot bot running? It writes no pid or lock file, so we look at its database.

The bot keeps one aiosqlite connection to ``checkpoints.db`` open for its whole life, in WAL mode. Every
such connection holds a shared POSIX lock on the ``-shm`` file (SQLite's "dead man switch" byte), and
closing the last connection removes ``-wal`` and ``-shm``. A database switched to rollback-journal mode
has no ``-shm``: a connection then locks the database file itself, only while it reads or writes, and a
write keeps a ``-journal`` beside it. So, in order:

1. another process holds a lock on ``checkpoints.db-shm`` or ``checkpoints.db`` → **running** (certain on
   this machine; read from ``/proc/locks`` on Linux, which needs no file handle of ours, else ``F_GETLK``);
   the detail names the file locked, since the two mean different things;
2. ``-wal`` or ``-journal`` changed in the last few minutes → **running** (a bot in a VM or container whose
   locks this machine cannot see, e.g. Docker Desktop);
3. ``-wal``/``-shm``/``-journal`` exist but are idle and unlocked → not seen running, noted (it stopped
   without closing, or its locks are invisible here). The bot's clean close removes ``-wal`` and ``-shm``,
   so while they are there it may well run (Docker Desktop's VM is the usual deployment, and its locks
   never show here): ``caution`` says so, and writes ask first;
4. none of them → not running.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.file_locks import getlk_holder, proc_lock_holders

RECENT_SECONDS = 300
SHM_LOCK_START, SHM_LOCK_LEN = 120, 9  # SQLite's WAL-index lock bytes 120..127 and the DMS byte 128
DB_LOCK_START, DB_LOCK_LEN = 0x40000000, 2 + 510  # the database file's PENDING, RESERVED and SHARED bytes


@dataclass(frozen=True)
class BotStatus:
    running: bool
    detail: str
    method: str  # "lock" | "wal activity" | "journal activity" | "files" | "none"
    caution: str = ""  # not seen running, yet writes should ask first: why


def _holder(path: Path, start: int, length: int, may_open: bool) -> int | None:
    """The process locking PATH (-1: one the system does not name), or None."""
    pids = proc_lock_holders([path])
    if pids is None and may_open and path.exists():  # (closing our handle would drop our locks)
        return getlk_holder(path, start, length) or None
    return pids[0] if pids else None


def _age(path: Path) -> float | None:
    try:
        return time.time() - path.stat().st_mtime
    except OSError:
        return None


def bot_status(db: Path, *, holding_connection: bool = False) -> BotStatus:
    """What we can tell about the bot from its database files (never opens the database itself)."""
    shm, wal, journal = (Path(str(db) + suffix) for suffix in ("-shm", "-wal", "-journal"))
    may_open = not holding_connection
    if (pid := _holder(shm, SHM_LOCK_START, SHM_LOCK_LEN, may_open)) is not None:
        return BotStatus(True, f"{_who(pid)} holds {db.name} open, with a lock on {shm.name}", "lock")
    if (pid := _holder(db, DB_LOCK_START, DB_LOCK_LEN, may_open)) is not None:
        # No -shm lock: a rollback-journal connection, which locks only while it reads or writes.
        doing = f"is writing to {db.name}, with {journal.name} beside it" if journal.exists() else \
            f"is reading or writing {db.name}, with a lock on the database file"
        return BotStatus(True, f"{_who(pid)} {doing}", "lock")
    for side, method in ((wal, "wal activity"), (journal, "journal activity")):
        age = _age(side)
        if age is not None and age < RECENT_SECONDS:
            return BotStatus(True, f"{side.name} changed {int(age)} s ago", method)
    left = [p.name for p in (wal, shm, journal) if p.exists()]
    if left:
        wal_files = [name for name in left if not name.endswith("-journal")]
        caution = (f"the CianaParrot bot may be running where its locks are not visible (Docker Desktop, a "
                   f"VM, another machine), or it stopped without closing: {' and '.join(wal_files)} "
                   f"{'is' if len(wal_files) == 1 else 'are'} beside {db.name}, and the bot removes them "
                   "when it closes cleanly") if wal_files else ""
        return BotStatus(False, f"{' and '.join(left)} {'is' if len(left) == 1 else 'are'} left beside the "
                                "database but idle and unlocked (the bot stopped without closing, or runs "
                                "where its locks are not visible)", "files", caution)
    return BotStatus(False, f"no -wal, -shm or -journal beside {db.name} and no lock on it", "none")


def _who(pid: int) -> str:
    return f"process {pid}" if pid > 0 else "another process"
