"""Dry run: what an upgrade would do, without writing anything.

Each pending migration is listed with what it changes; imports also say what they would read from the legacy
files and which lines they would skip. The pending migrations are then run on an in-memory copy of the
database (reading the real legacy folder), which gives exact row counts and shows a failure before it happens.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.daycare.sqlite.migrations.backup import open_readonly
from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, Migration
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.runner import (
    MigrationFailed,
    RunOptions,
    open_database,
    run_migrations,
)
from daycare_gui.stores.daycare.sqlite.migrations.store_check import StoreCheck, check_store


@dataclass
class PlannedMigration:
    name: str
    description: str
    scan: LegacyScan | None = None
    row_changes: dict[str, int] = field(default_factory=dict)  # table → rows added (negative: removed)

    def lines(self) -> list[str]:
        out = [f"{self.name}: {self.description}"]
        if self.scan is not None:
            out.append(f"  legacy files: {self.scan.summary()}")
            out.extend(f"  note: {n}" for n in self.scan.notes)
            out.extend(f"  would skip {p}" for p in self.scan.skipped)
        if self.row_changes:
            out.append("  rows: " + ", ".join(f"{t} {n:+d}" for t, n in self.row_changes.items()))
        return out


@dataclass
class UpgradePlan:
    check: StoreCheck
    pending: list[PlannedMigration] = field(default_factory=list)
    predicted_failure: tuple[str, str] | None = None  # (migration name, reason)

    @property
    def refusal(self) -> str | None:
        return self.check.refusal

    def lines(self) -> list[str]:
        if self.refusal:
            return [f"Refused: {self.refusal}"]
        if not self.pending:
            return ["Storage already up to date."]
        out = [f"Pending migrations ({len(self.pending)}):"]
        for planned in self.pending:
            out.extend(planned.lines())
        if self.predicted_failure:
            name, reason = self.predicted_failure
            out.append(f"The upgrade would fail at {name}: {reason}")
        out.extend(f"warning: {w}" for w in self.check.warnings)
        return out


def _row_counts(conn: sqlite3.Connection) -> dict[str, int]:
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {t: conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables if t != "_migrations" and not t.startswith("sqlite_")}


def _simulate(plan: UpgradePlan, db_path: Path, pending: list[Migration]) -> None:
    mem = open_database(":memory:")
    try:
        if db_path.exists():
            src = open_readonly(db_path)
            try:
                src.backup(mem)
            finally:
                src.close()
        by_name = {p.name: p for p in plan.pending}
        counts = _row_counts(mem)

        def record_changes(done: Migration) -> None:
            nonlocal counts
            after = _row_counts(mem)
            changes = {t: n - counts.get(t, 0) for t, n in after.items() if n != counts.get(t, 0)}
            by_name[done.name].row_changes = changes
            counts = after

        previous: list[Migration] = []

        def progress(_i: int, _n: int, migration: Migration) -> None:
            if previous:
                record_changes(previous[-1])
            previous.append(migration)

        try:
            run_migrations(mem, pending, RunOptions(progress=progress, legacy_dir=db_path.parent))
            if previous:
                record_changes(previous[-1])
        except MigrationFailed as exc:
            plan.predicted_failure = (exc.name, str(exc.cause))
    finally:
        mem.close()


def plan_upgrade(db_path: str | Path, paths: DaycarePaths | None = None) -> UpgradePlan:
    db_path = Path(db_path)
    check = check_store(db_path, paths)
    plan = UpgradePlan(check)
    if check.refusal:
        return plan
    done = set(check.applied)
    pending = [m for m in MIGRATIONS if m.name not in done]
    # The imports read the folder of the file a symlinked database points to, as SQLite reports it (and as
    # run_upgrade's working copy, made beside that file, sees it).
    real = Path(os.path.realpath(db_path))
    for migration in pending:
        scan = migration.scan(real.parent) if migration.scan is not None else None
        plan.pending.append(PlannedMigration(migration.name, migration.description, scan))
    if pending:
        _simulate(plan, real, pending)
    return plan
