"""Stores that make daycare-gui read a private copy, and a short temporary folder of a test's own.

A SQLite database whose write-ahead log holds data and has no ``-shm`` beside it (a writer stopped without
closing) is read from a snapshot copy, by the window too; a PGlite store is always read from a copy.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path

from tests.pg_helpers import use_test_pglite
from tests.stores.agentstack.builder import Builder


def _wal_without_shm(write, db: Path, dest: Path) -> Path:
    """``write(conn)`` on ``db`` in WAL mode with checkpoints off, then ``db`` and its ``-wal`` copied to
    ``dest`` while the writer is still open (so the log holds the rows)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        write(conn)
        assert os.path.getsize(str(db) + "-wal") > 0
        shutil.copyfile(db, dest)
        shutil.copyfile(str(db) + "-wal", str(dest) + "-wal")
    finally:
        conn.close()
    return dest


def agentstack_with_wal(folder: Path) -> Path:
    """``folder/proj/data/aistack.db``: an AgentStack store whose log holds a memory not yet checkpointed."""
    b = Builder(folder / "build" / "aistack.db")
    b.memory("k", "checkpointed")
    b.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    b.conn.close()
    return _wal_without_shm(lambda conn: conn.execute(
        "UPDATE memory SET content = 'only in the log' WHERE key = 'k'"),
        b.path, folder / "proj" / "data" / "aistack.db")


def sqlite_with_wal(folder: Path) -> Path:
    """``folder/daycare/daycare.db``: a SQLite file whose log holds a row not yet checkpointed."""
    build = folder / "build"
    build.mkdir(parents=True, exist_ok=True)

    def write(conn):
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.execute("INSERT INTO notes VALUES ('only in the log')")
    return _wal_without_shm(write, build / "daycare.db", folder / "daycare" / "daycare.db")


@contextmanager
def short_tmp():
    """A temporary folder for the children's copies, short enough for the PGlite sidecar's socket path
    (about 100 bytes at most); removed after, with whatever a failed test left in it."""
    folder = Path(tempfile.mkdtemp(prefix="dg-sig-", dir="/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def child_env(tmp: Path) -> dict[str, str]:
    """A child's environment: its copies in ``tmp``, the tests' PGlite, no display."""
    env = dict(os.environ, TMPDIR=str(tmp), QT_QPA_PLATFORM="offscreen")
    use_test_pglite(env)
    return env


def hangup_as_a_terminal_sends_it() -> None:
    """In the child before it runs (``preexec_fn``): SIGHUP back to its default. A suite started under
    ``nohup`` passes on its ignored SIGHUP, which the app rightly keeps ignored; the hangup tests need it
    delivered, as a closed terminal does."""
    import signal

    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def ours(tmp: Path) -> list[str]:
    return sorted(p.name for p in tmp.iterdir() if p.name.startswith("daycare-gui-"))
