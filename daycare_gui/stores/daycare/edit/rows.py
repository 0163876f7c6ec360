"""Edit one ``tasks_cron`` / ``tasks_heartbeat`` row: one short transaction, refusing concurrent changes.

Once Daycare imported its task files (migration ``20260220_import_tasks``) it reads these rows, so
changing a task means changing the row. The rules here:

- only columns the table really has are written (schemas differ between Daycare versions);
- the write uses its own read-write ``sqlite3`` connection (the window's connection is read-only),
  ``PRAGMA foreign_keys=ON`` and a busy timeout, and ``BEGIN IMMEDIATE … COMMIT`` around a re-read and
  the ``UPDATE``: optimistic concurrency — if any value of the row differs from what the editor loaded
  (the engine ran the task, someone else edited it), nothing is written and :class:`RowChanged` says so;
- ``updated_at`` becomes now (always moving forward);
- while the engine runs, writing is refused (:class:`EngineRunning`) unless ``force=True``: the engine
  keeps write-through caches of these rows and may write its cached copy back over the change.

Qt-free; the row editor and tests call it.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.schedule import validate_schedule
from daycare_gui.stores.common.sqlite_text import not_utf8

BUSY_TIMEOUT_MS = 3000

# The columns an editor may change, per table, in display order. Columns a schema lacks are skipped.
EDITABLE_COLUMNS: dict[str, tuple[str, ...]] = {
    "tasks_cron": ("name", "schedule", "enabled", "delete_after_run", "agent_id", "user_id", "description", "code"),
    "tasks_heartbeat": ("title", "code"),
}
BOOLEAN_COLUMNS = {"enabled", "delete_after_run"}
REQUIRED_TEXT = {"name", "schedule", "title", "code"}


class RowEditError(Exception):
    """The row cannot be written; the message is for the person editing."""


class EngineRunning(RowEditError):
    """The Daycare engine is running on this store; pass ``force=True`` to write anyway."""


class RowChanged(RowEditError):
    """The row is not the one the editor loaded (changed or deleted meanwhile); nothing was written."""


@dataclass(frozen=True)
class LoadedRow:
    """A row as loaded for editing: every column's value (for the concurrency check) and the editable ones."""

    table: str
    id: str
    values: dict
    editable: tuple[str, ...]

    def get(self, column: str, default: Any = None) -> Any:
        return self.values.get(column, default)


def _check_table(table: str) -> None:
    if table not in EDITABLE_COLUMNS:
        raise RowEditError(f"{table!r} is not an editable task table ({', '.join(EDITABLE_COLUMNS)})")


def _read_connection(db_path: Path) -> sqlite3.Connection:
    """A fresh read-only connection (fresh, so nothing cached from before a write is seen).

    Like core.db: with an empty WAL an ``immutable=1`` read creates no -wal/-shm beside the database. Not
    beside a rollback journal, though: immutable reads past it, showing half of a write that was cut off;
    a plain read-only open lets SQLite see the journal and refuse instead.
    """
    wal = Path(str(db_path) + "-wal")
    has_wal = wal.exists() and wal.stat().st_size > 0
    has_journal = Path(str(db_path) + "-journal").exists()
    params = "mode=ro" if has_wal or has_journal else "mode=ro&immutable=1"
    conn = sqlite3.connect(f"file:{quote(str(db_path))}?{params}", uri=True, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return conn


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')]


def _select(conn: sqlite3.Connection, table: str, row_id: str) -> dict | None:
    cursor = conn.execute(f'SELECT * FROM "{table}" WHERE id = ?', (row_id,))
    try:
        row = cursor.fetchone()
    except sqlite3.OperationalError as exc:
        if not not_utf8(exc):
            raise
        # Shown with U+FFFD where its bytes break (see stores.common.sqlite_text): saved from that, the row's
        # other bytes would be lost too. (sqlite3's own message quotes the value, a secret in it as well.)
        raise RowEditError(f"{table} row {row_id!r} holds text that is not UTF-8; it cannot be saved here without "
                           "changing bytes this window does not show. Nothing was written.") from None
    if row is None:
        return None
    return {description[0]: value for description, value in zip(cursor.description, row, strict=True)}


def load_row(db_path: str | os.PathLike, table: str, row_id: str) -> LoadedRow:
    _check_table(table)
    conn = _read_connection(Path(db_path))
    try:
        columns = _columns(conn, table)
        if not columns:
            raise RowEditError(f"the database has no table {table}")
        values = _select(conn, table, row_id)
    except sqlite3.OperationalError as exc:
        journal = Path(f"{db_path}-journal")
        if not journal.exists():
            raise
        raise RowEditError(f"{journal.name} lies beside the database: a write to it was cut off half-way, so "
                           f"its rows cannot be trusted until SQLite rolls that write back (Daycare does when "
                           f"it next opens the database); nothing was read ({exc})") from exc
    finally:
        conn.close()
    if values is None:
        raise RowEditError(f"{table} has no row {row_id!r}")
    editable = tuple(c for c in EDITABLE_COLUMNS[table] if c in columns)
    return LoadedRow(table, row_id, values, editable)


def check_value(column: str, value: Any) -> str | None:
    """Why ``value`` cannot go into ``column`` (None when it can)."""
    if column in BOOLEAN_COLUMNS:
        return None if isinstance(value, bool) else f"{column} must be true or false"
    if value is not None and not isinstance(value, str):
        return f"{column} must be text"
    if column in REQUIRED_TEXT and not (value or "").strip():
        return f"{column} cannot be empty"
    if column == "schedule":
        return validate_schedule(value)
    return None


def _stored(column: str, value: Any) -> Any:
    if column in BOOLEAN_COLUMNS:
        return 1 if value else 0
    if column in ("agent_id", "description") and isinstance(value, str) and not value.strip():
        return None  # an emptied optional field means "none", as Daycare writes it
    return value


def write_row(
    paths,
    loaded: LoadedRow,
    changes: dict,
    *,
    force: bool = False,
    now_ms: int | None = None,
) -> LoadedRow:
    """Write ``changes`` (column → value) to the row ``loaded`` came from; returns the row as written.

    ``paths`` is the store's :class:`~daycare_gui.stores.daycare.paths.DaycarePaths` (database and engine files).
    """
    from daycare_gui.stores.daycare.engine import engine_status

    _check_table(loaded.table)
    for column, value in changes.items():
        if column not in loaded.editable:
            raise RowEditError(f"{loaded.table}.{column} cannot be edited here (editable: {', '.join(loaded.editable)})")
        problem = check_value(column, value)
        if problem:
            raise InvalidValue(problem)
    status = engine_status(paths)
    if status.running and not force:
        raise EngineRunning(
            f"the Daycare engine is running ({status.detail}); it caches task rows and may write its own copy "
            "back over this change. Stop the engine first, or write anyway."
        )
    db_path = Path(paths.db_path)
    if not db_path.is_file():
        raise RowEditError(f"{db_path} does not exist")
    stored = {column: _stored(column, value) for column, value in changes.items()}
    conn = sqlite3.connect(str(db_path), isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = _select(conn, loaded.table, loaded.id)
            if current is None:
                raise RowChanged(f"{loaded.table} row {loaded.id!r} was deleted since it was loaded; nothing was written")
            if current != loaded.values:
                changed = sorted(c for c in set(current) | set(loaded.values) if current.get(c) != loaded.values.get(c))
                raise RowChanged(
                    f"{loaded.table} row {loaded.id!r} changed since it was loaded ({', '.join(changed)}); "
                    "reload it and edit again; nothing was written"
                )
            assignments = dict(stored)
            if "updated_at" in current:
                now = now_ms if now_ms is not None else int(time.time() * 1000)
                previous = current["updated_at"] if isinstance(current["updated_at"], int) else 0
                assignments["updated_at"] = max(now, previous + 1)
            if assignments:
                sql = ", ".join(f'"{column}" = ?' for column in assignments)
                conn.execute(f'UPDATE "{loaded.table}" SET {sql} WHERE id = ?', (*assignments.values(), loaded.id))
            written = _select(conn, loaded.table, loaded.id)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except sqlite3.Error as exc:
        message = str(exc)
        if "locked" in message or "busy" in message:
            raise RowEditError(f"{db_path} is locked by another program (the engine?): {message}") from exc
        raise RowEditError(f"{db_path}: {message}") from exc
    finally:
        conn.close()
    return LoadedRow(loaded.table, loaded.id, written, loaded.editable)
