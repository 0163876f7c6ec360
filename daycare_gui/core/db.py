"""Read-only access to ``daycare.db`` through SQLAlchemy Core.

Rules this module keeps (see reference §9):
- never write: every connection is ``mode=ro`` or ``immutable=1``; nothing checkpoints;
- never hold a transaction open: the driver runs in autocommit, each read is one short statement;
- never touch a checkpointed store: with no ``-wal`` file, ``immutable=1`` reads without creating
  ``-wal``/``-shm`` beside the database (a ``mode=ro`` open would create them);
- tolerate a running engine: with a ``-wal`` file, ``mode=ro`` reads through the WAL like any reader
  (``live=True``), or a private snapshot copy is read (``live=False``, used by ``inspect``);
- tolerate a folder the user cannot write: fall back to an immutable read of a snapshot, and say so;
- never make a caller wait for a query it no longer wants: :meth:`ReadOnlyDatabase.close` interrupts every
  running statement at once, and a query run inside :func:`cancellable` stops soon after its flag is set.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import quote

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine
from sqlalchemy.pool import QueuePool

BUSY_TIMEOUT_MS = 2000
# SQLite virtual-machine steps between two cancellation checks: about 10-20 ms of work, so a cancelled
# query stops quickly while the check (a Python call, which needs the GIL) stays too rare to cost anything.
PROGRESS_STEPS = 1_000_000


class DatabaseError(Exception):
    """A database problem explained for a person (locked, corrupt, not SQLite, unreadable)."""


class QueryInterrupted(DatabaseError):
    """The query was stopped: its request was cancelled, or the database was closed meanwhile."""


_scope = threading.local()


@contextmanager
def cancellable(cancelled: Callable[[], bool] | None) -> Iterator[None]:
    """Queries this thread runs inside the block stop (raising :class:`QueryInterrupted`) once
    ``cancelled()`` is true. The DB worker wraps every job in one, so a superseded request lets go."""
    previous = getattr(_scope, "cancelled", None)
    _scope.cancelled = cancelled
    try:
        yield
    finally:
        _scope.cancelled = previous


class _Connection(sqlite3.Connection):
    """A plain sqlite3 connection that can be weakly referenced (to interrupt it on close)."""


def _uri(path: Path, **params: str) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return f"file:{quote(str(path))}?{query}"


def _wal_has_data(db_path: Path) -> bool:
    wal = Path(str(db_path) + "-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


def _explain(exc: Exception, db_path: Path) -> str:
    msg = str(exc)
    if "locked" in msg or "busy" in msg:
        return f"{db_path} is locked by another program (is the Daycare engine writing?): {msg}"
    if "not a database" in msg or "malformed" in msg:
        return f"{db_path} is damaged or not a SQLite database: {msg}"
    if "unable to open" in msg:
        return f"{db_path} cannot be opened: {msg}"
    return f"{db_path}: {msg}"


@dataclass(frozen=True)
class OpenMode:
    name: str  # "read-only" | "immutable" | "snapshot"
    note: str | None  # what the user should know about how we read it


class ReadOnlyDatabase:
    """A read-only SQLAlchemy engine over one SQLite file, opened as safely as the situation allows."""

    def __init__(self, db_path: str | os.PathLike, *, live: bool = True) -> None:
        self.path = Path(db_path)
        self._snapshot_dir: Path | None = None
        self._closed = threading.Event()
        self._connections: weakref.WeakSet = weakref.WeakSet()
        self._connections_lock = threading.Lock()
        self.mode, uri = self._choose(live)
        self.engine: Engine = self._make_engine(uri)
        try:
            self.scalar("SELECT count(*) FROM sqlite_master")
        except Exception as exc:
            if self.mode.name == "read-only":
                # mode=ro needs -shm/-wal to exist or be creatable; an unwritable folder defeats it.
                self.engine.dispose()
                self.mode, uri = self._snapshot(reason=f"a read-only open failed ({exc})")
                self.engine = self._make_engine(uri)
                self.scalar("SELECT count(*) FROM sqlite_master")
            else:
                self.close()
                raise DatabaseError(_explain(exc, self.path)) from exc

    # -- opening -----------------------------------------------------------------------------------
    def _choose(self, live: bool) -> tuple[OpenMode, str]:
        if not _wal_has_data(self.path):
            return OpenMode("immutable", None), _uri(self.path, mode="ro", immutable="1")
        if live and os.access(self.path.parent, os.W_OK):
            return OpenMode("read-only", None), _uri(self.path, mode="ro")
        return self._snapshot(reason="the write-ahead log holds data not yet in the database file")

    def _snapshot(self, reason: str) -> tuple[OpenMode, str]:
        self._snapshot_dir = Path(tempfile.mkdtemp(prefix="daycare-gui-snapshot-"))
        target = self._snapshot_dir / self.path.name
        try:
            shutil.copyfile(self.path, target)
            wal = Path(str(self.path) + "-wal")
            if wal.exists():
                shutil.copyfile(wal, str(target) + "-wal")
        except OSError as exc:
            shutil.rmtree(self._snapshot_dir, ignore_errors=True)
            self._snapshot_dir = None
            raise DatabaseError(_explain(exc, self.path)) from exc
        stamp = time.strftime("%H:%M:%S")
        note = f"Reading a snapshot copied at {stamp} because {reason}; later changes are not shown until Refresh."
        # The copy is private: a normal read-only open of it replays its WAL without touching the original.
        return OpenMode("snapshot", note), _uri(target, mode="ro")

    def _make_engine(self, uri: str) -> Engine:
        closed, connections, lock = self._closed, self._connections, self._connections_lock

        def stop_requested() -> int:  # SQLite's progress handler: non-zero aborts the running statement
            cancelled = getattr(_scope, "cancelled", None)
            return 1 if closed.is_set() or (cancelled is not None and cancelled()) else 0

        def connect():
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None,
                                   factory=_Connection)
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA query_only=1")
            conn.set_progress_handler(stop_requested, PROGRESS_STEPS)
            with lock:
                connections.add(conn)
            return conn

        # QueuePool: the GUI thread and the DB worker each check out their own connection.
        return create_engine("sqlite://", creator=connect, poolclass=QueuePool, pool_size=3, max_overflow=4)

    # -- reading -----------------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed.is_set():
            raise QueryInterrupted(f"{self.path}: the database was closed")

    def _error(self, exc: BaseException) -> DatabaseError:
        exc = getattr(exc, "orig", exc)
        if self._closed.is_set() or "interrupted" in str(exc):
            return QueryInterrupted(f"{self.path}: the query was stopped ({exc})")
        return DatabaseError(_explain(exc, self.path))

    def rows(self, sql, params: dict | None = None) -> list:
        self._check_open()
        stmt = text(sql) if isinstance(sql, str) else sql
        try:
            with self.engine.connect() as conn:
                return list(conn.execute(stmt, params or {}))
        except Exception as exc:
            raise self._error(exc) from exc

    def fetch(self, sql: str, params: dict | None = None) -> list[tuple]:
        """Plain tuples straight from the DB-API cursor, for hot paths (history pages): SQLAlchemy's
        Row objects cost more than the query itself for a 200-row page. Same read-only connections."""
        self._check_open()
        try:
            conn = self.engine.raw_connection()
        except Exception as exc:
            raise self._error(exc) from exc
        try:
            cursor = conn.cursor()
            try:
                return cursor.execute(sql, params or {}).fetchall()
            finally:
                cursor.close()
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        finally:
            conn.close()  # back to the pool

    def scalar(self, sql, params: dict | None = None):
        result = self.rows(sql, params)
        return result[0][0] if result else None

    def tables(self) -> list[str]:
        return [r[0] for r in self.rows("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]

    def columns(self, table: str) -> list[str]:
        return [r[1] for r in self.rows(f'PRAGMA table_info("{_ident(table)}")')]

    def count(self, table: str) -> int:
        return int(self.scalar(f'SELECT count(*) FROM "{_ident(table)}"') or 0)

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def interrupt(self) -> None:
        """Stop every statement running on this database now, from any thread (sqlite3_interrupt)."""
        with self._connections_lock:
            connections = list(self._connections)
        for conn in connections:
            try:
                conn.interrupt()
            except sqlite3.ProgrammingError:  # closed meanwhile
                pass

    def close(self) -> None:
        """Quick from any thread: running queries are interrupted, not waited for; later ones refuse."""
        self._closed.set()
        self.interrupt()
        self.engine.dispose()
        if self._snapshot_dir is not None:
            shutil.rmtree(self._snapshot_dir, ignore_errors=True)
            self._snapshot_dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _ident(name: str) -> str:
    if '"' in name or "\x00" in name:
        raise ValueError(f"bad identifier {name!r}")
    return name
