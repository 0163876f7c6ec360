"""Create ``daycare.db`` exactly as Daycare's 26 migrations leave it, load rows, and hand it over in WAL mode.

Loading runs in one transaction with ``journal_mode=OFF`` and ``synchronous=OFF`` (a half-written demo is
simply thrown away), then the file is switched to WAL — the mode Daycare stores in the header — and
checkpointed so no ``-wal``/``-shm`` file remains when the connection closes.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509, schema_statements

# The migrations were "applied" a few days before the demo's data starts, 20-90 ms apart like a real run.
MIGRATED_AT_MS = 1771000000000


def open_for_load(path: Path, owner_id: str, shift_ms: int = 0) -> sqlite3.Connection:
    """``shift_ms`` moves the migration times along with the rest of the demo's clock."""
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("PRAGMA cache_size=-65536")  # 64 MB page cache: the large load stays in memory until commit
    conn.execute("BEGIN")
    for statement in schema_statements(owner_id):
        conn.execute(statement)
    applied = MIGRATED_AT_MS + shift_ms
    for index, name in enumerate(MIGRATIONS_808AF509):
        applied += 20 + (index * 37) % 71
        conn.execute("INSERT INTO _migrations (name, applied_at) VALUES (?, ?)", (name, applied))
    return conn


def insert_dicts(conn: sqlite3.Connection, table: str, rows: list[dict]) -> int:
    if not rows:
        return 0
    columns = list(rows[0])
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
    conn.executemany(sql, ([row[c] for c in columns] for row in rows))
    return len(rows)


def finish(conn: sqlite3.Connection) -> None:
    """Commit, switch to WAL, checkpoint and close: all data ends up in the main file."""
    conn.execute("COMMIT")
    conn.execute("PRAGMA synchronous=FULL")
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode != "wal":
        raise RuntimeError(f"could not switch the demo database to WAL (got {mode!r})")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
