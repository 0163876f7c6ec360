"""Shared helpers: run the pipeline on a folder, and describe a schema so two databases can be compared."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.ids import IdSource
from daycare_gui.stores.daycare.sqlite.migrations.runner import RunOptions, open_database, run_migrations


def migrate(folder: Path, seed: int = 0, clock=None, migrations=None) -> sqlite3.Connection:
    """Run the 808af509 list (or ``migrations``) on ``folder/daycare.db``; returns the open connection."""
    conn = open_database(folder / "daycare.db")
    options = RunOptions(ids=IdSource(random.Random(seed)))
    if clock is not None:
        options.clock = clock
    if migrations is None:
        run_migrations(conn, options=options)
    else:
        run_migrations(conn, migrations, options)
    return conn


def open_immutable(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True)


def owner_id(conn: sqlite3.Connection) -> str:
    return conn.execute("SELECT id FROM users WHERE is_owner = 1").fetchone()[0]


def normalize_sql(sql: str | None, owner: str | None = None) -> str | None:
    if sql is None:
        return None
    if owner:
        sql = sql.replace(owner, "<owner>")
    sql = re.sub(r"\s+", " ", sql).strip()
    return re.sub(r"\s*([(),])\s*", r"\1", sql)


def describe_schema(conn: sqlite3.Connection, owner: str | None = None) -> dict:
    """Tables (xinfo columns, FKs, normalized SQL for CHECK/UNIQUE), indexes and triggers, keyed by name."""
    schema: dict = {"tables": {}, "indexes": {}, "triggers": {}}
    rows = conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
    for kind, name, table, sql in rows:
        if kind == "table":
            columns = [
                (cid, col, ctype, notnull, (dflt.replace(owner, "<owner>") if owner and dflt else dflt), pk, hidden)
                for cid, col, ctype, notnull, dflt, pk, hidden in conn.execute(f'PRAGMA table_xinfo("{name}")')
            ]
            fks = sorted(tuple(r) for r in conn.execute(f'PRAGMA foreign_key_list("{name}")'))
            schema["tables"][name] = {"columns": columns, "fks": fks, "sql": normalize_sql(sql, owner)}
        elif kind == "index":
            info = {r[1]: r for r in conn.execute(f'PRAGMA index_list("{table}")')}[name]
            cols = [tuple(r) for r in conn.execute(f'PRAGMA index_xinfo("{name}")')]
            where = None
            if sql and " WHERE " in re.sub(r"\s+", " ", sql):
                where = normalize_sql(re.sub(r"\s+", " ", sql).split(" WHERE ", 1)[1])
            schema["indexes"][name] = {"table": table, "unique": info[2], "origin": info[3], "partial": info[4],
                                       "columns": cols, "where": where}
        elif kind == "trigger":
            schema["triggers"][name] = {"table": table, "sql": normalize_sql(sql, owner)}
    return schema


def table_rows(conn: sqlite3.Connection, table: str, order: str = "rowid") -> list[tuple]:
    return conn.execute(f'SELECT * FROM "{table}" ORDER BY {order}').fetchall()


def leave_hot_journal(db: Path) -> None:
    """Switch ``db`` to rollback-journal mode and kill a writer in the middle of an UPDATE: a tiny page cache
    makes it spill changed pages into the file, so ``db`` holds half a transaction and ``db-journal`` the
    pages it replaced (a *hot* journal, which the next read-write open rolls back).

    The table ``big`` has 5000 rows of 500 lowercase ``a``; the killed UPDATE upper-cased some of them."""
    import subprocess
    import sys

    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute("CREATE TABLE big(x)")
    conn.executemany("INSERT INTO big VALUES (?)", [("a" * 500,)] * 5000)
    conn.commit()
    conn.close()
    code = ("import os, sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('PRAGMA cache_size=2')\n"
            "c.execute('BEGIN'); c.execute('UPDATE big SET x = upper(x)'); os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(db)], check=True)
    assert Path(f"{db}-journal").stat().st_size > 0


def torn_rows(db: Path) -> int:
    """Rows of ``big`` the killed UPDATE left upper-cased, as an ``immutable`` reader (which ignores the journal)
    sees the file."""
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?immutable=1", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM big WHERE x GLOB 'A*'").fetchone()[0]
    finally:
        conn.close()


def leave_wal(db: Path, *statements: str) -> None:
    """Commit ``statements`` in WAL mode from a process that is then killed: the commits stay in
    ``db-wal`` (with its ``-shm``), not yet checkpointed into ``db``, as after a crash of Daycare."""
    import subprocess
    import sys

    code = ("import os, sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('PRAGMA journal_mode=WAL'); c.execute('PRAGMA wal_autocheckpoint=0')\n"
            "[c.execute(s) for s in sys.argv[2:]]\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(db), *statements], check=True)
    assert Path(f"{db.resolve()}-wal").stat().st_size > 0


def read_only(db: Path) -> sqlite3.Connection:
    """A reader that sees the WAL and writes nothing but ``-shm``."""
    return sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
