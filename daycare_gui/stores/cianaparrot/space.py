"""CianaParrot's space through ``api.Storage``: the checkpoints database by table and by thread, the files
beside it by folder, and the prune (``prune.py``) with its dry run.

The saver stores the whole state at every super-step, so a thread's bytes grow with the square of its
length; the advice names the largest threads and what keeping only their latest checkpoint would give.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from daycare_gui.stores.api import Storage, WriteRefused
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms
from daycare_gui.stores.common.backups import BACKUP_DIR
from daycare_gui.stores.common.space import folder_lines, per_day, sqlite_file, sqlite_tables
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.records import PruneDone, PrunePreview, SpaceAction, SpaceLine, SpaceReport

ADVICE_THREADS = 3  # the largest threads named in the advice


class CianaStorage(Storage):
    modules = ("daycare_gui.stores.cianaparrot.prune", "daycare_gui.stores.common.space")
    offers_upgrade = False  # (no migrations: Storage → Upgrade stays away, as before)

    def __init__(self, store) -> None:
        self.store = store

    def own_folders(self):
        L = self.store.layout  # backups in the data folder; working copies beside the database and documents
        return tuple(p for p in (L.data_dir, L.db.parent if L.db is not None else None, L.workspace, L.root)
                     if p is not None)

    def _fetch(self, sql: str) -> list[tuple]:
        return self.store.db.conn.execute(sql).fetchall()

    def _threads(self) -> list[SpaceLine]:
        """Per thread: the bytes of its checkpoints and writes, how many checkpoints, growth per day."""
        writes = {}
        if "writes" in self.store.tables:
            writes = {t: (n or 0) for t, n in self._fetch(
                "SELECT thread_id, SUM(IFNULL(length(value), 0) + length(channel) + length(task_id)) "
                "FROM writes GROUP BY thread_id")}
        id_col = "checkpoint_id" if "checkpoint_id" in self.store.tables.get("checkpoints", ()) else "thread_ts"
        meta = "IFNULL(length(metadata), 0)" if "metadata" in self.store.tables.get("checkpoints", ()) else "0"
        out = []
        for thread, count, size, first, last in self._fetch(
                f"SELECT thread_id, COUNT(*), SUM(length(checkpoint) + {meta}), MIN({id_col}), MAX({id_col}) "
                "FROM checkpoints GROUP BY thread_id"):
            total = int(size or 0) + int(writes.get(thread, 0))
            out.append(SpaceLine(thread, total, "thread", count, f"{count:,} checkpoint{'' if count == 1 else 's'}",
                                 per_day(total, id_time_ms(first), id_time_ms(last))))
        out.sort(key=lambda line: (-line.bytes, line.name))
        return out

    def _keep_latest_bytes(self) -> int:
        """The bytes of every checkpoint but each thread's (and namespace's) latest, with their writes:
        what a prune keeping one drops, before VACUUM hands back the pages."""
        cols = self.store.tables.get("checkpoints", ())
        if "checkpoint_id" not in cols or "checkpoint_ns" not in cols:
            return 0
        meta = ", metadata" if "metadata" in cols else ", NULL AS metadata"
        rows = self._fetch("SELECT SUM(length(checkpoint) + IFNULL(length(metadata), 0)) FROM ("
                           f"SELECT checkpoint{meta}, ROW_NUMBER() OVER (PARTITION BY thread_id, checkpoint_ns "
                           "ORDER BY checkpoint_id DESC) AS n FROM checkpoints) WHERE n > 1")
        return int(rows[0][0] or 0)

    def space(self, progress=None) -> SpaceReport | None:
        store, layout = self.store, self.store.layout
        report = SpaceReport(holders_title="Threads")
        if store.db is not None:
            if progress:
                progress("measuring tables")
            report.tables, report.method = sqlite_tables(self._fetch)
            pages, report.free, report.wal = sqlite_file(self._fetch, layout.db)
            report.total = pages + report.wal
            if "checkpoints" in store.tables:
                if progress:
                    progress("measuring threads")
                report.holders = self._threads()
        folders = []
        if layout.data_dir is not None:
            folders += [("session logs (data/sessions)", layout.data_dir / "sessions"),
                        ("backups left by daycare-gui", layout.data_dir / BACKUP_DIR)]
        if layout.workspace is not None:
            folders.append(("workspace (with its session logs)", layout.workspace))
        report.folders = folder_lines(folders)
        self._advise(report)
        return report

    def _advise(self, report: SpaceReport) -> None:
        if report.holders:
            dropped = self._keep_latest_bytes()
            for line in report.holders[:ADVICE_THREADS]:
                if (line.count or 0) > 1:
                    report.advice.append(f"Thread {line.name} holds {byte_size(line.bytes)} in {line.count:,} checkpoints; "
                                         "its last checkpoint is all the bot needs to continue (the older ones are "
                                         "its history of runs and time travel).")
            if dropped:
                report.actions.append(SpaceAction(
                    "prune", "Prune checkpoints, keeping the latest of each thread", dropped + (report.free or 0),
                    f"{byte_size(dropped)} of older checkpoints and {byte_size(report.free or 0)} of free pages; the dry run "
                    "measures the file it would leave. Stop the bot first; a backup is made."))
                report.advice.append(f"Pruning to the latest checkpoint of each thread drops {byte_size(dropped)} of "
                                     "checkpoints; it costs their run boundaries and time travel, and takes a "
                                     "backup's worth of free disk while it runs.")
        elif report.free:
            report.advice.append(f"A VACUUM with the bot stopped gives back the {byte_size(report.free)} of free pages; it "
                                 "rewrites the whole file, which needs as much free disk while it runs.")
        backups = next((f for f in report.folders if f.name.startswith("backups")), None)
        if backups is not None and backups.bytes:
            n = backups.count or 0
            report.advice.append(f"daycare-gui's own backups take {byte_size(backups.bytes)} in {n:,} file"
                                 f"{'' if n == 1 else 's'} ({backups.detail}): each is the undo of a change it made; "
                                 "removing the older ones (below: keep the newest of each file) costs those undos.")

    # -- the prune ---------------------------------------------------------------------------------------
    def _db(self) -> Path:
        if self.store.layout.db is None or self.store.db is None:
            raise WriteRefused("there is no checkpoints database to prune")
        return self.store.layout.db

    def prune_preview(self, keep: int, idle_days: float | None = None, progress=None) -> PrunePreview:
        from daycare_gui.stores.cianaparrot import prune

        try:
            plan = prune.plan(self._db(), keep, idle_days, step=progress or prune._no_step)
        except WriteRefused as exc:
            return PrunePreview(refusal=str(exc))
        except (OSError, sqlite3.Error) as exc:  # e.g. no room for the private copy
            return PrunePreview(refusal=f"the dry run could not be made ({getattr(exc, 'strerror', None) or exc})")
        lines = tuple(SpaceLine(t.thread_id, t.bytes_dropped, "thread", t.checkpoints - t.kept,
                                ("the whole thread (idle)" if t.idle else f"keeps {t.kept} of {t.checkpoints}")
                                + f", {t.writes_dropped} writes") for t in plan.threads if t.kept < t.checkpoints)
        summary = (f"Drops {plan.checkpoints_dropped:,} checkpoints and {plan.writes_dropped:,} writes; the database "
                   f"goes from {byte_size(plan.size_before)} to {byte_size(plan.size_after)} "
                   f"({byte_size(plan.reclaimed)} given back).")
        return PrunePreview(plan.size_before, plan.size_after, lines, summary, tuple(plan.notes))

    def prune(self, keep: int, idle_days: float | None = None, *, force: bool = False, progress=None,
              cancelled=None) -> PruneDone:
        from daycare_gui.stores.cianaparrot import prune

        try:
            db = self._db()
            blocked = self.store.writes_blocked()
            result = prune.prune(db, keep, idle_days, blocked=blocked, force=force, data_dir=self.store.layout.data_dir,
                                 step=progress or prune._no_step, cancelled=cancelled or (lambda: False))
        except WriteRefused as exc:
            return PruneDone(refusal=str(exc))
        except prune.PruneCancelled:
            return PruneDone(cancelled=True, summary="Cancelled: the store is as it was.")
        except (OSError, sqlite3.Error) as exc:
            return PruneDone(refusal=f"not pruned ({getattr(exc, 'strerror', None) or exc}); the store is as it was")
        return PruneDone(result.size_before, result.size_after, result.backup,
                         f"Pruned: {result.checkpoints_dropped:,} checkpoints and {result.writes_dropped:,} writes "
                         f"dropped, {byte_size(result.size_before)} → {byte_size(result.size_after)}. The backup "
                         f"{result.backup} holds the store as it was (daycare-gui prune PATH --undo BACKUP).")

    def undo_prune(self, backup: Path, *, force: bool = False) -> PruneDone:
        from daycare_gui.stores.cianaparrot import prune

        try:
            db = self._db()
            prune.restore(db, backup, blocked=self.store.writes_blocked(), force=force)
        except WriteRefused as exc:
            return PruneDone(refusal=str(exc))
        except OSError as exc:
            return PruneDone(refusal=f"not restored ({exc.strerror or exc}); the store is as it was")
        return PruneDone(backup=backup, summary=f"Restored {db} from {backup}.")
