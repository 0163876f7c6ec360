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

from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.file_locks import getlk_holder, proc_lock_holders, program_of

# SQLite's lock bytes on the database file (os_unix.c): PENDING, RESERVED, then the SHARED range.
LOCK_START = 0x40000000
LOCK_LEN = 2 + 510
# The "DMS" byte of the -shm file, read-locked by every open WAL connection.
SHM_DMS = 128


@dataclass(frozen=True)
class Holder:
    pid: int  # -1 when the system says the file is locked but not by which process
    program: str  # "node", "sqlite3", ... ("" when the system does not say)

    def __str__(self) -> str:
        if self.pid < 0:
            return f"{self.program or 'another program'} (its process id not given)"
        return f"{self.program or 'a program'} (pid {self.pid})"


def holders(db_path: Path, *, use_proc: bool = True) -> list[Holder] | None:
    """Other processes holding a lock on the database (or its -shm); None when this cannot be known."""
    targets = [p for p in (Path(db_path), Path(str(db_path) + "-shm")) if p.exists()]
    if not targets:
        return []
    pids = proc_lock_holders(targets) if use_proc else None
    if pids is None:
        pids = _from_fcntl(targets)
    return None if pids is None else [Holder(pid, program_of(pid)) for pid in pids]


def _from_fcntl(targets: list[Path]) -> list[int] | None:
    pids: list[int] = []
    for path in targets:
        start, length = (SHM_DMS, 1) if str(path).endswith("-shm") else (LOCK_START, LOCK_LEN)
        pid = getlk_holder(path, start, length)
        if pid is None:
            return None
        if pid and pid not in pids:
            pids.append(pid)
    return pids
