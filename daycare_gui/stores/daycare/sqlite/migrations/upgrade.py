"""The safe public entry point: upgrade a Daycare SQLite store with the 808af509 migrations.

Safer than ``daycare upgrade``: it refuses while the engine runs, refuses databases a newer Daycare already
touched and PGlite stores, backs up first, and migrates a *working copy* next to the database (so the imports
still find the legacy folders) that replaces the database only when every migration and the integrity check
succeeded. A failure or a cancel therefore leaves the database file byte-for-byte as it was.

The swap is the last step and the only one that changes the store. Right before it, the database, its
``-wal`` and ``-journal`` must be exactly as they were when the copy was taken and the engine must still be
stopped: a write that happened meanwhile would be lost with the old file, so the upgrade stops instead.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from daycare_gui.stores.common import leftovers
from daycare_gui.stores.common.edit.atomic import _fsync_directory
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.daycare.sqlite.migrations.backup import (
    copy_database,
    default_backup_path,
    fingerprint,
    match_file,
    remove_database_files,
    side_file,
)
from daycare_gui.stores.daycare.sqlite.migrations.base import Migration
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.ids import IdSource
from daycare_gui.stores.daycare.sqlite.migrations.plan import UpgradePlan, plan_upgrade
from daycare_gui.stores.daycare.sqlite.migrations.runner import (
    MigrationFailed,
    RunOptions,
    now_ms,
    open_database,
    run_migrations,
)
from daycare_gui.stores.daycare.sqlite.migrations.store_check import check_store, engine_refusal

__all__ = ["UpgradePlan", "UpgradeResult", "plan_upgrade", "run_upgrade"]


# Failures that are not a migration's: what the summary and the dialog call them.
STAGES = {
    "integrity_check": "The integrity check of the upgraded copy failed",
    "backup": "The backup could not be written",
    "working_copy": "The working copy could not be made",
    "store_changed": "The database was written to while the upgrade ran",
    "engine_started": "Daycare's engine started while the upgrade ran",
    "swap": "The upgraded copy could not replace the database",
}


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
    # Set when a failed swap could not put the old -wal/-shm back: then not everything is as it was.
    not_restored: str | None = None

    @property
    def ok(self) -> bool:
        return self.refusal is None and self.failure is None and not self.cancelled

    def failure_headline(self) -> str:
        name = self.failure[0] if self.failure else ""
        return STAGES.get(name, f"Migration {name} failed")

    def unchanged_line(self) -> str:
        if self.not_restored:
            return self.not_restored
        return f"Nothing was changed: {self.db_path} is exactly as it was before."

    def summary(self) -> list[str]:
        if self.refusal:
            return [f"Refused: {self.refusal}"]
        out: list[str] = []
        if self.failure:
            out.append(f"{self.failure_headline()}: {self.failure[1]}")
            out.append(self.unchanged_line())
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


# The old -wal/-shm while the swap runs: ``.<db>.upgrade-<pid>-<ms>.ino<inode of the old db>.old-wal``. The
# leftover cleaner does not match these names (a kill must not lead to the WAL being deleted).
_ASIDE_RE = re.compile(r"^\.(?P<target>.+)\.upgrade-(?P<pid>\d+)-\d+\.ino(?P<ino>\d+)\.old(?P<suffix>-wal|-shm)$")


def _aside_path(work: Path, ino: int, suffix: str) -> Path:
    return work.with_name(f"{work.name}.ino{ino}.old{suffix}")


class SwapFailed(Exception):
    def __init__(self, cause: OSError, not_restored: list[tuple[Path, Path]]) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.not_restored = not_restored  # (where it is, where it belongs)


def _swap_in(work: Path, db_path: Path) -> None:
    """Put the finished working copy at ``db_path``: the one step that changes the store.

    The old ``-wal``/``-shm`` belong to the old file (the working copy already holds the WAL's committed
    content): replayed onto the new file they would corrupt it. They are renamed aside, not deleted, before
    the swap, so a failed swap puts them back and leaves every file as it was, and only removed once it
    succeeded. A kill between the renames leaves them under a name the next upgrade puts back
    (:func:`_recover_set_aside`)."""
    try:
        ino = os.stat(db_path).st_ino
    except FileNotFoundError:
        ino = 0
    moved: list[tuple[Path, Path]] = []
    try:
        for suffix in ("-wal", "-shm"):
            side = side_file(db_path, suffix)
            if os.path.lexists(side):
                aside = _aside_path(work, ino, suffix)
                os.rename(side, aside)
                moved.append((aside, side))
        os.replace(work, db_path)
    except OSError as exc:
        not_restored = []
        for aside, side in reversed(moved):
            try:
                os.rename(aside, side)
            except OSError:
                not_restored.append((aside, side))
        raise SwapFailed(exc, not_restored) from exc
    for aside, _side in moved:
        try:
            aside.unlink()
        except OSError:
            pass  # the next upgrade removes it (its database was replaced)
    _fsync_directory(db_path.parent)


def _recover_set_aside(db_path: Path) -> str | None:
    """After a kill between setting the old ``-wal``/``-shm`` aside and the swap, put them back; remove
    those of a database that was replaced. Returns a refusal when one cannot be put back safely."""
    try:
        names = sorted(os.listdir(db_path.parent))
    except OSError:
        return None
    for name in names:
        m = _ASIDE_RE.match(name)
        if not m or m["target"] != db_path.name or leftovers.pid_alive(int(m["pid"])):
            continue
        aside, side = db_path.parent / name, side_file(db_path, m["suffix"])
        try:
            try:
                st = os.stat(db_path)
            except FileNotFoundError:
                st = None
            if st is None or st.st_ino != int(m["ino"]):
                aside.unlink()  # the swap happened: it belonged to the file it replaced
                continue
            # The swap did not happen. Unless the database was written since, this is its -wal/-shm.
            if not os.path.lexists(side) and st.st_mtime_ns <= aside.stat().st_ctime_ns:
                os.rename(aside, side)
                continue
            if m["suffix"] == "-shm":
                aside.unlink()  # an index of the WAL, rebuilt from it: no data of its own
                continue
        except OSError as exc:
            return f"{aside} (set aside by an upgrade that was stopped) could not be put back: {exc}."
        return (f"{aside} is the write-ahead log of {db_path}, set aside by an upgrade that was stopped "
                f"(process {m['pid']}) just before it would have replaced the database; but the database was "
                "opened and written to since, so putting it back would corrupt it. The commits it holds are in "
                "the backup that upgrade made, if it made one (daycare.db.backup-*). Remove the file to upgrade "
                "anyway.")
    return None


def _backup(db_path: Path, target: Path) -> Path:
    """Back up under a working name first: a kill mid-copy must not leave a file named like a good backup."""
    if target.exists():
        raise FileExistsError(f"{target} already exists")
    partial = _working_copy_path(target)
    try:
        copy_database(db_path, partial)
        match_file(partial, os.stat(db_path))  # never more open than the database it copies
        os.replace(partial, target)
    finally:
        remove_database_files(partial)
    return target


def _checks(conn: sqlite3.Connection) -> tuple[list[str], list[tuple]]:
    integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
    violations = [tuple(row) for row in conn.execute("PRAGMA foreign_key_check")]
    return integrity, violations


def _changed_meanwhile(
    db_path: Path, given: Path, paths: DaycarePaths | None, before: tuple
) -> tuple[str, str] | None:
    """Why the upgraded copy may not replace the database now: the engine started, or someone wrote to the
    database after the copy was taken (the swap would throw that write away). ``given`` is the path the
    user named (its folder is the store's), ``db_path`` the file it is or links to."""
    engine = engine_refusal(given, paths)
    if engine:
        return "engine_started", engine
    if fingerprint(db_path) != before:
        return "store_changed", (f"{db_path.name} (or its -wal or -journal) changed after the copy was taken, so "
                                 "the upgraded copy lacks that change. Stop whatever writes to it and run the "
                                 "upgrade again.")
    return None


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
    """Apply the pending 808af509 migrations; never leaves a half-upgraded database behind.

    A ``daycare.db`` that is a symbolic link is upgraded where it points, and stays a link: SQLite (so
    Daycare) follows the link too, keeps the ``-wal`` beside the target and imports from the target's folder
    (the folder of ``PRAGMA database_list``'s file), which is where the working copy is made."""
    given = Path(db_path)
    result = UpgradeResult(given)
    db_path = Path(os.path.realpath(given))
    refusal = _recover_set_aside(db_path)
    if refusal:
        result.refusal = refusal
        return result
    # Working copies of upgrades that were killed (their process is gone) would stay for ever otherwise.
    leftovers.clean(leftovers.in_folder(db_path.parent), only=(leftovers.UPGRADE,))
    # Taken before anything is read: the backup and the working copy hold this state or a later one, and the
    # swap checks that there was no later one.
    before = fingerprint(db_path)
    check = check_store(given, paths)
    result.warnings.extend(check.warnings)
    if check.refusal:
        result.refusal = check.refusal
        return result
    done = set(check.applied)
    if not any(m.name not in done for m in migrations):
        return result

    if backup and check.kind == "sqlite":
        target = Path(backup_path) if backup_path else default_backup_path(db_path, datetime.now(timezone.utc))
        try:
            result.backup_path = _backup(db_path, target)
        except (OSError, sqlite3.Error) as exc:
            result.failure = ("backup", f"{target}: {exc}")
            return result

    work = _working_copy_path(db_path)
    try:
        try:
            if check.kind == "sqlite":
                copy_database(db_path, work)
            conn = open_database(work)
        except (OSError, sqlite3.Error) as exc:
            result.failure = ("working_copy", f"{work}: {exc}")
            return result
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
        # The new file takes the old one's place, so it takes its mode and owner too (a private store stays
        # private; the store of a Daycare that runs as another user stays that user's).
        try:
            not_kept = match_file(work, os.stat(db_path), shown_as=db_path) if check.kind == "sqlite" else None
        except OSError as exc:
            result.failure, result.applied = ("working_copy", f"{work}: {exc}"), []
            return result
        stop = _changed_meanwhile(db_path, given, paths, before)
        if stop:
            result.failure, result.applied = stop, []
            return result
        try:
            _swap_in(work, db_path)
        except SwapFailed as exc:
            result.failure, result.applied = ("swap", f"{exc.cause}"), []
            if exc.not_restored:
                result.not_restored = "Not everything could be put back: " + "; ".join(
                    f"{side.name} is at {aside}: rename it back to {side} before opening the database "
                    "(the next upgrade does it)" for aside, side in exc.not_restored)
            return result
        if not_kept:
            result.warnings.append(not_kept)
        return result
    finally:
        remove_database_files(work)
