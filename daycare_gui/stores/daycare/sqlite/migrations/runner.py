"""Daycare's migration runner, step for step (reference §2).

Pending = list entries whose name is not in ``_migrations``; unknown recorded names are ignored. Each pending
migration runs in its own transaction (body + bookkeeping row); the first failure rolls back and stops, and
migrations committed before it stay committed. :mod:`.upgrade` wraps this in a working copy so that a failed
run leaves the user's store untouched.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import Migration, MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.ids import IdSource
from daycare_gui.stores.daycare.sqlite.migrations.schema_steps import MIGRATIONS_TABLE


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class MigrationFailed(Exception):
    def __init__(self, name: str, cause: BaseException, applied: list[str]) -> None:
        super().__init__(f"{name}: {cause}")
        self.name = name
        self.cause = cause
        self.applied = applied  # committed before the failure


def open_database(path: str | os.PathLike) -> sqlite3.Connection:
    """Open like Daycare's ``databaseOpen``: parent folder created, WAL for files, foreign keys on."""
    path = str(path)
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def database_dir(conn: sqlite3.Connection) -> Path | None:
    """The folder of the ``main`` database file (where the imports look); None for in-memory databases."""
    rows = conn.execute("PRAGMA database_list").fetchall()
    main = next((r for r in rows if r[1] == "main"), rows[0] if rows else None)
    file = (main[2] or "").strip() if main else ""
    return Path(file).parent if file else None


def applied_names(conn: sqlite3.Connection) -> list[str]:
    """Recorded names in the order they were applied (``applied_at``, then ``rowid``; never by name)."""
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone()
    if not exists:
        return []
    return [row[0] for row in conn.execute("SELECT name FROM _migrations ORDER BY applied_at, rowid")]


def pending_migrations(conn: sqlite3.Connection, migrations: Sequence[Migration] = MIGRATIONS) -> list[Migration]:
    done = set(applied_names(conn))
    return [m for m in migrations if m.name not in done]


@dataclass
class RunOptions:
    ids: IdSource | None = None
    clock: Callable[[], int] = now_ms
    # Called before each migration with (index, total, migration).
    progress: Callable[[int, int, Migration], None] | None = None
    # Checked between migrations; True stops the run before the next one.
    cancel: Callable[[], bool] | None = None
    # Overrides PRAGMA database_list (the dry run migrates an in-memory copy but reads the real legacy folder).
    legacy_dir: Path | None = None


def run_migrations(
    conn: sqlite3.Connection, migrations: Iterable[Migration] = MIGRATIONS, options: RunOptions | None = None
) -> list[str]:
    """Apply the pending ones; returns the names applied. Raises :class:`MigrationFailed` at the first failure."""
    options = options or RunOptions()
    conn.execute(MIGRATIONS_TABLE)
    pending = pending_migrations(conn, list(migrations))
    ctx = MigrationContext(
        conn=conn,
        legacy_dir=options.legacy_dir if options.legacy_dir is not None else database_dir(conn),
        ids=options.ids or IdSource(),
        clock=options.clock,
    )
    applied: list[str] = []
    for index, migration in enumerate(pending):
        if options.cancel is not None and options.cancel():
            break
        if options.progress is not None:
            options.progress(index, len(pending), migration)
        conn.execute("BEGIN")
        try:
            migration.apply(ctx)
            conn.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (migration.name, ctx.now_ms()))
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise MigrationFailed(migration.name, exc, applied) from exc
        applied.append(migration.name)
    return applied
