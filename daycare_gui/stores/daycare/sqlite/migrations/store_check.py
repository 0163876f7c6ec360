"""Is this store one we may upgrade? (engine, PGlite, file type, which migration list wrote it)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.daycare.detect import database_folder_note, is_pglite_folder
from daycare_gui.stores.daycare.engine import engine_status
from daycare_gui.stores.daycare.paths import DaycarePaths, resolve_paths
from daycare_gui.stores.daycare.sqlite.migrations.backup import hot_journal, open_readonly
from daycare_gui.stores.daycare.sqlite.migrations.runner import applied_names
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509, MIGRATIONS_B8A8D807

SQLITE_HEADER = b"SQLite format 3\x00"
# Recorded by Daycare builds of 2026-02-21 (00b29831..9f587fba) and never removed; 808af509 ignores it.
TOLERATED_ORPHANS = frozenset({"20260221_add_permission_requests"})
NEWER_NAMES = tuple(n for n in MIGRATIONS_B8A8D807 if n not in MIGRATIONS_808AF509)


@dataclass
class StoreCheck:
    db_path: Path
    kind: str  # "missing", "sqlite", "pglite", "not-sqlite"
    applied: list[str] = field(default_factory=list)
    refusal: str | None = None
    warnings: list[str] = field(default_factory=list)


def _is_sqlite_file(path: Path) -> bool:
    with open_regular(path) as fh:
        head = fh.read(16)
    return head == SQLITE_HEADER or head == b""  # an empty file is an empty SQLite database


def _cron_task_id_failure(conn: sqlite3.Connection) -> str | None:
    """The error b8a8d807's 20260227_require_cron_task_id would throw on this database, if any."""
    columns = [r[1] for r in conn.execute("PRAGMA table_info(tasks_cron)")]
    if "task_id" not in columns:
        return None
    row = conn.execute(
        "SELECT id FROM tasks_cron WHERE task_id IS NULL OR trim(task_id) = '' ORDER BY rowid LIMIT 1"
    ).fetchone()
    return f"Cannot require tasks_cron.task_id; trigger {row[0]} has no task_id." if row else None


def _newer_refusal(conn: sqlite3.Connection, applied: list[str]) -> str:
    found = [n for n in applied if n in NEWER_NAMES]
    unknown = [n for n in applied if n not in MIGRATIONS_B8A8D807 and n not in TOLERATED_ORPHANS]
    parts = []
    if found:
        parts.append(
            "This database was upgraded by a newer Daycare (the b8a8d807 migration list): it records "
            + ", ".join(found) + "."
        )
        pending = [n for n in MIGRATIONS_B8A8D807 if n not in applied]
        if pending:
            line = f"Under that list its next pending migration is {pending[0]}"
            failure = _cron_task_id_failure(conn) if pending[0] == "20260227_require_cron_task_id" else None
            line += f", which fails with: {failure}" if failure else "."
            parts.append(line)
    if unknown:
        parts.append("It records migrations no known Daycare list has: " + ", ".join(unknown) + ".")
    parts.append("daycare-gui only runs the 26 migrations of Daycare 808af509 and will not change this database.")
    return " ".join(parts)


# What Daycare's import migrations read, relative to the folder holding the database (reference §5):
# (folder, pattern inside it). Any one present means there is something to upgrade from.
_LEGACY_INPUTS = (
    ("agents", "*/descriptor.json"), ("cron", "*/TASK.md"), ("heartbeat", "*.md"), ("heartbeat", "*.MD"),
    ("signals", "events.jsonl"), ("signals", "delayed.json"), ("channels", "*/channel.json"),
    ("expose/endpoints", "*.json"), ("processes", "*/record.json"),
)
# Tables any Daycare SQLite database has from its first migration on.
_DAYCARE_TABLES = frozenset({"_migrations", "agents", "sessions", "session_history"})


def legacy_inputs(folder: Path) -> list[str]:
    """The legacy inputs (``agents``, ``cron``, …) present in ``folder``; stops looking in each at the first hit."""
    found = []
    for name, pattern in _LEGACY_INPUTS:
        base = folder / name
        if name.split("/")[0] not in found and base.is_dir() and next(base.glob(pattern), None) is not None:
            found.append(name.split("/")[0])
    return found


def nothing_to_upgrade(db_path: Path) -> str | None:
    """Why there is nothing to upgrade when the database does not exist yet (no legacy files to import)."""
    db_path = Path(db_path)
    pglite = db_path if db_path.suffix == ".pglite" else db_path.with_suffix(".pglite")
    if db_path.exists() or pglite.is_dir() or legacy_inputs(db_path.parent):
        return None
    return (f"{db_path.parent} has no Daycare database and no legacy Daycare files to import "
            "(agents/, cron/, heartbeat/, signals/, channels/, expose/, processes/), so there is nothing "
            "to upgrade; Daycare creates its database itself when it first starts.")


def _foreign_tables(conn: sqlite3.Connection) -> list[str]:
    """The tables of a SQLite file that has tables but none of Daycare's: someone else's database."""
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return tables if tables and not _DAYCARE_TABLES & set(tables) else []


def hot_journal_refusal(db_path: Path, journal: Path) -> str:
    return (f"{journal} lies beside the database: Daycare or another program was stopped in the middle of "
            f"writing to {db_path.name} (or is writing to it right now), so the file holds half of that write. "
            "No backup was taken: it would be a torn copy too. Stop whatever is writing, then let SQLite roll "
            f"the write back by opening the database once, e.g. sqlite3 {db_path} \"PRAGMA integrity_check\" "
            "(any read-write open does it), and run the upgrade again.")


def engine_refusal(db_path: Path, paths: DaycarePaths | None = None) -> str | None:
    """Why nothing may be written while Daycare's engine runs, if it runs (pid file or socket)."""
    if paths is None:
        paths = resolve_paths(db_path.parent) if db_path.parent.is_dir() else None
    if paths is None:
        return None
    status = engine_status(paths)
    if not status.running:
        return None
    return (f"Daycare's engine is running ({status.detail}); stop it before upgrading: the engine keeps the "
            "database open and caches rows.")


def check_store(db_path: Path, paths: DaycarePaths | None = None, *, check_engine: bool = True) -> StoreCheck:
    db_path = Path(db_path)
    if check_engine:
        engine = engine_refusal(db_path, paths)
        if engine:
            return StoreCheck(db_path, "unknown", refusal=engine)
    # PGlite lives only at the database path with ".pglite" as its extension (reference §7); a folder
    # where the SQLite file should be is damage, whatever it holds.
    pglite = db_path if db_path.suffix == ".pglite" else db_path.with_suffix(".pglite")
    if is_pglite_folder(pglite):
        return StoreCheck(db_path, "pglite", refusal=f"{pglite} is a PGlite (PostgreSQL) store, the kind newer "
                          "Daycare versions keep; its migrations are Daycare's own and this SQLite upgrade does not apply.")
    if pglite.is_dir():
        return StoreCheck(db_path, "pglite", refusal=f"{pglite} is a folder but not a PGlite data folder (no "
                          "PG_VERSION or global/ inside); a newer Daycare would make its store there, "
                          "so this SQLite upgrade does not run beside it.")
    folder = database_folder_note(db_path)
    if folder:
        return StoreCheck(db_path, "not-sqlite", refusal=f"{folder}; there is no SQLite database to upgrade.")
    if db_path.is_symlink() and not db_path.exists():
        return StoreCheck(db_path, "missing", refusal=f"{db_path} is a symbolic link to {os.readlink(db_path)}, "
                          "which does not exist; restore the database there (or remove the link) first.")
    if not db_path.exists():
        return StoreCheck(db_path, "missing", refusal=nothing_to_upgrade(db_path))
    if not _is_sqlite_file(db_path):
        return StoreCheck(db_path, "not-sqlite", refusal=f"{db_path} is not a SQLite database.")
    real = Path(os.path.realpath(db_path))  # SQLite keeps -journal and -wal beside the file a link points to
    journal = hot_journal(real)
    if journal is not None:
        return StoreCheck(db_path, "sqlite", refusal=hot_journal_refusal(real, journal))
    conn = open_readonly(db_path)
    try:
        try:
            foreign = _foreign_tables(conn)
            if foreign:
                shown = ", ".join(foreign[:5]) + (", …" if len(foreign) > 5 else "")
                return StoreCheck(db_path, "not-sqlite", refusal=f"{db_path} is a SQLite database, but not "
                                  f"Daycare's: it has no _migrations table and holds {shown}.")
            applied = applied_names(conn)
            check = StoreCheck(db_path, "sqlite", applied)
            if any(n not in MIGRATIONS_808AF509 and n not in TOLERATED_ORPHANS for n in applied):
                check.refusal = _newer_refusal(conn, applied)
        except sqlite3.DatabaseError as exc:
            return StoreCheck(db_path, "not-sqlite", refusal=f"{db_path} cannot be read as SQLite ({exc}).")
        for name in applied:
            if name in TOLERATED_ORPHANS:
                check.warnings.append(f"_migrations records {name} (an abandoned 2026-02-21 migration); ignored.")
        return check
    finally:
        conn.close()
