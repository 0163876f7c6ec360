"""The safe public entry point: upgrade a Daycare SQLite store with the 808af509 migrations.

Safer than ``daycare upgrade``: it refuses while the engine runs, refuses databases a newer Daycare already
touched and PGlite stores, backs up first, and migrates a *working copy* next to the database (so the imports
still find the legacy folders) that replaces the database only when every migration and the integrity check
succeeded. A failure or a cancel therefore leaves the database file byte-for-byte as it was.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from daycare_gui.core import leftovers
from daycare_gui.core.display import count
from daycare_gui.core.migrations.backup import (
    copy_database,
    default_backup_path,
    remove_database_files,
    remove_wal_files,
)
from daycare_gui.core.migrations.base import Migration
from daycare_gui.core.migrations.catalog import MIGRATIONS
from daycare_gui.core.migrations.ids import IdSource
from daycare_gui.core.migrations.plan import UpgradePlan, plan_upgrade
from daycare_gui.core.migrations.runner import (
    MigrationFailed,
    RunOptions,
    now_ms,
    open_database,
    run_migrations,
)
from daycare_gui.core.migrations.store_check import check_store
from daycare_gui.core.paths import DaycarePaths

__all__ = ["UpgradePlan", "UpgradeResult", "plan_upgrade", "run_upgrade"]


@dataclass
class UpgradeResult:
    db_path: Path
    applied: list[str] = field(default_factory=list)
    refusal: str | None = None
    failure: tuple[str, str] | None = None  # (migration name, reason)
    cancelled: bool = False
    backup_path: Path | None = None
    integrity: list[str] = field(default_factory=list)  # PRAGMA integrity_check rows ("ok" when fine)
    foreign_key_violations: list[tuple] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.refusal is None and self.failure is None and not self.cancelled

    def summary(self) -> list[str]:
        if self.refusal:
            return [f"Refused: {self.refusal}"]
        out: list[str] = []
        if self.failure:
            out.append(f"Migration {self.failure[0]} failed: {self.failure[1]}")
            out.append(f"Nothing was changed: {self.db_path} is exactly as it was before.")
        elif self.cancelled:
            out.append(f"Cancelled; nothing was changed: {self.db_path} is exactly as it was before.")
        elif not self.applied:
            out.append("Storage already up to date.")
        else:
            out.append("Applied migrations: " + ", ".join(self.applied))
        if self.backup_path is not None:
            out.append(f"Backup: {self.backup_path}")
        if self.integrity:
            out.append("Integrity check: " + "; ".join(self.integrity))
        if self.applied and not self.failure and not self.cancelled:
            fk = self.foreign_key_violations
            out.append("Foreign key check: ok" if not fk else f"Foreign key check: {count(len(fk), 'violation')}")
        out.extend(f"warning: {w}" for w in self.warnings)
        return out


def _working_copy_path(db_path: Path) -> Path:
    return db_path.with_name(f".{db_path.name}.upgrade-{os.getpid()}-{now_ms()}")


def _backup(db_path: Path, target: Path) -> Path:
    """Back up under a working name first: a kill mid-copy must not leave a file named like a good backup."""
    if target.exists():
        raise FileExistsError(f"{target} already exists")
    partial = _working_copy_path(target)
    try:
        copy_database(db_path, partial)
        os.replace(partial, target)
    finally:
        remove_database_files(partial)
    return target


def _checks(conn: sqlite3.Connection) -> tuple[list[str], list[tuple]]:
    integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    violations = [tuple(row) for row in conn.execute("PRAGMA foreign_key_check")]
    return integrity, violations


def run_upgrade(
    db_path: str | Path,
    *,
    paths: DaycarePaths | None = None,
    backup: bool = True,
    backup_path: str | Path | None = None,
    progress: Callable[[int, int, Migration], None] | None = None,
    cancel: Callable[[], bool] | None = None,
    migrations: tuple[Migration, ...] = MIGRATIONS,
    ids: IdSource | None = None,
) -> UpgradeResult:
    """Apply the pending 808af509 migrations; never leaves a half-upgraded database behind."""
    db_path = Path(db_path)
    result = UpgradeResult(db_path)
    # Working copies of upgrades that were killed (their process is gone) would stay for ever otherwise.
    leftovers.clean(leftovers.in_folder(db_path.parent), only=(leftovers.UPGRADE,))
    check = check_store(db_path, paths)
    result.warnings.extend(check.warnings)
    if check.refusal:
        result.refusal = check.refusal
        return result
    done = set(check.applied)
    if not any(m.name not in done for m in migrations):
        return result

    if backup and check.kind == "sqlite":
        target = Path(backup_path) if backup_path else default_backup_path(db_path, datetime.now(timezone.utc))
        result.backup_path = _backup(db_path, target)

    work = _working_copy_path(db_path)
    try:
        if check.kind == "sqlite":
            copy_database(db_path, work)
        conn = open_database(work)
        try:
            applied = run_migrations(conn, migrations, RunOptions(ids=ids, progress=progress, cancel=cancel))
        except MigrationFailed as exc:
            conn.close()
            result.failure = (exc.name, str(exc.cause))
            return result
        result.applied = applied
        result.cancelled = cancel is not None and len(applied) < len([m for m in migrations if m.name not in done])
        result.integrity, result.foreign_key_violations = _checks(conn)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()
        if result.cancelled:
            result.applied = []  # the working copy is discarded: nothing reached the store
            return result
        if result.integrity != ["ok"]:
            result.failure = ("integrity_check", "; ".join(result.integrity))
            return result
        # Old -wal/-shm belong to the old file: replayed onto the new one they would corrupt it.
        remove_wal_files(db_path)
        os.replace(work, db_path)
        return result
    finally:
        remove_database_files(work)

