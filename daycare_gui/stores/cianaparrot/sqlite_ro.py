"""Opening ``checkpoints.db`` without ever writing beside it.

* no ``-wal`` file holding data: ``immutable=1`` (SQLite then creates no ``-wal``/``-shm`` and takes no locks);
* a ``-wal`` with data and its ``-shm`` (the bot runs): ``mode=ro`` reads through the WAL like any reader
  when ``live``; for ``inspect`` (``live=False``) a private snapshot copy is read instead;
* a ``-wal`` with data but no ``-shm`` (the bot stopped without closing): a snapshot, because ``mode=ro``
  would create the ``-shm`` file beside the store;
* a non-empty ``-journal`` (a write under way or killed midway): a snapshot copy with the journal rolled
  back in it, since an immutable read would show half a transaction;
* a folder we cannot use that way: a snapshot copy, and the mode says so.

Connections run in autocommit with a busy timeout, so no transaction is ever held and the bot is never
blocked for long (its own busy timeout is 5 s).
"""

from __future__ import annotations

import sqlite3
import time
import urllib.parse
from pathlib import Path

from daycare_gui.stores.common.leftovers import private_folder
from daycare_gui.stores.common.private_copies import PrivateFolder
from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.common.sqlite_copy import check_regular, copy_for_reading, journal_present

BUSY_TIMEOUT_MS = 2000


def _uri(path: Path, **params: str) -> str:
    query = urllib.parse.urlencode(params)
    return f"file:{urllib.parse.quote(str(path.resolve()))}?{query}"


def wal_size(db: Path) -> int:
    try:
        return Path(str(db) + "-wal").stat().st_size
    except OSError:
        return 0


def connect(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA query_only=1")
    return conn


class ReadOnlyDB:
    """One read-only connection to a SQLite file, chosen as the module says; ``mode`` names the choice."""

    def __init__(self, path: Path, *, live: bool = True) -> None:
        self.path = path
        self._tmp: PrivateFolder | None = None
        self.note = ""
        check_regular(path)  # a named pipe would hang SQLite's own open
        if journal_present(path):  # a hot journal: only a copy can be rolled back (stores.common.sqlite_copy)
            self._snapshot("a write was under way or interrupted (its rollback journal is beside the database)")
        elif wal_size(path) == 0:
            self.mode = "immutable"
            self.conn = connect(_uri(path, mode="ro", immutable="1"))
        elif live and Path(str(path) + "-shm").exists():
            try:
                self.mode = "read-only"
                self.conn = connect(_uri(path, mode="ro"))
                self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.Error as exc:
                self._snapshot(f"a read-only open failed ({exc})")
        elif live:  # a mode=ro open would create the missing -shm file beside the store
            self._snapshot("the write-ahead log holds data and no -shm file is beside it (the bot stopped "
                           "without closing)")
        else:
            self._snapshot("the write-ahead log holds data not yet in the database file")

    def _snapshot(self, reason: str) -> None:
        self._tmp = private_folder("daycare-gui-cianaparrot-")  # this process's: see stores.common.private_copies
        try:
            target = copy_for_reading(self.path, self._tmp.path)
        except (OSError, sqlite3.Error):
            self._tmp.remove()
            self._tmp = None
            raise
        self.mode = "snapshot copy"
        self.note = f"Reading a copy made at {time.strftime('%H:%M:%S')} because {reason}."
        self.conn = connect(_uri(target, mode="ro"))

    def close(self) -> None:
        conn, self.conn = getattr(self, "conn", None), None
        if conn is not None:
            conn.close()
        if self._tmp is not None:
            self._tmp.remove()
            self._tmp = None


def emptiness(conn: sqlite3.Connection, path: Path) -> str | None:
    """Why the database holds nothing ("0 bytes", "no tables"), or None when it has tables. SQLite finds
    nothing wrong with an empty file, so a passed check says nothing about it: callers say "empty"."""
    if conn.execute("SELECT count(*) FROM sqlite_master WHERE type='table'").fetchone()[0]:
        return None
    try:
        return "0 bytes" if path.stat().st_size == 0 and wal_size(path) == 0 else "no tables"
    except OSError:
        return "no tables"


def peek_tables(path: Path) -> dict[str, list[str]] | None:
    """Table → columns of a SQLite file, read immutably (cheap, writes nothing); None if not SQLite."""
    try:
        with open_regular(path) as fh:
            if fh.read(16) != b"SQLite format 3\x00":
                return None
    except OSError:
        return None
    try:
        conn = connect(_uri(path, mode="ro", immutable="1"))
    except sqlite3.Error:
        return None
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: [c[1] for c in conn.execute(f'PRAGMA table_info("{n}")')] for n in names}
    except sqlite3.Error:
        return None
    finally:
        conn.close()
