"""One full-text index for every store kind that offers ``SearchSource``, kept in the user's cache folder.

The store is never written: the index lives under ``<search dir>/sources/<key>.sqlite`` (the search dir is
:func:`daycare_gui.stores.common.fts.default_dir`; ``key`` hashes the source's ``identity()``, so each store
has its own file). A sub-folder keeps these apart from the per-store index files of an earlier version,
which a source names (``SearchSource.former_index_files``) so its first build removes them.

A rebuild reuses the same file (a new :data:`INDEX_VERSION` too). A new ``identity()`` means a new file: the
source names its former identities (``SearchSource.former_identities``) and each build removes their files,
with their ``-wal``/``-shm``, and nothing else (:func:`remove_former_indexes`). Each build also removes the
indexes of other stores that are gone (:mod:`.index_prune`: each index records where its store lives).

Rows: one row per message in ``message_rows`` (``id`` grows in cursor order, so "newest first" is id order),
an ordinary table: its text, tags, session (a small ``sessions`` table maps it to the neutral ``SessionRef``),
id, role, kind, time and its place among the session's indexed messages (a hint for opening the conversation
at it). The FTS5 table ``messages`` indexes its ``body`` and ``tags`` with ``message_rows`` as its external
content (FTS5 writes no copy of its own, and reads a hit's columns and snippet text from there by row id).
The ``tags`` column holds one token for the role, one for the thread and one per facet value the source tags
the message with (``SearchSource.tags``: Daycare's record type), so those filters intersect posting lists;
the tokens are short numbers of the index's own (:mod:`.search_tags`).

Documents (skills, prompt files, memory, settings keys: :mod:`.search_docs` gathers them) live in a second
FTS5 table of the same file, replaced whole when what they say changed (:func:`update_documents`).


Its builds are :mod:`.search_build`'s (``update_source_index``: by rows, or by a copy inside SQLite,
:mod:`.search_feed`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.fts import TOKENIZER, connect, default_dir, recorded_meta, scrub_files
from daycare_gui.stores.common.index_prune import LOCATION_META
from daycare_gui.stores.common.search_tags import TAG_IDS_SCHEMA
from daycare_gui.stores.common.secrets import mask_free_text, mask_tree, may_hold_secret, texts_to_mask
from daycare_gui.stores.records import Message

# Bump when the indexed text or the layout changes: an index of another version is rebuilt.
# 2: secrets are masked before they are indexed (an index of version 1 holds them in clear: rebuilt).
# 3: facet tags (SearchSource.tags) and the documents table.
# 4: the rows in an ordinary table (external content), tags as the index's own short tokens.
INDEX_VERSION = 4
BATCH = 2000
BODY_LIMIT = 200_000  # characters of one message indexed (a huge tool output is cut, not skipped)
MASK_CHUNK = 500  # rows looked at together: at most 500 cut texts (BODY_LIMIT + 1000 characters) in one string
SUBDIR = "sources"
log = logging.getLogger(__name__)

Cancel = Callable[[], bool]

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL, session_id TEXT NOT NULL,
    messages INTEGER NOT NULL DEFAULT 0, UNIQUE (thread_id, session_id)
);
CREATE TABLE IF NOT EXISTS message_rows (
    id INTEGER PRIMARY KEY, body, tags, session, message_id, role, kind, at, position
);
CREATE VIRTUAL TABLE IF NOT EXISTS messages USING fts5(
    body, tags, session UNINDEXED, message_id UNINDEXED, role UNINDEXED, kind UNINDEXED, at UNINDEXED,
    position UNINDEXED, content = 'message_rows', content_rowid = 'id', tokenize = '{TOKENIZER}'
);
{TAG_IDS_SCHEMA}
CREATE VIRTUAL TABLE IF NOT EXISTS documents USING fts5(
    body, title, doc_key UNINDEXED, doc_group UNINDEXED, place UNINDEXED, at UNINDEXED,
    tokenize = '{TOKENIZER}'
);
"""


# (statements one by one, not a script: executescript would commit the transaction a rebuild holds open)
_CLEAR = ("DELETE FROM meta", *(f"DROP TABLE IF EXISTS {t}" for t in
                                ("messages", "message_rows", "tag_ids", "sessions", "documents")),
          *(statement for statement in _SCHEMA.split(";") if statement.strip()))


def _key(identity: str) -> str:
    return hashlib.sha256(identity.encode("utf-8", "surrogatepass")).hexdigest()[:24]


def index_file(identity: str, cache_dir: str | os.PathLike | None = None) -> Path:
    return Path(cache_dir or default_dir()) / SUBDIR / f"{_key(identity)}.sqlite"


def remove_former_indexes(source: SearchSource, current: Path) -> list[Path]:
    """Delete the index files of ``source``'s former identities beside ``current`` (with their -wal, -shm
    and -journal); returns those removed. A file is this source's when its name is the key of a former
    identity and it does not record another identity. One that cannot be removed (in use on a platform
    that locks open files) is logged and tried again at the next build: the cache never blocks a search."""
    removed = []
    olds = [(current.with_name(f"{_key(identity)}.sqlite"), identity)
            for identity in dict.fromkeys(_utf8(i) for i in getattr(source, "former_identities", tuple)())]
    # (the folder above ``sources/``: where Daycare's own index kept its files; a source checks they are its own)
    olds += [(Path(f), None) for f in getattr(source, "former_index_files", lambda _d: ())(current.parent.parent)]
    for old, identity in olds:
        parts = [old] + [Path(f"{old}{suffix}") for suffix in ("-wal", "-shm", "-journal")]
        if old == current or not any(part.exists() for part in parts):
            continue
        if identity is not None and recorded_meta(old, "identity") not in (None, identity):
            continue  # another index under that name (it cannot be ours): left alone
        failed = False
        for part in parts:  # a -wal left behind alone is still found (and removed) next time
            try:
                part.unlink(missing_ok=True)
            except OSError as exc:
                log.info("could not remove the former search index %s: %s", part, exc)
                failed = True
        if not failed:
            removed.append(old)
    return removed


def searchable_text(m: Message) -> str:
    """What a search finds a message by: its text, tool calls (names and arguments), tool results, files;
    secrets masked (the index is a copy of the history kept on disk, and its snippets are shown)."""
    return masked_texts([_unmasked_text(m.text, m.tool_calls, m.tool_result, m.attachments)])[0]


def _unmasked_text(text, tool_calls, tool_result, attachments) -> str:
    """:func:`searchable_text` of a message with these fields, before its free text is masked (tool call
    arguments are masked as a tree already), with some text beyond the cut: a secret the cut runs through
    is still recognised."""
    parts = [text or ""]
    for call in tool_calls:
        parts.append(call.name or "")
        if call.arguments is not None:
            args = call.arguments
            if not isinstance(args, str):  # (walked to mask it only when its text may hold a secret)
                dumped = json.dumps(args, ensure_ascii=False, default=str)
                args = json.dumps(mask_tree(args), ensure_ascii=False, default=str) if may_hold_secret(dumped) else dumped
            parts.append(args)
    if tool_result is not None:
        parts += [tool_result.name or "", tool_result.text or ""]
    parts += list(attachments)
    return "\n".join(p for p in parts if p)[:BODY_LIMIT + 1000]


def masked_texts(texts: list[str]) -> list[str]:
    """``texts`` (from :func:`_unmasked_text`) as the index stores them: each as :func:`mask_free_text` masks
    it, cut to ``BODY_LIMIT``, in UTF-8. One look at a chunk of them tells which may hold a secret
    (:func:`texts_to_mask`, as for the copy inside SQLite); only those are masked, one by one."""
    out = []
    for start in range(0, len(texts), MASK_CHUNK):
        chunk = texts[start:start + MASK_CHUNK]
        sizes = [len(t) if t.isascii() else len(t.encode("utf-8", "surrogatepass")) for t in chunk]
        found = texts_to_mask("\n".join(chunk).encode("utf-8", "surrogatepass"), sizes)
        out += [_utf8(mask_free_text(t)[:BODY_LIMIT] if i in found else t[:BODY_LIMIT]) for i, t in enumerate(chunk)]
    return out


def _utf8(text) -> str:
    """SQLite stores UTF-8: a lone surrogate (JSON can spell one, ``"\\udc80"``) becomes U+FFFD, not an error."""
    text = "" if text is None else str(text)
    if text.isascii():  # (most text, told without encoding it: several times per message indexed)
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


@dataclass(frozen=True)
class IndexState:
    path: Path
    exists: bool  # built at least once (possibly empty)
    version: int = INDEX_VERSION
    identity: str = ""
    cursor: str | None = None  # the cursor of the message stored last
    check: str | None = None  # the cursor before it (None: it was the first message)
    last: tuple[str, str, str] | None = None  # (thread id, session id, message id) stored last
    rows: int = 0
    roles: tuple[str, ...] = ()  # every role indexed, for a filter to offer
    fingerprint: str | None = None  # the source's fingerprint of the history up to ``cursor``
    documents: int = 0  # documents indexed


@dataclass(frozen=True)
class BuildResult:
    status: str  # "up to date" | "updated" | "rebuilt" | "cancelled"
    added: int  # messages indexed by this run
    rows: int  # messages in the index now
    seconds: float
    reason: str = ""  # why it was rebuilt


class SourceIndex:
    """One connection to one index file. Not thread-safe: open one per thread (it is cheap)."""

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.conn = connect(self.path)  # (0600 in a 0700 folder before SQLite writes a byte)
        self.conn.executescript(_SCHEMA)

    @classmethod
    def for_source(cls, source: SearchSource, cache_dir: str | os.PathLike | None = None) -> SourceIndex:
        return cls(index_file(source.identity(), cache_dir))

    def meta(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT key, value FROM meta").fetchall())

    def state(self) -> IndexState:
        meta = self.meta()
        if not meta:
            return IndexState(self.path, exists=False)
        last = json.loads(meta.get("last", "null"))
        return IndexState(
            self.path, True, int(meta.get("version", 0)), meta.get("identity", ""),
            meta.get("cursor") or None, meta.get("check") or None,
            tuple(last) if isinstance(last, list) and len(last) == 3 else None, int(meta.get("rows", 0)),
            tuple(json.loads(meta.get("roles", "[]"))), meta.get("fingerprint") or None,
            int(meta.get("documents", 0)))

    def set_meta(self, **values) -> None:
        for key, value in values.items():
            text = value if isinstance(value, str) else json.dumps(value)
            self.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, text))

    def clear(self) -> None:
        """Forget everything (a rebuild starts here), in one transaction: a search running meanwhile sees the
        old index or an empty one, never missing tables. Dropping is much faster than deleting rows."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            self.clear_in_transaction()
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    def clear_in_transaction(self) -> None:
        """:meth:`clear` inside the caller's transaction (a rebuild that replaces the index only when it
        commits: until then, and if it is rolled back, searches see the old index whole)."""
        for statement in _CLEAR:
            self.conn.execute(statement)

    def scrub(self) -> None:
        """Leave no byte of dropped messages in the files (an older index held secrets in clear)."""
        scrub_files(self.conn)

    def optimize(self) -> None:
        self.conn.execute("INSERT INTO messages(messages) VALUES ('optimize')")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _as_ms(value) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _index_rows(conn: sqlite3.Connection, after: int) -> None:
    """Index the text and tags of the rows just stored after row ``after`` (FTS5 keeps no copy of them)."""
    conn.execute("INSERT INTO messages(rowid, body, tags) SELECT id, body, tags FROM message_rows WHERE id > ? "
                 "ORDER BY id", (after,))


def _seal(source: SearchSource, index: SourceIndex, added: int) -> None:
    """Store the source's fingerprint at the cursor indexed last (once per build: a count up to the cursor
    costs a scan, too much for every batch), and where the store lives, so that its index leaves the cache
    once the store is gone (:mod:`.index_prune`)."""
    location = source.location()
    if location and index.meta().get(LOCATION_META) != location:
        index.set_meta(**{LOCATION_META: location})
    cursor = index.meta().get("cursor")
    if not cursor or (not added and index.meta().get("fingerprint_at") == cursor):
        return
    index.set_meta(fingerprint=source.fingerprint(cursor) or "", fingerprint_at=cursor)


def update_documents(index: SourceIndex, documents, *, cancel: Cancel | None = None) -> int | None:
    """Replace the indexed documents with ``documents`` (:class:`~daycare_gui.stores.records.SearchDocument`)
    when what they say changed (a digest of them all, kept in ``meta``); returns how many are indexed now,
    or None when cancelled (the documents indexed before stay). Secrets are masked before they are stored."""
    rows = []
    digest = hashlib.sha256()
    for doc in documents:
        if cancel is not None and cancel():
            return None
        body = _utf8(mask_free_text(doc.text[:BODY_LIMIT + 1000])[:BODY_LIMIT])
        row = (body, _utf8(mask_free_text(doc.title)), _utf8(doc.key), _utf8(doc.group),
               _utf8(mask_free_text(doc.where)), _as_ms(doc.at))
        digest.update(json.dumps(row, ensure_ascii=False).encode("utf-8"))
        rows.append(row)
    seal = digest.hexdigest()
    if index.meta().get("documents_digest") == seal:
        return len(rows)
    index.conn.execute("BEGIN IMMEDIATE")
    try:
        index.conn.execute("DELETE FROM documents")
        index.conn.executemany("INSERT INTO documents(body, title, doc_key, doc_group, place, at) "
                               "VALUES (?, ?, ?, ?, ?, ?)", rows)
        index.set_meta(documents_digest=seal, documents=len(rows))
        index.conn.execute("COMMIT")
    except BaseException:
        index.conn.execute("ROLLBACK")
        raise
    return len(rows)
