"""Read-only access to a store's SQLite file (Daycare's ``daycare.db``, for one): a small pool of read-only ``sqlite3`` connections.

Plain ``sqlite3`` rather than SQLAlchemy: every query here is hand-written SQL with ``:name`` parameters,
which sqlite3 binds natively, and importing SQLAlchemy cost ~0.35 s — more than twice a bare PySide6
window's whole start — on the way to the first page.

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
import sqlite3
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import quote

from daycare_gui.stores.common.leftovers import private_folder
from daycare_gui.stores.common.private_copies import PrivateFolder
from daycare_gui.stores.common.sqlite_copy import (
    check_regular,
    copy_for_reading,
    journal_present,
    wal_has_data,
)
from daycare_gui.stores.common.sqlite_text import not_utf8, run_replacing, without_quoted_text

BUSY_TIMEOUT_MS = 2000
IDLE_CONNECTIONS = 3  # kept open between requests: the GUI thread and the workers each take their own
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


def _file_state(db_path: Path) -> tuple[int, int] | None:
    try:
        st = db_path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _has_shm(db_path: Path) -> bool:
    """A writer's -shm file is beside the database (mode=ro would otherwise create one there)."""
    return os.path.lexists(str(db_path) + "-shm")


def _explain(exc: Exception, db_path: Path, writer: str) -> str:
    msg = without_quoted_text(str(exc))
    if "locked" in msg or "busy" in msg:
        return f"{db_path} is locked by another program (is {writer} writing?): {msg}"
    if "not a database" in msg or "malformed" in msg:
        return f"{db_path} is damaged or not a SQLite database: {msg}"
    if "unable to open" in msg:
        return f"{db_path} cannot be opened: {msg}"
    return f"{db_path}: {msg}"


@dataclass(frozen=True)
class OpenMode:
    name: str  # "read-only" | "immutable" | "snapshot"
    note: str | None  # what the user should know about how we read it


class Row(tuple):
    """A result row: a plain tuple that also answers ``row._mapping`` and ``row.column`` by name."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    @property
    def _mapping(self) -> dict:
        return dict(zip(self._fields, self))

    def __getattr__(self, name: str):
        try:
            return self[self._fields.index(name)]
        except ValueError:
            raise AttributeError(name) from None


_ROW_CLASSES: dict[tuple[str, ...], type[Row]] = {}


def _row_class(cursor: sqlite3.Cursor) -> type[Row]:
    fields = tuple(d[0] for d in cursor.description or ())
    cls = _ROW_CLASSES.get(fields)
    if cls is None:
        cls = _ROW_CLASSES.setdefault(fields, type("Row", (Row,), {"__slots__": (), "_fields": fields}))
    return cls


class _Pool:
    """Connections handed to one thread at a time; a few idle ones are kept, the rest closed on return.

    ``dispose`` closes the idle ones and makes those in use close when they come back, so a database
    swapped on disk (an upgrade) is opened afresh by the next request."""

    def __init__(self, uri: str, on_connect: Callable[[sqlite3.Connection], None]) -> None:
        self._uri = uri
        self._on_connect = on_connect
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._generation = 0
        self.in_use = 0  # connections handed out and not yet back

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._uri, uri=True, check_same_thread=False, isolation_level=None,
                               factory=_Connection)
        try:
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA query_only=1")
            self._on_connect(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def acquire(self) -> tuple[sqlite3.Connection, int]:
        with self._lock:
            conn = self._idle.pop() if self._idle else None
            generation = self._generation
            self.in_use += 1
        try:
            return (conn if conn is not None else self._connect()), generation
        except BaseException:
            with self._lock:
                self.in_use -= 1
            raise

    def release(self, conn: sqlite3.Connection, generation: int) -> None:
        with self._lock:
            self.in_use -= 1
            if generation == self._generation and len(self._idle) < IDLE_CONNECTIONS:
                self._idle.append(conn)
                return
        conn.close()

    def reopen(self, uri: str) -> None:
        """Connect with ``uri`` from now on (set before the generation moves, so no old one is kept)."""
        with self._lock:
            self._uri = uri
        self.dispose()

    def dispose(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            self._generation += 1
        for conn in idle:
            conn.close()


class ReadOnlyDatabase:
    """A pool of read-only connections to one SQLite file, opened as safely as the situation allows."""

    def __init__(self, db_path: str | os.PathLike, *, live: bool = True, writer: str = "its program") -> None:
        self.path = Path(db_path)
        self.writer = writer  # who writes the file, as a locked store's message names it ("the Daycare engine")
        self._snapshot_dir: PrivateFolder | None = None
        self._closed = threading.Event()
        self._connections: weakref.WeakSet = weakref.WeakSet()
        self._connections_lock = threading.Lock()
        self._file_state = _file_state(self.path)  # what an immutable open read (follow_live compares)
        self.mode, self.uri = self._choose(live)  # read-only URI; the search index attaches it (never writable)
        self._pool = _Pool(self.uri, self._prepare)
        try:
            self._first_read()
        except BaseException:
            self.close()  # (also removes a snapshot taken for the fallback)
            raise

    def _first_read(self) -> None:
        try:
            self.scalar("SELECT count(*) FROM sqlite_master")
        except DatabaseError as exc:
            if self.mode.name != "read-only" or isinstance(exc, QueryInterrupted):
                raise  # rows() has explained it already (what, where, SQLite's words): wrapping again repeats it
            # mode=ro needs -shm/-wal to exist or be creatable; an unwritable folder defeats it.
            self._pool.dispose()
            self.mode, self.uri = self._snapshot(reason=f"a read-only open failed ({exc.__cause__ or exc})")
            self._pool = _Pool(self.uri, self._prepare)
            self.scalar("SELECT count(*) FROM sqlite_master")

    # -- opening -----------------------------------------------------------------------------------
    def _choose(self, live: bool) -> tuple[OpenMode, str]:
        try:
            check_regular(self.path)  # a named pipe would hang SQLite's own open
        except OSError as exc:
            raise DatabaseError(_explain(exc, self.path, self.writer)) from exc
        if journal_present(self.path):
            # A hot journal: an immutable read would show half a transaction, a read-only one cannot roll
            # it back (see stores.common.sqlite_copy).
            return self._snapshot(reason="a write was under way or interrupted (its rollback journal is "
                                         "beside the database)")
        if not wal_has_data(self.path):
            return OpenMode("immutable", None), _uri(self.path, mode="ro", immutable="1")
        # mode=ro creates a missing -shm beside the store: only when a writer has one there (it runs) is a
        # live read taken; a WAL left without one (a stopped engine, or garbage) is read from a snapshot.
        if live and _has_shm(self.path) and os.access(self.path.parent, os.W_OK):
            return OpenMode("read-only", None), _uri(self.path, mode="ro")
        return self._snapshot(reason="the write-ahead log holds data not yet in the database file")

    def _snapshot(self, reason: str) -> tuple[OpenMode, str]:
        # named for this process and locked as its own: a kill leaves it to the next start's sweep
        self._snapshot_dir = private_folder("daycare-gui-snapshot-")
        try:
            target = copy_for_reading(self.path, self._snapshot_dir.path)
        except (OSError, sqlite3.Error) as exc:
            self._snapshot_dir.remove()
            self._snapshot_dir = None
            raise DatabaseError(_explain(exc, self.path, self.writer)) from exc
        stamp = time.strftime("%H:%M:%S")
        note = f"Reading a snapshot copied at {stamp} because {reason}; later changes are not shown until Refresh."
        # The copy is private: a normal read-only open of it replays its WAL without touching the original.
        return OpenMode("snapshot", note), _uri(target, mode="ro")

    def _prepare(self, conn: sqlite3.Connection) -> None:
        """Each new connection: stoppable by close() and by a cancelled request (a progress handler)."""
        closed = self._closed

        def stop_requested() -> int:  # SQLite's progress handler: non-zero aborts the running statement
            cancelled = getattr(_scope, "cancelled", None)
            return 1 if closed.is_set() or (cancelled is not None and cancelled()) else 0

        conn.set_progress_handler(stop_requested, PROGRESS_STEPS)
        with self._connections_lock:
            self._connections.add(conn)

    def follow_live(self) -> bool:
        """Read what a writer has committed since the open, where the open mode would hide it.

        An ``immutable=1`` open (chosen because the WAL was empty) never looks at the WAL and keeps its page
        cache, so it would go on showing the database as it was when opened. When the WAL now holds data,
        later queries use plain ``mode=ro`` connections, which takes only the shared read locks of a WAL
        reader and so never makes a writer fail; when the writer has gone and left its commits in the file
        (the last connection checkpoints), fresh immutable connections read them without a stale cache.
        Queries already running finish on their old connection. True when the open changed; a snapshot stays
        a snapshot (it is what the user was told they are reading)."""
        if self.closed or self.mode.name != "immutable":
            return False
        if wal_has_data(self.path) and _has_shm(self.path) and os.access(self.path.parent, os.W_OK):
            self._swap_engine(OpenMode("read-only", None), _uri(self.path, mode="ro"))
            return True
        if _file_state(self.path) != self._file_state:
            self._swap_engine(self.mode, _uri(self.path, mode="ro", immutable="1"))
            return True
        return False

    def _swap_engine(self, mode: OpenMode, uri: str) -> None:
        self._file_state = _file_state(self.path)
        self.mode, self.uri = mode, uri
        self._pool.reopen(uri)  # connections still in use close when they are returned

    # -- reading -----------------------------------------------------------------------------------
    def _error(self, exc: BaseException) -> DatabaseError:
        if self._closed.is_set() or "interrupted" in str(exc):
            return QueryInterrupted(f"{self.path}: the query was stopped ({exc})")
        return DatabaseError(_explain(exc, self.path, self.writer))

    def rows(self, sql: str, params: dict | None = None) -> list[Row]:
        """Every row of one statement (``:name`` parameters), as tuples that also answer by column name."""
        return self._run(sql, params, named=True)

    def fetch(self, sql: str, params: dict | None = None) -> list[tuple]:
        """Plain tuples straight from the cursor, for hot paths (history pages): no per-row wrapper."""
        return self._run(sql, params, named=False)

    def _run(self, sql: str, params: dict | None, *, named: bool) -> list:
        # Each statement runs to its end and its cursor is closed: no read transaction outlives the call.
        # (Plain try/finally rather than context managers: this is on every page's path.)
        if self._closed.is_set():
            raise QueryInterrupted(f"{self.path}: the database was closed")
        try:
            conn, generation = self._pool.acquire()
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        try:
            try:
                return _statement(conn, sql, params, named)
            except sqlite3.OperationalError as exc:
                if not not_utf8(exc):
                    raise
            # a value that is not UTF-8 (sqlite3 fails the whole statement at it): read with U+FFFD instead
            return run_replacing(conn, lambda: _statement(conn, sql, params, named))
        except sqlite3.Error as exc:
            raise self._error(exc) from exc
        finally:
            self._pool.release(conn, generation)

    def scalar(self, sql, params: dict | None = None):
        result = self.rows(sql, params)
        return result[0][0] if result else None

    def tables(self) -> list[str]:
        return [r[0] for r in self.rows("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]

    def columns(self, table: str) -> list[str]:
        return [r[1] for r in self.rows(f'PRAGMA table_info("{_ident(table)}")')]

    def count(self, table: str) -> int:
        return int(self.scalar(f'SELECT count(*) FROM "{_ident(table)}"') or 0)

    def dispose(self) -> None:
        """Close the idle connections (the next request opens new ones)."""
        self._pool.dispose()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def connections_in_use(self) -> int:
        """How many statements are running right now (connections out of the pool)."""
        return self._pool.in_use

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
        self._pool.dispose()
        if self._snapshot_dir is not None:
            self._snapshot_dir.remove()
            self._snapshot_dir = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _statement(conn: sqlite3.Connection, sql: str, params: dict | None, named: bool) -> list:
    cursor = conn.execute(sql, params or {})
    try:
        rows = cursor.fetchall()
        if named:
            cls = _row_class(cursor)
            rows = [cls(r) for r in rows]
        return rows
    finally:
        cursor.close()


def _ident(name: str) -> str:
    if '"' in name or "\x00" in name:
        raise ValueError(f"bad identifier {name!r}")
    return name
