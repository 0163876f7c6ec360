"""A read-only PostgreSQL connection (a server, or a PGlite copy) through psycopg 3.

Every statement runs in its own short read-only transaction (autocommit with the session set read-only),
with a statement timeout, so Daycare's engine is never blocked and nothing can be written by accident.
One connection, used by one thread at a time: PGlite serves one connection only.

Reading needs no SQLAlchemy: one psycopg connection, and statements written with ``:name`` parameters as
SQLAlchemy's ``text()`` takes them (see :func:`pyformat`). SQLAlchemy cost the window ~15 MB on a PGlite
store (bench/README.md); the edits (writes.py) still use it, imported only when a store is written.
"""

from __future__ import annotations

import re
import sys
import threading

from daycare_gui.stores.api import CannotOpen
from daycare_gui.stores.common.secrets import mask_url

STATEMENT_TIMEOUT_MS = 15_000
# rows_with reads its rows this many at a time through a cursor (DECLARE, then FETCH until none is left):
# PGlite's sidecar holds a reply whole (in WebAssembly, as JS objects, as bytes for the socket), so a large
# result asked at once (every session's record ids: 7 MB on the 1M demo) cost it that many times over.
FETCH_ROWS = 2000


class PgError(CannotOpen):
    """A database error, with any password in it masked."""


class UnreadableJson(str):
    """A json/jsonb value Python cannot decode (nested deeper than its decoder goes), kept as its text."""


def lenient_json_loads(data):
    """psycopg's json/jsonb loader: a value that does not decode becomes ``UnreadableJson`` instead of
    failing the whole query (one deep value would otherwise hide every row of a page)."""
    import json

    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raw = bytes(data).decode("utf-8", "replace") if not isinstance(data, str) else data
        return UnreadableJson(raw)


def masked(exc: BaseException) -> str:
    return mask_url(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)


NEEDS_PASSWORD = "this server needs a password: set PGPASSWORD or add it to ~/.pgpass"


def connect_failure(url: str, exc: BaseException) -> str:
    """Why ``url`` did not connect, in one sentence without its password."""
    reason = str(exc)
    if "no password supplied" in reason:  # libpq's words when the server asks for a password it was not given
        return f"cannot connect to {mask_url(url)}: {NEEDS_PASSWORD}"
    return f"cannot connect to {mask_url(url)}: {masked(exc)}"


def libpq_url(url: str) -> str:
    """``url`` as libpq reads it (``postgresql+psycopg://`` is SQLAlchemy's spelling)."""
    scheme, sep, rest = url.strip().partition("://")
    return f"postgresql://{rest}" if sep and scheme.lower().startswith("postgres") else url


_driver_import: threading.Thread | None = None


def import_driver_beside() -> None:
    """Begin importing the driver (psycopg: a quarter of a second and more) on a thread of its own, while the
    caller copies and starts PGlite. Nothing else imports it meanwhile: every use here waits for that thread
    first (:func:`_driver_ready`), so no two threads ever import it at once (CPython's first import of a
    package from two threads can fail, gh-83065)."""
    global _driver_import
    if _driver_import is not None or "psycopg" in sys.modules:
        return

    def load() -> None:
        try:
            import psycopg  # noqa: F401
            from psycopg.types.json import set_json_loads  # noqa: F401
        except Exception:  # (fails again, and is said, where it is used)
            pass

    _driver_import = threading.Thread(target=load, name="pglite-import", daemon=True)
    _driver_import.start()


def _driver_ready() -> None:
    """Wait for the driver's import begun by :func:`import_driver_beside`, if one is under way."""
    if _driver_import is not None:
        _driver_import.join()


def make_engine(url: str, **kwargs):
    """An SQLAlchemy engine whose connections libpq makes from ``url`` itself: libpq, not SQLAlchemy's URL
    parser, reads the URL, so a list of hosts (``h1:5432,h2:5433``) works, a bad port is refused in libpq's
    words, and a password missing from the URL is looked up in PGPASSWORD and ~/.pgpass."""
    _driver_ready()
    import psycopg
    from sqlalchemy import create_engine

    dsn = libpq_url(url)
    return create_engine("postgresql+psycopg://", creator=lambda: psycopg.connect(dsn, connect_timeout=10),
                         **kwargs)


# A ``:name`` parameter as SQLAlchemy's text() finds one: not after a colon (``::int`` is a cast), a word
# character or a backslash (``\\:`` is a plain colon), nor followed by a colon.
TEXT_PARAMETER = re.compile(r"(?<![:\w\\]):(\w+)(?!:)")


def pyformat(sql: str, params: dict | None) -> str:
    """``sql`` written with ``:name`` parameters, as psycopg takes it with ``params``: ``%(name)s``, a
    literal ``%`` doubled, ``\\:`` a colon. Without parameters psycopg formats nothing: as written."""
    if not params:
        return sql.replace("\\:", ":")
    return TEXT_PARAMETER.sub(r"%(\1)s", sql.replace("%", "%%")).replace("\\:", ":")


class PgDatabase:
    def __init__(self, url: str, *, read_only: bool = True) -> None:
        _driver_ready()
        import psycopg
        from psycopg.types.json import set_json_loads

        self.url = url
        self.read_only = read_only
        self._lock = threading.RLock()
        self._columns: dict[str, list[str]] | None = None  # the schema's columns, read once (see columns)
        self._tables: list[str] | None = None  # the base tables, when read_catalog read them with the columns
        self._conn = None
        try:
            conn = psycopg.connect(libpq_url(url), connect_timeout=10, autocommit=True)
        except Exception as exc:  # OperationalError with the server's words: say it without the password
            raise PgError(connect_failure(url, exc)) from None
        try:
            set_json_loads(lenient_json_loads, conn)
            if read_only:
                conn.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        except Exception as exc:
            conn.close()
            raise PgError(connect_failure(url, exc)) from None
        self._conn = conn

    def _connection(self):
        if self._conn is None or self._conn.closed:
            raise PgError("the connection to the database is closed")
        return self._conn

    def rows(self, sql: str, params: dict | None = None) -> list[tuple]:
        try:
            with self._lock:
                cursor = self._connection().execute(pyformat(sql, params), params or None)
                return [tuple(r) for r in cursor.fetchall()] if cursor.description else []
        except PgError:
            raise
        except Exception as exc:
            raise PgError(masked(exc)) from None

    def mappings(self, sql: str, params: dict | None = None) -> list[dict]:
        try:
            with self._lock:
                cursor = self._connection().execute(pyformat(sql, params), params or None)
                if not cursor.description:
                    return []
                names = [column.name for column in cursor.description]
                return [dict(zip(names, r)) for r in cursor.fetchall()]
        except PgError:
            raise
        except Exception as exc:
            raise PgError(masked(exc)) from None

    def rows_with(self, settings: dict[str, str], sql: str) -> list[tuple]:
        """The rows of ``sql`` (no parameters) under ``settings`` (``SET LOCAL``: this statement only, in a
        read-only transaction of its own), e.g. more work memory for one large aggregate; fetched
        ``FETCH_ROWS`` at a time."""
        try:
            with self._lock:
                raw = self._connection()
                with raw.transaction():
                    for name, value in settings.items():
                        raw.execute("SELECT set_config(%s, %s, true)", (name, value))
                    if not FETCH_ROWS:
                        return [tuple(r) for r in raw.execute(sql).fetchall()]
                    out: list[tuple] = []
                    with raw.cursor(name="daycare_gui_rows_with") as cursor:
                        cursor.execute(sql)
                        while batch := cursor.fetchmany(FETCH_ROWS):
                            out.extend(tuple(r) for r in batch)
                    return out
        except PgError:
            raise
        except Exception as exc:
            raise PgError(masked(exc)) from None

    def scalar(self, sql: str, params: dict | None = None):
        rows = self.rows(sql, params)
        return rows[0][0] if rows else None

    def read_catalog(self) -> None:
        """The base tables and every column, read in one statement from PostgreSQL's own catalog for a copy whose
        schema never changes (a PGlite copy, read as its superuser): the two questions to information_schema
        the open asked instead took 80 to 270 ms on PGlite. The same names as those views give a superuser: the
        schema ``public``'s tables (``r``, ``p``: BASE TABLE) and the columns of its relations, in order."""
        tables: list[str] = []
        columns: dict[str, list[str]] = {}
        for name, kind, column in self.rows(
                "SELECT c.relname, c.relkind, a.attname FROM pg_catalog.pg_class c "
                "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
                "LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped "
                "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f') "
                "ORDER BY c.relname, a.attnum"):
            if kind in ("r", "p") and (not tables or tables[-1] != name):
                tables.append(name)
            if column is not None:
                columns.setdefault(name, []).append(column)
        self._tables, self._columns = tables, columns

    def tables(self) -> list[str]:
        if self._tables is not None:
            return list(self._tables)
        return [r[0] for r in self.rows(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' "
            "AND table_type = 'BASE TABLE' ORDER BY table_name")]

    def columns(self, table: str) -> list[str]:
        """``table``'s columns in order. Every column of the schema is read in one query, once per connection:
        information_schema is slow (tens of ms a question on PGlite) and the capabilities ask it dozens of
        times while a store opens. A PGlite copy never changes its schema; on a server the store reopens
        after anything that would (an upgrade)."""
        if self._columns is None:
            columns: dict[str, list[str]] = {}
            for name, column in self.rows(
                    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
                    "ORDER BY table_name, ordinal_position"):
                columns.setdefault(name, []).append(column)
            self._columns = columns
        return list(self._columns.get(table, ()))

    def count(self, table: str) -> int:
        if table not in self.tables():
            raise PgError(f"no table {table}")
        return int(self.scalar(f'SELECT count(*) FROM "{table}"') or 0)

    def close(self) -> None:
        # Under the queries' lock: closing the connection while a worker's query still holds it (SQLAlchemy's
        # StaticPool raced that: KeyError 'connection') left the PGlite process and its private copy behind.
        # A query in flight ends within the statement timeout; closing is on a thread of its own, so nobody
        # waits for it on the GUI thread.
        with self._lock:
            if self._conn is not None:
                try:
                    self._conn.close()
                except Exception:
                    pass
