"""The search index: an SQLite FTS5 database kept in the user's cache directory, one per store.

The Daycare database is never written to. The index lives under
``platformdirs.user_cache_dir("daycare-gui")/search/<key>.sqlite`` where ``key`` hashes the resolved database
path together with the file's identity (device, inode, creation time), so a store replaced by another file
at the same path gets a fresh index. ``DAYCARE_GUI_SEARCH_DIR`` (or the ``cache_dir`` argument) moves it,
which tests use to stay out of the real cache.

One FTS5 table holds the searchable text of every history record; its rowid is the record id, and the
record's session, agent, type and time ride along as UNINDEXED columns so filters run in the same SQL.
The ``tags`` column holds one token for the record type and one for the agent (:func:`type_tag`,
:func:`agent_tag`): a record's type and its session's agent never change, and a filter on them as FTS terms
intersects posting lists instead of reading every matching row.
A ``meta`` table remembers how far indexing got and a fingerprint of the rows already indexed.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

# The tokenizer, the match markers and the cache folder are shared with every other index.
from daycare_gui.stores.common.fts import (  # noqa: F401
    ENV_DIR,
    MARK_CLOSE,
    MARK_OPEN,
    TOKENIZER,
    default_dir,
    private_index_file,
    scrub_files,
)
from daycare_gui.stores.common.secrets import mask_free_text

# Bump when the extracted text or the table layout changes: an index of another version is rebuilt.
# 3: secrets are masked before they are indexed (an index of version 2 holds them in clear: rebuilt).
INDEX_VERSION = 3

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS records USING fts5(
    body, tags, session_id UNINDEXED, agent_id UNINDEXED, type UNINDEXED, at UNINDEXED,
    tokenize = '{TOKENIZER}'
);
"""


def masked_body(text: str | None) -> str | None:
    """A record's searchable text as it is indexed: secrets masked (the SQL function ``masked_body``)."""
    return text if text is None else mask_free_text(text)


def add_masking(conn: sqlite3.Connection) -> None:
    """Let ``conn``'s SQL call :func:`masked_body` (the build extracts each record's text in SQL)."""
    conn.create_function("masked_body", 1, masked_body, deterministic=True)


def type_tag(record_type: str) -> str:
    return "ty" + "".join(ch for ch in record_type if ch.isalnum()).lower()


def agent_tag(agent_id: str | None) -> str:
    return "ag" + "".join(ch for ch in (agent_id or "none") if ch.isalnum()).lower()


def store_key(db_path: str | os.PathLike) -> str:
    """A stable name for the index of one database file (path + file identity)."""
    path = Path(db_path).resolve()
    try:
        st = path.stat()
        identity = f"{st.st_dev}:{st.st_ino}:{getattr(st, 'st_birthtime', '')}"
    except OSError:
        identity = "missing"
    return hashlib.sha256(f"{path}\n{identity}".encode()).hexdigest()[:24]


def index_path(db_path: str | os.PathLike, cache_dir: str | os.PathLike | None = None) -> Path:
    return Path(cache_dir or default_dir()) / f"{store_key(db_path)}.sqlite"


@dataclass(frozen=True)
class IndexState:
    """What the index knows about itself (read from ``meta``)."""

    path: Path
    exists: bool
    last_id: int = 0  # highest record id indexed
    rows: int = 0  # records indexed
    fingerprint: tuple = ()  # ((record id, row hash), ...) sampled across the indexed range
    version: int = INDEX_VERSION

    @property
    def usable(self) -> bool:
        return self.exists and self.version == INDEX_VERSION and self.rows > 0


class SearchIndex:
    """One connection to one index file. Not thread-safe: open one per thread (it is cheap)."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise FileNotFoundError(self.path)
        private_index_file(self.path)  # 0600 in a 0700 folder before SQLite writes a byte (or tightened)
        # A URI connection, so that the build can ATTACH the store by its read-only URI (core/search/build.py).
        self.conn = sqlite3.connect(f"file:{quote(str(self.path))}", uri=True, isolation_level=None,
                                    check_same_thread=False)
        # WAL: searches keep reading while a build writes.
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA busy_timeout=5000")
        self.conn.executescript(_SCHEMA)
        add_masking(self.conn)

    # -- meta --------------------------------------------------------------------------------------
    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def state(self) -> IndexState:
        meta = self.meta()
        if not meta:
            return IndexState(self.path, exists=False)
        return IndexState(
            self.path, exists=True, last_id=int(meta.get("last_id", 0)), rows=int(meta.get("rows", 0)),
            fingerprint=tuple(tuple(x) for x in json.loads(meta.get("fingerprint", "[]"))),
            version=int(meta.get("version", 0)),
        )

    def set_meta(self, **values) -> None:
        """Write meta keys (call inside the batch's transaction so progress and rows commit together)."""
        for key, value in values.items():
            text = value if isinstance(value, str) else json.dumps(value)
            self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, text))

    # -- writing -----------------------------------------------------------------------------------
    def clear(self) -> None:
        """Drop every indexed record (a rebuild starts here). Dropping is much faster than DELETE."""
        # meta first: an interrupted clear leaves an index that says "never built", never a wrong one.
        self.conn.execute("DELETE FROM meta")
        self.conn.execute("DROP TABLE IF EXISTS records")
        self.conn.executescript(_SCHEMA)

    def scrub(self) -> None:
        """Leave no byte of the dropped records in the files (an older index held secrets in clear, and
        dropping a table only frees its pages). Skipped while another connection reads: tried next time."""
        scrub_files(self.conn)

    def add(self, rows) -> None:
        """``rows``: (record id, body, session id, agent id, type, at). Call inside a transaction."""
        tags: dict[tuple, str] = {}  # a store has few types and agents: each pair's tags are made once

        def tagged(r):
            tag = tags.get((r[4], r[3]))
            if tag is None:
                tag = tags[(r[4], r[3])] = f"{type_tag(r[4])} {agent_tag(r[3])}"
            return r[0], r[1], tag, r[2], r[3], r[4], r[5]

        self.conn.executemany(
            "INSERT INTO records(rowid, body, tags, session_id, agent_id, type, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            map(tagged, rows))

    def optimize(self) -> None:
        """Merge FTS5 segments after a big build: later queries read fewer b-trees."""
        self.conn.execute("INSERT INTO records(records) VALUES ('optimize')")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
