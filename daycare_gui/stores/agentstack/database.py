"""One AgentStack SQLite file, read without writing a byte, and written only in short transactions.

Reading: ``immutable=1`` when the write-ahead log holds nothing (no ``-wal``/``-shm`` appear), ``mode=ro``
when it does (AgentStack runs in WAL mode and may be writing), or a private snapshot copy when asked
(``live=False``, for ``inspect``) or when the live read fails. Connections run in autocommit with
``query_only``: no transaction outlives one statement, so AgentStack's checkpoints are never held up.
Worker threads each borrow a connection from a small pool.

Writing: :meth:`Database.write` opens its own connection, ``BEGIN IMMEDIATE`` with a busy timeout well
under AgentStack's 5 s, runs one function and commits, or rolls everything back. Readers are closed
first and reopened after, because an immutable reader must not outlive a change to its file.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

from daycare_gui.stores.common.leftovers import private_folder
from daycare_gui.stores.common.private_copies import PrivateFolder
from daycare_gui.stores.common.sqlite_copy import (
    check_regular,
    copy_for_reading,
    journal_present,
    wal_has_data,
)

T = TypeVar("T")

# Longer than a GUI edit needs, far shorter than AgentStack's 5 s: a GUI write never makes its writes fail.
WRITE_BUSY_MS = 1500
READ_BUSY_MS = 2000


class DatabaseError(Exception):
    """The file cannot be read as SQLite (damaged, locked, not a database), explained for a person."""


class BadText(str):
    """Text that was not valid UTF-8 in the file, decoded with U+FFFD replacements (a row problem)."""


def decode_text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return BadText(data.decode("utf-8", "replace"))


def uri_of(path: Path, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{quote(str(path.resolve()))}?{query}"


def explain(exc: BaseException, path: Path) -> str:
    msg = str(exc)
    if "locked" in msg or "busy" in msg:
        return f"{path.name} is locked by another program (is AgentStack writing?): {msg}"
    if "not a database" in msg or "malformed" in msg:
        return f"{path.name} is damaged or not a SQLite database: {msg}"
    return f"{path.name}: {msg}"


def connect_readonly(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    conn.text_factory = decode_text
    conn.execute(f"PRAGMA busy_timeout={READ_BUSY_MS}")
    conn.execute("PRAGMA query_only=1")
    # Views and triggers in an untrusted file may not call functions with side effects.
    conn.execute("PRAGMA trusted_schema=OFF")
    return conn


class Database:
    def __init__(self, path: Path, *, live: bool = True) -> None:
        self.path = Path(path)
        self.live = live
        self.mode = ""  # "immutable", "read-only", "snapshot"
        self.note: str | None = None
        self._snapshot_dir: PrivateFolder | None = None
        self._uri = ""
        self._idle: list[sqlite3.Connection] = []
        self._lent = 0
        self._writing = False
        self._closed = False
        self._cond = threading.Condition()
        self._choose()
        self.scalar("SELECT count(*) FROM sqlite_master")  # fails now, clearly, if this is not SQLite

    # -- opening ------------------------------------------------------------------------------------
    def _choose(self) -> None:
        try:
            check_regular(self.path)  # a named pipe would hang SQLite's own open
        except OSError as exc:
            raise DatabaseError(f"{self.path.name}: {exc.strerror or exc}") from exc
        if journal_present(self.path):
            # A rollback journal: a write is under way or was killed midway (a hot journal). An immutable
            # read would ignore it and could see half a transaction; a read-only one cannot roll it back.
            self._snapshot("a write was under way or interrupted (its rollback journal is beside the database)")
            return
        if not wal_has_data(self.path):
            self.mode, self._uri = "immutable", uri_of(self.path, mode="ro", immutable="1")
            return
        shm = Path(str(self.path) + "-shm")
        # mode=ro would create a missing -shm beside the file: copy instead, and never touch the folder.
        if self.live and shm.exists():
            self.mode, self._uri = "read-only", uri_of(self.path, mode="ro")
            try:
                connect_readonly(self._uri).execute("SELECT count(*) FROM sqlite_master").connection.close()
                return
            except sqlite3.Error as exc:
                self._snapshot(f"a read-only open failed ({exc})")
                return
        self._snapshot("the write-ahead log holds changes not yet in the database file")

    def _snapshot(self, reason: str) -> None:
        self._drop_snapshot()
        folder = private_folder("daycare-gui-agentstack-")  # this process's: see stores.common.private_copies
        try:
            target = copy_for_reading(self.path, folder.path)  # a hot journal is rolled back in the copy
        except (OSError, sqlite3.Error) as exc:
            folder.remove()
            raise DatabaseError(explain(exc, self.path)) from exc
        self._snapshot_dir = folder
        self.mode, self._uri = "snapshot", uri_of(target, mode="ro")
        self.note = (f"Reading a snapshot copied at {time.strftime('%H:%M:%S')} because {reason}; "
                     "later changes show after a refresh.")

    def _drop_snapshot(self) -> None:
        if self._snapshot_dir is not None:
            self._snapshot_dir.remove()
            self._snapshot_dir = None

    # -- reading ------------------------------------------------------------------------------------
    @contextmanager
    def reader(self) -> Iterator[sqlite3.Connection]:
        with self._cond:
            while self._writing:
                self._cond.wait()
            if self._closed:
                raise DatabaseError(f"{self.path.name} is closed")
            conn = self._idle.pop() if self._idle else None
            self._lent += 1
        try:
            if conn is None:
                conn = connect_readonly(self._uri)
            yield conn
        except sqlite3.Error as exc:
            raise DatabaseError(explain(exc, self.path)) from exc
        finally:
            with self._cond:
                self._lent -= 1
                if conn is not None:
                    if self._closed:
                        conn.close()
                    else:
                        self._idle.append(conn)
                self._cond.notify_all()

    def open_reader(self) -> sqlite3.Connection:
        """A private read-only connection (the caller closes it), e.g. as the source of a backup."""
        return connect_readonly(self._uri)

    def rows(self, sql: str, params: tuple | dict = ()) -> list[tuple]:
        with self.reader() as conn:
            return conn.execute(sql, params).fetchall()

    def dicts(self, sql: str, params: tuple | dict = ()) -> list[dict[str, Any]]:
        with self.reader() as conn:
            cur = conn.execute(sql, params)
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r)) for r in cur.fetchall()]

    def scalar(self, sql: str, params: tuple | dict = ()):
        found = self.rows(sql, params)
        return found[0][0] if found else None

    # -- writing ------------------------------------------------------------------------------------
    @contextmanager
    def quiet(self) -> Iterator[None]:
        """No reader connection is open inside: safe to inspect the file's locks or to change it."""
        with self._cond:
            while self._writing:
                self._cond.wait()
            self._writing = True
            while self._lent:
                self._cond.wait()
            for conn in self._idle:
                conn.close()
            self._idle.clear()
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()

    def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one ``BEGIN IMMEDIATE`` transaction on the original file: all of it or nothing.
        ``sqlite3.Error`` becomes DatabaseError; any exception rolls back and propagates."""
        with self.quiet():
            try:
                conn = sqlite3.connect(uri_of(self.path, mode="rw"), uri=True, isolation_level=None,
                                       timeout=WRITE_BUSY_MS / 1000, check_same_thread=False)
            except sqlite3.Error as exc:
                raise DatabaseError(explain(exc, self.path)) from exc
            try:
                conn.text_factory = decode_text
                conn.execute(f"PRAGMA busy_timeout={WRITE_BUSY_MS}")
                conn.execute("PRAGMA foreign_keys=ON")  # as AgentStack's own connection has it
                # trusted_schema stays on: AgentStack's triggers write memory_fts, a virtual table.
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = work(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
                return result
            except sqlite3.Error as exc:
                raise DatabaseError(explain(exc, self.path)) from exc
            finally:
                conn.close()
                self._choose()  # the WAL may hold our change now: an immutable reader no longer fits

    def close(self) -> None:
        with self._cond:
            self._closed = True
            for conn in self._idle:
                conn.close()
            self._idle.clear()
        self._drop_snapshot()
