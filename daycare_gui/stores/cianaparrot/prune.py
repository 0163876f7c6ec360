"""Give back the space LangGraph's SQLite checkpointer never returns: keep the latest checkpoints of each
thread, drop the rest (and, if asked, threads idle for days), then VACUUM.

The saver writes the whole state at every super-step, so a thread's older checkpoints are full copies of
an ever shorter conversation; the bot continues from the latest one alone. What a kept checkpoint needs
stays with it: its own ``writes`` (pending writes, interrupts, errors) and, for checkpoints of the format
before version 4 (whose pending sends LangGraph reads from the parent's writes), its parent and the
parent's writes. A checkpoint we cannot read, or one holding a delta channel (whose value lives in its
ancestors), makes the prune refuse: dropping its ancestors could empty a channel without a trace.

Safety, in order: refused while the bot runs (unless forced); the write lock on the store is held from
start to swap, so nothing else commits meanwhile; a byte copy of the store goes to the backup folder first;
the prune and VACUUM run on a working copy beside the store, whose kept rows are checked equal to the
original's and which must pass ``integrity_check``; then one ``rename`` puts it in place. A kill at any
moment leaves the store as before (plus a working copy the next open removes) or as after. The dry run
does the same on a private copy and reports what the real run reclaims, measured, not estimated.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.api import WriteRefused
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms, schema_of
from daycare_gui.stores.cianaparrot.decode import ExtRecord, decode_typed
from daycare_gui.stores.common import leftovers
from daycare_gui.stores.common.backups import BACKUP_DIR
from daycare_gui.stores.common.edit.copies import private_folder
from daycare_gui.stores.common.sqlite_copy import copy_for_reading

DELTA_EXT_CODE = 7  # LangGraph's MessagePack extension for a delta channel's snapshot
WORK_INFIX = ".prune-"  # .<db>.prune-<pid>-<ms>: the working copy (stores.common.leftovers knows the name)
DAY_MS = 86_400_000


@dataclass(frozen=True)
class ThreadPrune:
    thread_id: str
    checkpoints: int  # before
    kept: int
    bytes_dropped: int  # checkpoint and metadata bytes of the dropped rows (before VACUUM's page savings)
    writes_dropped: int
    last_at: int | None  # ms of the newest checkpoint
    idle: bool = False  # dropped whole: idle for longer than asked


@dataclass
class PrunePlan:
    db: Path
    keep: int
    idle_days: float | None
    threads: list[ThreadPrune] = field(default_factory=list)
    size_before: int = 0  # the file and its -wal
    size_after: int = 0  # measured on a pruned, vacuumed copy
    notes: list[str] = field(default_factory=list)

    @property
    def reclaimed(self) -> int:
        return max(0, self.size_before - self.size_after)

    @property
    def checkpoints_dropped(self) -> int:
        return sum(t.checkpoints - t.kept for t in self.threads)

    @property
    def writes_dropped(self) -> int:
        return sum(t.writes_dropped for t in self.threads)

    def to_dict(self) -> dict:
        return {"database": str(self.db), "keep": self.keep, "idle_days": self.idle_days,
                "size_before": self.size_before, "size_after": self.size_after, "reclaimed": self.reclaimed,
                "checkpoints_dropped": self.checkpoints_dropped, "writes_dropped": self.writes_dropped,
                "threads": [{"thread_id": t.thread_id, "checkpoints": t.checkpoints, "kept": t.kept,
                             "bytes_dropped": t.bytes_dropped, "writes_dropped": t.writes_dropped,
                             "idle": t.idle} for t in self.threads],
                "notes": list(self.notes)}


@dataclass
class PruneResult:
    db: Path
    backup: Path | None
    size_before: int
    size_after: int
    checkpoints_dropped: int
    writes_dropped: int

    @property
    def reclaimed(self) -> int:
        return max(0, self.size_before - self.size_after)


class PruneCancelled(Exception):
    """The user cancelled; the store is as it was."""


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _stored_size(db: Path) -> int:
    return _size(db) + _size(Path(str(db) + "-wal"))


def _tables(conn: sqlite3.Connection) -> dict[str, list[str]]:
    return {r[0]: [c[1] for c in conn.execute(f'PRAGMA table_info("{r[0]}")')]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def _check_schema(conn: sqlite3.Connection) -> bool:
    """True when there is a writes table. Raises WriteRefused for layouts this prune does not handle."""
    schema = schema_of(_tables(conn))
    if schema is None:
        raise WriteRefused("no LangGraph checkpoints table in this database: nothing to prune")
    if schema.id_col != "checkpoint_id" or schema.ns_col is None or schema.parent_col is None:
        raise WriteRefused("this checkpoints database was made by an old langgraph-checkpoint-sqlite "
                           "(no checkpoint_id/checkpoint_ns columns); daycare-gui does not prune it")
    if schema.writes is not None and schema.writes.get("checkpoint_ns") is None:
        raise WriteRefused("the writes table has no checkpoint_ns column; daycare-gui does not prune it")
    return schema.writes is not None


def _has_delta(value, depth: int = 0) -> bool:
    if depth > 40:
        return False
    if isinstance(value, ExtRecord):
        return value.code == DELTA_EXT_CODE or _has_delta(value.args, depth + 1)
    if isinstance(value, dict):
        return any(_has_delta(v, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_delta(v, depth + 1) for v in value)
    return False


def _choose(conn: sqlite3.Connection, keep: int, idle_days: float | None, now_ms: int) -> None:
    """Fill the temporary table ``keep_ids`` with every checkpoint that stays. Raises WriteRefused."""
    conn.execute("DROP TABLE IF EXISTS temp.keep_ids")
    conn.execute("CREATE TEMP TABLE keep_ids (thread_id TEXT, checkpoint_ns TEXT, checkpoint_id TEXT, "
                 "PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id))")
    conn.execute("INSERT INTO temp.keep_ids SELECT thread_id, checkpoint_ns, checkpoint_id FROM ("
                 " SELECT thread_id, checkpoint_ns, checkpoint_id, ROW_NUMBER() OVER ("
                 "  PARTITION BY thread_id, checkpoint_ns ORDER BY checkpoint_id DESC) AS n FROM checkpoints)"
                 " WHERE n <= ?", (keep,))
    if idle_days is not None:
        limit = now_ms - int(idle_days * DAY_MS)
        idle = [t for t, last in conn.execute("SELECT thread_id, MAX(checkpoint_id) FROM checkpoints "
                                              "GROUP BY thread_id")
                if (at := id_time_ms(last)) is not None and at < limit]
        conn.executemany("DELETE FROM temp.keep_ids WHERE thread_id = ?", [(t,) for t in idle])
    # What the kept checkpoints need: read each one (the few kept, never the many dropped).
    parents = []
    for thread, ns, cid, parent, typ, blob in conn.execute(
            "SELECT c.thread_id, c.checkpoint_ns, c.checkpoint_id, c.parent_checkpoint_id, c.type, c.checkpoint "
            "FROM checkpoints c JOIN temp.keep_ids k USING (thread_id, checkpoint_ns, checkpoint_id)").fetchall():
        decoded = decode_typed(typ, blob)
        value = decoded.value
        if decoded.problem or not isinstance(value, dict):
            raise WriteRefused(f"checkpoint {cid} of thread {thread} cannot be read ({decoded.problem or 'not a map'}),"
                               " so what it needs cannot be told; nothing was pruned")
        if _has_delta(value.get("channel_values")):
            raise WriteRefused(f"thread {thread} uses a delta channel, whose value lives in older checkpoints; "
                               "daycare-gui does not prune such stores")
        version = value.get("v")
        if parent and (not isinstance(version, int) or version < 4):
            parents.append((thread, ns, parent))
    conn.executemany("INSERT OR IGNORE INTO temp.keep_ids VALUES (?, ?, ?)", parents)


def _thread_plan(conn: sqlite3.Connection, has_writes: bool, idle_days: float | None) -> list[ThreadPrune]:
    kept_ids = "SELECT 1 FROM temp.keep_ids k WHERE k.thread_id = c.thread_id AND " \
               "k.checkpoint_ns = c.checkpoint_ns AND k.checkpoint_id = c.checkpoint_id"
    rows = conn.execute(
        f"SELECT thread_id, COUNT(*), SUM(EXISTS ({kept_ids})), "
        f"SUM(CASE WHEN EXISTS ({kept_ids}) THEN 0 ELSE length(checkpoint) + IFNULL(length(metadata), 0) END), "
        "MAX(checkpoint_id) FROM checkpoints c GROUP BY thread_id").fetchall()
    writes: dict[str, int] = {}
    if has_writes:
        writes = dict(conn.execute(f"SELECT thread_id, COUNT(*) FROM writes c WHERE NOT EXISTS ({kept_ids}) "
                                   "GROUP BY thread_id").fetchall())
    out = [ThreadPrune(t, n, kept, dropped or 0, writes.get(t, 0), id_time_ms(last),
                       idle=idle_days is not None and kept == 0) for t, n, kept, dropped, last in rows]
    out.sort(key=lambda t: (-t.bytes_dropped, t.thread_id))
    return out


def _prune_copy(work: Path, keep: int, idle_days: float | None, now_ms: int,
                step: Callable[[str], None]) -> tuple[list[ThreadPrune], bool]:
    """Prune and VACUUM the working copy in place, in rollback-journal mode (see :func:`_journal_as`)."""
    conn = sqlite3.connect(str(work), isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")  # a throwaway copy: no WAL until it is done
        conn.execute("PRAGMA synchronous=OFF")
        has_writes = _check_schema(conn)
        step("choosing what stays")
        _choose(conn, keep, idle_days, now_ms)
        threads = _thread_plan(conn, has_writes, idle_days)
        step("dropping checkpoints")
        conn.execute("BEGIN")
        conn.execute("DELETE FROM checkpoints WHERE (thread_id, checkpoint_ns, checkpoint_id) NOT IN "
                     "(SELECT thread_id, checkpoint_ns, checkpoint_id FROM temp.keep_ids)")
        if has_writes:
            conn.execute("DELETE FROM writes WHERE (thread_id, checkpoint_ns, checkpoint_id) NOT IN "
                         "(SELECT thread_id, checkpoint_ns, checkpoint_id FROM temp.keep_ids)")
        conn.execute("COMMIT")
        conn.execute("DROP TABLE temp.keep_ids")
        step("compacting (VACUUM)")
        conn.execute("VACUUM")
        return threads, has_writes
    finally:
        conn.close()


def _journal_as(work: Path, wal: bool) -> None:
    """Give the checked copy the store's journal mode (the bot's saver runs in WAL mode; the mode is in the
    file's header). Closing the only connection folds the log back in, so no side file stays."""
    if not wal:
        return
    conn = sqlite3.connect(str(work), isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
    finally:
        conn.close()


def _verify(work: Path, original: Path, has_writes: bool) -> None:
    """Every row left in the working copy is byte for byte a row of the original, and the copy is whole."""
    conn = sqlite3.connect(_uri(work, "mode=ro"), uri=True, isolation_level=None)
    try:
        if (check := conn.execute("PRAGMA integrity_check").fetchone()[0]) != "ok":
            raise WriteRefused(f"the pruned copy failed its integrity check ({check}); the store was not changed")
        # (immutable: a finished byte copy nobody writes; a plain read-only open of a WAL file would
        # leave -wal and -shm beside the backup)
        conn.execute("ATTACH DATABASE ? AS orig", (_uri(original, "immutable=1"),))
        for table in ("checkpoints", "writes") if has_writes else ("checkpoints",):
            extra = conn.execute(f"SELECT COUNT(*) FROM (SELECT * FROM main.{table} "
                                 f"EXCEPT SELECT * FROM orig.{table})").fetchone()[0]
            if extra:
                raise WriteRefused(f"{extra} rows of {table} in the pruned copy differ from the store's; "
                                   "the store was not changed")
    finally:
        conn.close()


def _uri(path: Path, query: str) -> str:
    return f"file:{urllib.parse.quote(str(path.resolve()))}?{query}"


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    """The rename itself on disk (a power loss after it must not bring the old name back)."""
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _no_step(_: str) -> None:
    pass


def plan(db: Path, keep: int, idle_days: float | None = None, *, now_ms: int | None = None,
         step: Callable[[str], None] = _no_step) -> PrunePlan:
    """The dry run: prune a private copy and measure it. Never writes beside the store."""
    if keep < 1:
        raise WriteRefused("--keep must be at least 1: the latest checkpoint is what the bot continues from")
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    folder = Path(tempfile.mkdtemp(prefix=f"daycare-gui-cianaparrot-{os.getpid()}-"))
    try:
        os.chmod(folder, 0o700)
        step("copying the store")
        before = _stored_size(db)
        # A byte copy with its -wal (and a hot journal rolled back there): a read-only open of the store
        # itself would leave -wal and -shm beside it.
        work = copy_for_reading(db, folder)
        conn = sqlite3.connect(str(work), isolation_level=None)
        try:
            wal = conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        threads, _ = _prune_copy(work, keep, idle_days, now_ms, step)
        _journal_as(work, wal)
        result = PrunePlan(db, keep, idle_days, threads, before, _stored_size(work))
        if idle_days is not None and any(t.idle for t in threads):
            result.notes.append("dropping whole threads leaves their session counters as they are (the bot "
                                "only raises them), so no chat reuses a dropped thread's id")
        result.notes.append("older checkpoints are the run boundaries and time travel; the latest one is what "
                            "the bot continues from")
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def work_name(db: Path) -> Path:
    return db.with_name(f".{db.name}{WORK_INFIX}{os.getpid()}-{int(time.time() * 1000)}")


def backup_path(db: Path, data_dir: Path | None) -> Path:
    folder = private_folder((data_dir if data_dir is not None else db.parent) / BACKUP_DIR)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        path = folder / (f"{db.name}.{stamp}" + (f".{n}" if n else "") + ".prune.bak")
        if not path.exists():
            return path
    raise WriteRefused(f"could not choose a backup name in {folder}")


def _remove_leftovers(db: Path, backups: Path) -> None:
    """Working copies and partial backups of earlier prunes that were killed (their process is gone)."""
    mine = (f".{db.name}{WORK_INFIX}", f".{db.name}.")
    found = [lo for lo in leftovers.in_folder(db.parent) if lo.what == leftovers.PRUNE and lo.path.name.startswith(mine)]
    found += [lo for lo in leftovers.in_folder(backups) if lo.what == leftovers.SAVE and lo.path.name.endswith("-prune.tmp")]
    leftovers.clean(found)


def prune(db: Path, keep: int, idle_days: float | None = None, *, blocked: str | None, force: bool = False,
          data_dir: Path | None = None, now_ms: int | None = None, step: Callable[[str], None] = _no_step,
          cancelled: Callable[[], bool] = lambda: False) -> PruneResult:
    """Prune the store in place (see the module's text for how it stays safe). ``blocked``: the kind's
    ``writes_blocked()``, refused unless ``force``. Raises WriteRefused (nothing changed) or PruneCancelled."""
    if keep < 1:
        raise WriteRefused("--keep must be at least 1: the latest checkpoint is what the bot continues from")
    if blocked and not force:
        raise WriteRefused(f"not pruned: {blocked}; stop the bot first (or force it)")
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    db = Path(os.path.realpath(db))  # a linked database is pruned where it lies, and stays a link
    mode = stat.S_IMODE(db.stat().st_mode)
    before = _stored_size(db)
    conn = sqlite3.connect(str(db), isolation_level=None, timeout=2)
    work = work_name(db)
    wal = False
    backup: Path | None = None
    partial: Path | None = None
    swapped = False
    try:
        wal = conn.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
        _check_schema(conn)
        if wal:  # everything into the file itself, so a byte copy of it is the whole store
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy:
                raise WriteRefused("another connection is using the store (the bot?); nothing was pruned")
        try:
            conn.execute("BEGIN IMMEDIATE")  # no one else commits until the swap
        except sqlite3.OperationalError as exc:
            raise WriteRefused(f"the store is being written by someone else ({exc}); nothing was pruned") from exc
        if wal and _size(Path(str(db) + "-wal")):
            raise WriteRefused("the store's write-ahead log filled again (the bot?); nothing was pruned")
        step("backing up")
        backup = backup_path(db, data_dir)
        _remove_leftovers(db, backup.parent)
        partial = backup.with_name(f".{backup.name}.{os.getpid()}-prune.tmp")  # (a save's temp name)
        shutil.copyfile(db, partial)
        os.chmod(partial, mode)
        _fsync(partial)
        os.replace(partial, backup)
        if cancelled():
            raise PruneCancelled()
        step("copying the store")
        shutil.copyfile(db, work)
        os.chmod(work, mode)  # the pruned file keeps the store's permission bits (0600 stays 0600)
        threads, has_writes = _prune_copy(work, keep, idle_days, now_ms, step)
        if cancelled():
            raise PruneCancelled()
        step("checking the pruned copy")
        _verify(work, backup, has_writes)
        _journal_as(work, wal)
        for side in ("-wal", "-journal", "-shm"):
            if Path(str(work) + side).exists():
                raise WriteRefused(f"the pruned copy kept a {side} file; the store was not changed")
        _fsync(work)
        if cancelled():
            raise PruneCancelled()
        step("putting the pruned copy in place")
        os.replace(work, db)
        swapped = True
        _fsync_folder(db.parent)
        return PruneResult(db, backup, before, _stored_size(db), sum(t.checkpoints - t.kept for t in threads),
                           sum(t.writes_dropped for t in threads))
    except BaseException:
        if not swapped and backup is not None:
            backup.unlink(missing_ok=True)  # nothing changed, so there is nothing to undo either
        raise
    finally:
        try:
            conn.close()  # (ends the write transaction; on the old file once swapped, which is gone)
            if swapped and wal and not _size(Path(str(db) + "-wal")):
                for side in ("-wal", "-shm"):  # the old file's empty log and its index: nobody's now
                    Path(str(db) + side).unlink(missing_ok=True)
        finally:
            if partial is not None:
                partial.unlink(missing_ok=True)
            for leftover in (work, *(Path(str(work) + s) for s in ("-wal", "-journal", "-shm"))):
                if not swapped or leftover != work:
                    leftover.unlink(missing_ok=True)


def restore(db: Path, backup: Path, *, blocked: str | None, force: bool = False) -> None:
    """Undo a prune: put the backup's bytes back in place of the store, atomically."""
    if blocked and not force:
        raise WriteRefused(f"not restored: {blocked}; stop the bot first (or force it)")
    if not backup.is_file():
        raise WriteRefused(f"{backup} is not a backup file")
    for side in ("-wal", "-journal"):
        if _size(Path(str(db) + side)):
            raise WriteRefused(f"{db.name}{side} holds data newer than the file; open and close the store with the "
                               "bot first, or move it away")
    db = Path(os.path.realpath(db))
    _remove_leftovers(db, backup.parent)  # the working copy of an undo (or prune) that was killed
    work = work_name(db)
    try:
        shutil.copyfile(backup, work)
        os.chmod(work, stat.S_IMODE(db.stat().st_mode) if db.exists() else 0o600)
        _fsync(work)
        os.replace(work, db)
        _fsync_folder(db.parent)
    finally:
        work.unlink(missing_ok=True)
