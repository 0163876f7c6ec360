"""Daycare's SQLite and legacy stores through ``api.Storage``: the 808af509 migrations, and the upgrade.

The work stays the core's (``core/migrations``: the dry run, the run on a working copy, the backup, the
checks before the swap); this adapter only says it in the neutral records the shared Storage page and the
Upgrade dialog show. Its imports are lazy (the migrations package is heavy): ``modules`` names them so the
window imports them on its GUI thread before a worker calls in.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.api import Storage
from daycare_gui.stores.records import MigrationLine, UpgradePlan, UpgradeResult, UpgradeStep

UNCHANGED = "The store was left unchanged: {db} is exactly as it was before."


# The module the dialog's tests replace to break a run (``run_upgrade`` looked up here at call time).
def run_upgrade(*args, **kwargs):
    from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade as run

    return run(*args, **kwargs)


def plan_upgrade(db_path, paths):
    from daycare_gui.stores.daycare.sqlite.migrations.plan import plan_upgrade as plan

    return plan(db_path, paths)


class DaycareStorage(Storage):
    modules = ("daycare_gui.stores.daycare.sqlite.migrations.upgrade", "daycare_gui.stores.daycare.sqlite.migrations.plan",
               "daycare_gui.stores.daycare.sqlite.queries.overview", "daycare_gui.stores.daycare.space")

    def __init__(self, core) -> None:
        self.core = core

    def own_folders(self):
        paths = self.core.paths  # backups in the data folder; an upgrade's working copy beside the database
        return tuple(dict.fromkeys(p for p in (paths.data_dir, paths.db_path.parent, paths.root) if p is not None))

    def space(self, progress=None):
        from daycare_gui.stores.daycare.space import sqlite_space

        if self.core.db is None:  # a legacy folder: no database yet
            return None
        return sqlite_space(self.core.db, self.core.paths.db_path, self.core.paths.data_dir, progress)

    def space_quick(self):
        from daycare_gui.stores.daycare.space import sqlite_space

        if self.core.db is None:
            return None
        return sqlite_space(self.core.db, self.core.paths.db_path, self.core.paths.data_dir, quick=True)

    def migrations(self) -> list[MigrationLine]:
        from daycare_gui.stores.daycare.sqlite.queries.overview import migration_lines

        return [MigrationLine(m.status, m.name, m.applied_at, m.note) for m in migration_lines(self.core.migrations)]

    def migration_summary(self) -> str:
        from daycare_gui.stores.daycare.sqlite.queries.overview import migration_summary

        return migration_summary(self.core.migrations)

    def upgrade_plan(self) -> UpgradePlan | str:
        plan = plan_upgrade(self.core.paths.db_path, self.core.paths)
        if plan.refusal:
            return plan.refusal
        exists = plan.check.kind == "sqlite"
        steps = tuple(UpgradeStep(p.name, p.description, _import_text(p), _rows_text(p), tuple(p.lines()))
                      for p in plan.pending)
        skipped = tuple(f"{pr.path}:{pr.line} — {pr.message}" if pr.line is not None else f"{pr.path} — {pr.message}"
                        for p in plan.pending for pr in (p.scan.skipped if p.scan is not None else ()))
        notes = tuple(f"{p.name}: {n}" for p in plan.pending if p.scan is not None for n in p.scan.notes)
        return UpgradePlan(
            target=Path(plan.check.db_path), exists=exists, steps=steps,
            up_to_date=f"{plan.check.db_path} records every migration of Daycare 808af509; there is nothing to run.",
            skipped=skipped, notes=notes, predicted_failure=plan.predicted_failure,
            warnings=tuple(plan.check.warnings), native=plan)

    def default_backup(self, plan: UpgradePlan) -> Path | None:
        from daycare_gui.stores.daycare.sqlite.migrations.backup import default_backup_path

        return default_backup_path(plan.target) if plan.exists else None

    def upgrade(self, plan: UpgradePlan, backup: bool | Path, progress=None, cancelled=None) -> UpgradeResult:
        from daycare_gui.stores.daycare.sqlite.migrations.upgrade import STAGES

        report = (lambda i, n, m: progress(i, n, m.name)) if progress is not None else None
        try:
            done = run_upgrade(plan.target, paths=self.core.paths, backup=bool(backup) and plan.exists,
                               backup_path=backup if isinstance(backup, Path) else None,
                               progress=report, cancel=cancelled)
        except Exception as exc:  # raised before it could report (the backup could not be written): no swap
            return UpgradeResult(plan.target, failure=str(exc), failure_headline="The upgrade stopped with an error",
                                 unchanged=UNCHANGED.format(db=plan.target))
        failure = headline = ""
        if done.failure:
            name, reason = done.failure
            failure = reason if name in STAGES else f"{name}: {reason}"
            headline = done.failure_headline()
        return UpgradeResult(
            target=plan.target, applied=tuple(done.applied), cancelled=done.cancelled, refusal=done.refusal or "",
            failure=failure, failure_headline=headline,
            unchanged=done.not_restored or UNCHANGED.format(db=done.db_path),
            backup_path=done.backup_path,
            done=(f"{done.db_path} now records every migration of Daycare 808af509. Every pane reloads when "
                  "this dialog closes."),
            checks=tuple(_check_lines(done)), warnings=tuple(done.warnings))


def _import_text(planned) -> str:
    """What an import migration would read from the legacy files ("" for schema migrations)."""
    scan = planned.scan
    if scan is None:
        return ""
    text = scan.summary()
    if scan.skipped:
        n = len(scan.skipped)
        text += f"; skips {n:,} line{'' if n == 1 else 's'}"
    if scan.failure:
        text += f"; would abort: {scan.failure}"
    return text


def _rows_text(planned) -> str:
    return ", ".join(f"{table} {n:+d}" for table, n in planned.row_changes.items())


def _check_lines(result) -> list[str]:
    lines = []
    if result.integrity:
        lines.append("Integrity check: " + "; ".join(result.integrity))
    if result.applied and not result.failure and not result.cancelled:
        fk = result.foreign_key_violations
        if not fk:
            lines.append("Foreign key check: ok")
        else:
            lines.append(f"Foreign key check: {len(fk):,} violation{'' if len(fk) == 1 else 's'}")
            # PRAGMA foreign_key_check rows: (table, rowid, parent table, fk index)
            lines.extend(f"  {v[0]} row {v[1]} → {v[2]}" for v in fk[:20])
            if len(fk) > 20:
                lines.append(f"  … and {len(fk) - 20} more")
    return lines
