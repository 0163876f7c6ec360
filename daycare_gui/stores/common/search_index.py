"""One full-text index for every store kind that offers ``SearchSource``, kept in the user's cache folder.

The store is never written: the index lives under ``<search dir>/sources/<key>.sqlite`` (the search dir is
:func:`daycare_gui.stores.common.fts.default_dir`; ``key`` hashes the source's ``identity()``, so each store
has its own file). A sub-folder keeps these apart from the per-store index files of an earlier version,
which a source names (``SearchSource.former_index_files``) so its first build removes them.

Indexing is incremental. ``SearchSource.messages(after)`` yields ``(cursor, ref, message)`` in cursor
order; cursors are opaque strings. The index remembers the last cursor it stored and the one before it, and
next time asks for the messages after *the one before*: the first answer must be the message it stored
last (same cursor, session and id). Then the rest of that same stream is exactly what is new, so checking
costs one message. If the first answer differs, the history was shortened or rewritten at its end and the
index is rebuilt from scratch. A change further back (a message deleted or edited in the middle) is not
noticed that way: "Rebuild" (``rebuild=True``) starts over. Each batch commits its messages together with
the new cursors, so a cancelled or interrupted build keeps what it did and the next one continues. A fresh
build copied inside SQLite (``SearchSource.sqlite_feed``: none indexed yet, or a rebuild of an index of this
layout and store) is one transaction instead: searches meanwhile see the index as it was, FTS5 indexes all its
rows in one statement at the end (a few large segments, not one per batch), and a cancelled or interrupted
one leaves the index exactly as it was (the one it would have replaced, or none).

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

A source that can fingerprint its history (``SearchSource.fingerprint``: a count and sampled rows up to the
cursor) has it stored once a build ends, with the cursor it is for; when the next build finds it no longer
matching at that cursor, the history was rewritten in the middle and the index is rebuilt. (A build that
died before storing it leaves the fingerprint of an earlier cursor: that one is not compared.) Index files of an earlier layout the source names
(``SearchSource.former_index_files``) are removed like a former identity's.

Documents (skills, prompt files, memory, settings keys: :mod:`.search_docs` gathers them) live in a second
FTS5 table of the same file, replaced whole when what they say changed (:func:`update_documents`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.fts import TOKENIZER, connect, default_dir, recorded_meta, scrub_files
from daycare_gui.stores.common.index_prune import LOCATION_META, prune_source_indexes
from daycare_gui.stores.common.search_tags import TAG_IDS_SCHEMA, TagIds, facet_tag, role_tag, thread_tag
from daycare_gui.stores.common.secrets import mask_free_text, mask_tree, may_hold_secret, texts_to_mask
from daycare_gui.stores.records import Message, SessionRef, SqliteFeed

# Bump when the indexed text or the layout changes: an index of another version is rebuilt.
# 2: secrets are masked before they are indexed (an index of version 1 holds them in clear: rebuilt).
# 3: facet tags (SearchSource.tags) and the documents table.
# 4: the rows in an ordinary table (external content), tags as the index's own short tokens.
INDEX_VERSION = 4
BATCH = 2000
FEED_BATCH = 20_000  # a batch copied inside SQLite is a few statements: bigger ones cost nothing per row
BODY_LIMIT = 200_000  # characters of one message indexed (a huge tool output is cut, not skipped)
MASK_CHUNK = 500  # rows looked at together: at most 500 cut texts (BODY_LIMIT + 1000 characters) in one string
SUBDIR = "sources"
# FTS5's terms kept in memory before it writes a segment in a fresh build (its default: 1 MB): a fresh build
# of 1M messages writes 2 segments, not dozens it then merges (the build's peak memory is ~33 MB higher; FTS5
# frees it once it writes them)
FRESH_HASH_BYTES = 32 << 20
FEW_SEGMENTS = 4  # a fresh build merges its segments into one only when it wrote more than these
CANCEL_STEPS = 100_000  # SQLite steps between two looks at Cancel in a long statement (a few thousand rows)
log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]  # (done, total); total 0: unknown
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


class _Sessions:
    """Session rows and how many of each session's messages are indexed, for one build."""

    def __init__(self, index: SourceIndex) -> None:
        self.conn = index.conn
        self.known: dict[tuple, list[int]] = {}  # (thread id, session id) → [row id, messages indexed]
        self.touched: dict[tuple, list[int]] = {}  # those counted since the last save

    def take(self, ref: tuple[str, str]) -> tuple[int, int]:
        """(session row id, this message's place in its session); counts it."""
        entry = self.touched.get(ref)
        if entry is not None:
            entry[1] += 1
            return entry[0], entry[1] - 1
        entry = self.known.get(ref)
        if entry is None:
            key = (_utf8(ref[0]), _utf8(ref[1]))
            row = self.conn.execute("SELECT id, messages FROM sessions WHERE thread_id = ? AND session_id = ?",
                                    key).fetchone()
            if row is None:
                cur = self.conn.execute("INSERT INTO sessions(thread_id, session_id) VALUES (?, ?)", key)
                row = (cur.lastrowid, 0)
            entry = self.known[ref] = [row[0], row[1]]
        self.touched[ref] = entry
        entry[1] += 1
        return entry[0], entry[1] - 1

    def save(self) -> None:
        # (the sessions of this batch only: saving every session known so far made a long build quadratic)
        self.conn.executemany("UPDATE sessions SET messages = ? WHERE id = ?",
                              [(n, sid) for sid, n in self.touched.values()])
        self.touched.clear()

    def forget(self) -> None:
        self.known.clear()  # after a rollback the counts in memory are wrong
        self.touched.clear()


def _as_ms(value) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _same(row, st: IndexState) -> bool:
    return _utf8(row[0]) == st.cursor and (_utf8(row[1]), _utf8(row[2]), _utf8(row[3])) == st.last


def _index_rows_of(source: SearchSource, after: str | None) -> Iterator[tuple]:
    """The source's messages after ``after`` as the index reads them: ``(cursor, thread_id, session_id,
    message_id, role, kind, at, text, tool_calls, tool_result, attachments, facets)``, from its lean
    ``index_rows`` when it has them (facets asked once per role, thread and kind, as for ``sqlite_feed``),
    else from its messages."""
    lean_rows = getattr(source, "index_rows", None)
    lean = lean_rows(after) if lean_rows is not None else None
    if lean is None:
        stream = source.messages(after)
        try:  # (closed with this generator: a source's stream may hold a cursor or a thread)
            for cursor, ref, m in stream:
                facets = source.tags(ref, m)
                if type(facets) is not tuple:  # (a key of the build's tags made once: a list is not one)
                    facets = tuple(map(tuple, facets or ()))
                yield (cursor, ref.thread_id, ref.session_id, m.id, m.role, m.kind, m.at, m.text, m.tool_calls,
                       m.tool_result, m.attachments, facets)
        finally:
            _close(stream)
        return
    facets: dict[tuple, tuple] = {}
    try:
        for row in lean:
            key = (row[4], row[1], row[5])
            found = facets.get(key)
            if found is None:
                found = facets[key] = source.tags(SessionRef(row[1], ""), Message("", row[4], kind=row[5]))
            yield (*row, found)
    finally:
        _close(lean)


def update_source_index(source: SearchSource, index: SourceIndex, *, progress: Progress | None = None,
                        cancel: Cancel | None = None, batch: int | None = None, rebuild: bool = False,
                        optimize: bool = True) -> BuildResult:
    """Index the messages ``source`` has that the index lacks (rebuilding first when its history changed)."""
    started = time.perf_counter()
    identity = _utf8(source.identity())
    remove_former_indexes(source, index.path)
    prune_source_indexes(index.path.parent, keep=index.path)  # other stores' indexes, where the store is gone
    st = index.state()
    reason = ""
    if rebuild:
        reason = "a rebuild was asked for"
    elif st.exists and st.version != INDEX_VERSION:
        reason = f"index format {st.version} is not {INDEX_VERSION}"
    elif st.exists and st.identity != identity:
        reason = "the index belonged to another store"
    elif (st.rows and st.fingerprint and st.cursor and index.meta().get("fingerprint_at") == st.cursor
          and source.fingerprint(st.cursor) != st.fingerprint):
        reason = "indexed messages were changed or removed"
    feed = source.sqlite_feed()
    # A copy inside SQLite replaces this store's index in one transaction: the old one stays whole until then
    kept = None  # (the index a rebuild replaces when it commits; None: nothing to keep)
    if reason and feed is not None and st.exists and st.version == INDEX_VERSION and st.identity == identity:
        kept, st = st, IndexState(index.path, exists=False)
    elif reason:  # (an index of another format or store is no index of this one: it goes first)
        older_format = st.exists and st.version != INDEX_VERSION
        index.clear()
        if older_format:
            index.scrub()
        st = index.state()
    if feed is not None:
        with _attached(index, source, feed) as tag_ids:
            if st.rows and not _feed_still_ends_at(index, feed, st):
                reason = "the message indexed last is no longer where it was (the history was shortened or changed)"
                kept, st = st, IndexState(index.path, exists=False)
            return _build_from_feed(source, feed, index, tag_ids, st, identity, reason, started, progress=progress,
                                    cancel=cancel, batch=batch or FEED_BATCH, optimize=optimize, kept=kept)
    batch = batch or BATCH
    stream: Iterator = _index_rows_of(source, st.check if st.rows else None)
    if st.rows:
        first = next(stream, None)
        if first is None or not _same(first, st):
            reason = "the message indexed last is no longer where it was (the history was shortened or changed)"
            _close(stream)
            index.clear()
            st = index.state()
            stream = _index_rows_of(source, None)
    rows, done = st.rows, 0
    check, cursor = st.check, st.cursor
    sessions = _Sessions(index)
    tag_ids = TagIds(index.conn)
    tagged_as: dict[tuple, tuple[str, str]] = {}  # (role, thread id, facets) → (role, tags) as indexed
    roles = set(st.roles)
    status = "rebuilt" if reason else "updated"
    if progress is not None:
        progress(0, 0)
    try:
        while True:
            if cancel is not None and cancel():
                status = "cancelled"
                break
            chunk = list(islice(stream, batch))
            if not chunk:
                break
            index.conn.execute("BEGIN IMMEDIATE")
            try:
                records, texts = [], []
                first = rows
                for (_cursor, thread_id, session_id, message_id, role, kind, at, text, tool_calls, tool_result,
                     attachments, facets) in chunk:
                    session_row, position = sessions.take((thread_id, session_id))
                    rows += 1
                    tagged = tagged_as.get((role, thread_id, facets))
                    if tagged is None:  # (role and tags made once for each role, thread and facets)
                        tagged = tagged_as[role, thread_id, facets] = _tagged(tag_ids, role, thread_id, facets)
                        roles.add(tagged[0])
                    texts.append(_unmasked_text(text, tool_calls, tool_result, attachments))
                    records.append((rows, tagged[1], session_row, _utf8(message_id), tagged[0], _utf8(kind),
                                    _as_ms(at), position))
                check = _utf8(chunk[-2][0]) if len(chunk) > 1 else cursor
                cursor = _utf8(chunk[-1][0])
                bodies = masked_texts(texts)  # (before any of it is written)
                index.conn.executemany(
                    "INSERT INTO message_rows(id, tags, session, message_id, role, kind, at, position, body) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [r + (b,) for r, b in zip(records, bodies)])
                _index_rows(index.conn, first)
                sessions.save()
                tag_ids.save()
                last = chunk[-1]
                index.set_meta(version=INDEX_VERSION, identity=identity, cursor=cursor, check=check or "",
                               last=[_utf8(last[1]), _utf8(last[2]), _utf8(last[3])],
                               rows=rows, roles=sorted(roles))
                index.conn.execute("COMMIT")
            except BaseException:
                index.conn.execute("ROLLBACK")
                sessions.forget()
                tag_ids.forget()
                tagged_as.clear()
                raise
            done += len(chunk)
            if progress is not None:
                progress(done, 0)
    finally:
        _close(stream)
    if done == 0 and status == "updated":
        status = "up to date"
    if not index.state().exists:  # an empty history: remember that it was looked at
        index.set_meta(version=INDEX_VERSION, identity=identity, rows=0)
    _seal(source, index, done)
    if optimize and done >= 5 * batch and status != "cancelled" and not (cancel is not None and cancel()):
        index.optimize()  # fewer segments: later queries read fewer b-trees
    return BuildResult(status, done, rows, time.perf_counter() - started, reason)


def _tagged(tag_ids: TagIds, role, thread_id, facets) -> tuple[str, str]:
    """(the role, the tags column) of a message with this role, thread and facets."""
    role = _utf8(role)
    tags = [role_tag(role), thread_tag(_utf8(thread_id))]
    if facets:
        tags += [facet_tag(_utf8(n), _utf8(v)) for n, v in facets]
    return role, tag_ids.tokens(tags)


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


# -- the copy inside SQLite (SearchSource.sqlite_feed) --------------------------------------------------
FEED_SCHEMA = "feed"


@contextmanager
def _attached(index: SourceIndex, source: SearchSource, feed: SqliteFeed):
    """The store attached read-only to the index's connection as ``feed``, with the SQL functions a batch
    uses: ``masked_text`` (what :func:`searchable_text` makes of a message's text) and ``index_tags``; yields
    the build's :class:`~.search_tags.TagIds` (their new numbers are saved by each batch)."""
    made: dict[tuple, list[str]] = {}
    tag_ids = TagIds(index.conn)

    def index_tags(role, thread_id, kind):
        key = (role, thread_id, kind)
        tags = made.get(key)
        if tags is None:  # (what a source tags may depend on the role, the thread and the kind only)
            message = Message("", _utf8(role), kind=_utf8(kind))
            facets = source.tags(SessionRef(_utf8(thread_id), ""), message)
            tags = [role_tag(_utf8(role)), thread_tag(_utf8(thread_id))]
            if facets:
                tags += [facet_tag(_utf8(n), _utf8(v)) for n, v in facets]
            made[key] = tags  # (tags depend on the role, thread and kind only: a source's contract)
        return tag_ids.tokens(tags)  # (once per role, thread and kind of a batch: feed_tags)

    def masked_text(text):  # (text from SQLite is UTF-8 already: no _utf8 round trip per message)
        return "" if text is None else _masked_body(str(text))

    conn = index.conn
    conn.execute("PRAGMA temp_store = MEMORY")  # each batch's rows pass through a temporary table
    conn.create_function("index_tags", 3, index_tags)
    conn.create_function("masked_text", 1, masked_text, deterministic=True)
    conn.execute(f"ATTACH DATABASE ? AS {FEED_SCHEMA}", (feed.uri,))
    try:
        yield tag_ids
    finally:
        conn.execute(f"DETACH DATABASE {FEED_SCHEMA}")


def _masked_body(text: str) -> str:
    if len(text) > BODY_LIMIT:  # (masked with some text beyond the cut, as searchable_text does)
        return mask_free_text(text[:BODY_LIMIT + 1000])[:BODY_LIMIT]
    return mask_free_text(text)


def _temp_in_memory(conn: sqlite3.Connection) -> bool:
    """Whether this connection's temporary tables stay in memory (``PRAGMA temp_store = MEMORY``, unless
    SQLite was built to keep them in files whatever the pragma says)."""
    if conn.execute("PRAGMA temp_store").fetchone()[0] != 2:
        return False
    return not any(option[0] == "TEMP_STORE=0" for option in conn.execute("PRAGMA compile_options"))



def _mask_batch(conn: sqlite3.Connection) -> None:
    """Mask the secrets in the batch's text, in ``temp.feed_batch`` (in memory), before the index sees it.
    One look at many texts at once tells which may hold one (:func:`texts_to_mask`); only those are masked,
    each as :func:`mask_free_text` masks it, and a text longer than the index keeps is cut. (One aggregate
    reads a chunk's texts, their sizes and row ids: the three lists are in the same order.)"""
    todo: set[int] = set()
    (end,) = conn.execute("SELECT max(rowid) FROM temp.feed_batch").fetchone()
    for low in range(0, end or 0, MASK_CHUNK):
        joined, sizes, rowids = conn.execute(
            "SELECT CAST(group_concat(CAST(body AS BLOB), x'0a') AS BLOB), group_concat(length(CAST(body AS BLOB))), "
            "group_concat(rowid) FROM temp.feed_batch WHERE rowid > ? AND rowid <= ?",
            (low, low + MASK_CHUNK)).fetchone()
        if not rowids:
            continue
        sizes = [int(n) for n in sizes.split(",")]
        found = texts_to_mask(joined, sizes)
        # (a text longer than the index keeps is cut: one of more bytes than that may be, and is looked at)
        if max(sizes) > BODY_LIMIT:
            found.update(i for i, size in enumerate(sizes) if size > BODY_LIMIT)
        try:
            joined.decode("utf-8")
        except UnicodeDecodeError:  # (rare: a store's bytes that are not UTF-8) those texts are read and rewritten
            found |= _not_utf8(joined, sizes)
        if found:
            ids = rowids.split(",")
            todo.update(int(ids[i]) for i in found)
    if todo:
        texts = conn.execute(f"SELECT rowid, CAST(body AS BLOB) FROM temp.feed_batch WHERE rowid IN "
                             f"({','.join(map(str, sorted(todo)))})").fetchall()
        # (text that is not UTF-8 is read with U+FFFD where it breaks, as _utf8 makes of it: the index holds UTF-8)
        conn.executemany("UPDATE temp.feed_batch SET body = ? WHERE rowid = ?",
                         [(_masked_body(raw.decode("utf-8", "replace")), rowid) for rowid, raw in texts])


def _not_utf8(joined: bytes, sizes: list[int]) -> set[int]:
    out, at = set(), 0
    for i, size in enumerate(sizes):
        try:
            joined[at:at + size].decode("utf-8")
        except UnicodeDecodeError:
            out.add(i)
        at += size + 1
    return out


def _feed_still_ends_at(index: SourceIndex, feed: SqliteFeed, st: IndexState) -> bool:
    """Whether the message indexed last is still the feed's message at that cursor."""
    try:
        last = int(st.cursor or "")
    except ValueError:
        return False
    rows = _feed_rows(index, feed, {"after": last - 1, "last": last})  # (integer cursors: just that one)
    if not rows or str(rows[-1][0]) != st.cursor:
        return False
    row = rows[-1]
    return (_utf8(row[1]), _utf8(row[2]), _utf8(row[3])) == st.last


def _feed_rows(index: SourceIndex, feed: SqliteFeed, params: dict) -> list:
    try:
        return index.conn.execute(feed.rows_sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if not feed.guarded_sql or "malformed JSON" not in str(exc):
            raise
        return index.conn.execute(feed.guarded_sql, params).fetchall()


# Every row of a batch is made index-ready once, in ``temp.feed_batch`` (its text masked); the insert reads it
# once, in order (the batch is the outer loop of a CROSS JOIN: SQLite keeps that order, so no sort carries the
# text), and looks up each row's session and its tags (``feed_tags``: the tags of each role, thread and kind in
# the batch, made once each). A row's place in its session is counted as the rows pass (``index_place``: the
# session's messages indexed before this batch, then one more per row), which a window over the batch sorted
# by session cost twice over. A fresh table numbers its rows 1, 2, … in the order they were selected: the
# index's row ids follow from it.
_FEED_TEMP = ("feed_batch", "feed_tags")
_FEED_TAGS = """
INSERT INTO temp.feed_tags(role, thread_id, kind, tags)
SELECT role, thread_id, kind, index_tags(role, thread_id, kind)
FROM (SELECT DISTINCT role, thread_id, kind FROM temp.feed_batch)
"""
_FEED_INSERT = """
INSERT INTO message_rows(id, body, tags, session, message_id, role, kind, at, position)
SELECT :rows + b.rowid, b.body, t.tags, s.id, b.message_id, b.role, b.kind, b.at, index_place(s.id, s.messages)
FROM temp.feed_batch AS b
CROSS JOIN sessions AS s ON s.thread_id = b.thread_id AND s.session_id = b.session_id
CROSS JOIN temp.feed_tags AS t ON t.role = b.role AND t.thread_id = b.thread_id AND t.kind = b.kind
ORDER BY b.rowid
"""


def _copy_batch(index: SourceIndex, feed: SqliteFeed, tag_ids: TagIds, after: int, last: int,
                rows: int, fts: bool = True) -> tuple[int, list, list]:
    """One batch copied into the index (inside the caller's transaction): (messages added, the last two
    rows, the roles in it). ``fts`` False: its rows are stored, and FTS5 indexes them later."""
    conn = index.conn
    for table in _FEED_TEMP:
        conn.execute(f"DROP TABLE IF EXISTS temp.{table}")
    # (masked as it is copied when the temporary tables may be written to a file: no secret on any disk)
    in_memory = _temp_in_memory(conn)
    # (cut with some text beyond the index's limit, so that a secret the cut runs through is still seen)
    body = f"substr(coalesce(CAST(body AS TEXT), ''), 1, {BODY_LIMIT + 1000})" if in_memory else "masked_text(body)"
    for sql in (feed.rows_sql, feed.guarded_sql):
        try:  # the text made index-ready once, here (masked before the index sees it): the insert only moves it
            conn.execute("CREATE TEMP TABLE feed_batch AS SELECT cursor, coalesce(thread_id, '') AS thread_id, "
                         "coalesce(session_id, '') AS session_id, CAST(message_id AS TEXT) AS message_id, "
                         "coalesce(role, '') AS role, coalesce(kind, '') AS kind, "
                         "CASE WHEN typeof(at) = 'integer' THEN at END AS at, "
                         f"{body} AS body FROM ({sql})", {"after": after, "last": last})
            break
        except sqlite3.OperationalError as exc:
            if not feed.guarded_sql or sql == feed.guarded_sql or "malformed JSON" not in str(exc):
                raise
    if in_memory:
        _mask_batch(conn)
    conn.execute("INSERT OR IGNORE INTO sessions(thread_id, session_id) "
                 "SELECT DISTINCT thread_id, session_id FROM temp.feed_batch")
    # (untyped columns, as feed_batch's: a key compares with the batch's values exactly as they are)
    conn.execute("CREATE TEMP TABLE feed_tags (role, thread_id, kind, tags, PRIMARY KEY (role, thread_id, kind))")
    conn.execute(_FEED_TAGS)
    tag_ids.save()
    counted: dict[int, int] = {}  # session row → its messages indexed once this batch's rows so far are

    def index_place(session: int, before: int) -> int:
        place = counted.get(session, before)
        counted[session] = place + 1
        return place

    conn.create_function("index_place", 2, index_place)  # (not deterministic: called once per row, in order)
    added = conn.execute(_FEED_INSERT, {"rows": rows}).rowcount
    if fts:
        _index_rows(conn, rows)
    conn.executemany("UPDATE sessions SET messages = ? WHERE id = ?", [(n, sid) for sid, n in counted.items()])
    tail = conn.execute("SELECT cursor, thread_id, session_id, message_id FROM temp.feed_batch "
                        "ORDER BY rowid DESC LIMIT 2").fetchall()
    roles = [r[0] for r in conn.execute("SELECT role FROM temp.feed_tags GROUP BY role")]
    for table in _FEED_TEMP:
        conn.execute(f"DROP TABLE temp.{table}")
    return added, tail, roles


def _build_from_feed(source: SearchSource, feed: SqliteFeed, index: SourceIndex, tag_ids: TagIds, st: IndexState,
                     identity: str, reason: str, started: float, *, progress, cancel, batch: int,
                     optimize: bool, kept: IndexState | None = None) -> BuildResult:
    """Copy the feed's rows after ``st``'s cursor into the index. An index with rows gets each batch in a
    transaction of its own (a cancelled update keeps what it did). A fresh build (none indexed yet, or ``kept``:
    the index it replaces) is one transaction: it commits once, and a cancelled or interrupted one leaves the
    index exactly as it was (``kept``, or none)."""
    conn = index.conn
    whole = kept is not None or not st.rows
    rows, done = st.rows, 0
    cursor, check = st.cursor, st.check
    last_row = list(st.last) if st.last else None
    roles = set(st.roles)
    status = "rebuilt" if reason else "updated"
    after = int(cursor) if cursor else -(1 << 62)
    if progress is not None:
        progress(0, 0)
    if whole:
        conn.execute("BEGIN IMMEDIATE")
        try:
            if kept is not None:
                index.clear_in_transaction()
                tag_ids.forget()  # (the numbers read before the clear are gone with it)
            _fresh_build_settings(conn)
        except BaseException:
            _roll_back(conn, tag_ids)
            raise
    while True:
        if cancel is not None and cancel():
            status = "cancelled"
            break
        end = conn.execute(feed.next_sql, {"after": after, "n": batch}).fetchone()
        if not end or end[0] is None:
            break
        if not whole:
            conn.execute("BEGIN IMMEDIATE")
        try:
            added, tail, batch_roles = _copy_batch(index, feed, tag_ids, after, int(end[0]), rows,
                                                   fts=not whole)
            if not tail:
                if not whole:
                    _roll_back(conn, tag_ids)
                break
            rows += added
            roles.update(batch_roles)
            check = str(tail[1][0]) if len(tail) > 1 else cursor
            cursor = str(tail[0][0])
            last_row = [_utf8(tail[0][1]), _utf8(tail[0][2]), _utf8(tail[0][3])]
            index.set_meta(version=INDEX_VERSION, identity=identity, cursor=cursor, check=check or "",
                           last=last_row, rows=rows, roles=sorted(roles))
            if not whole:
                conn.execute("COMMIT")
        except BaseException:
            _roll_back(conn, tag_ids)
            raise
        after = int(cursor)
        done += added
        if progress is not None:
            progress(done, 0)
    optimized = False
    if whole:
        if status == "cancelled":  # the index as it was: the one kept, or none
            _roll_back(conn, tag_ids)
            return BuildResult(status, 0, kept.rows if kept is not None else 0, time.perf_counter() - started,
                               reason)
        try:
            if not index.state().exists:
                index.set_meta(version=INDEX_VERSION, identity=identity, rows=0)
            if not _index_all(conn, cancel):
                _roll_back(conn, tag_ids)
                return BuildResult("cancelled", 0, kept.rows if kept is not None else 0,
                                   time.perf_counter() - started, reason)
            # (merging a few large segments costs seconds and saves a query next to nothing; inside the
            # transaction, the merged pages are written once, with the rest, when it commits)
            if (optimize and done >= 5 * BATCH and _segments(conn) > FEW_SEGMENTS
                    and not (cancel is not None and cancel())):
                index.optimize()
            optimized = True
            conn.execute("COMMIT")
        except BaseException:
            _roll_back(conn, tag_ids)
            raise
        _shrink_wal(conn)
    if done == 0 and status == "updated":
        status = "up to date"
    if not index.state().exists:
        index.set_meta(version=INDEX_VERSION, identity=identity, rows=0)
    _seal(source, index, done)
    if (not optimized and optimize and done >= 5 * BATCH and status != "cancelled"
            and not (cancel is not None and cancel())):
        index.optimize()
    return BuildResult(status, done, rows, time.perf_counter() - started, reason)


def _index_all(conn: sqlite3.Connection, cancel: Cancel | None) -> bool:
    """FTS5 indexes every stored row in one statement (it writes its terms at the end of each statement, so
    one statement writes a few large segments, not one per batch); False when ``cancel`` said so meanwhile
    (the statement was interrupted: the caller rolls back)."""
    if cancel is not None:
        conn.set_progress_handler(lambda: 1 if cancel() else 0, CANCEL_STEPS)
    try:
        _index_rows(conn, 0)
    except sqlite3.OperationalError as exc:
        if cancel is None or "interrupt" not in str(exc) or not cancel():
            raise
        return False
    finally:
        if cancel is not None:
            conn.set_progress_handler(None, 0)
    return True


def _segments(conn: sqlite3.Connection) -> int:
    """How many segments FTS5 keeps the messages' terms in (a query reads each one's b-tree)."""
    return conn.execute("SELECT count(DISTINCT segid) FROM messages_idx").fetchone()[0]


def _roll_back(conn: sqlite3.Connection, tag_ids: TagIds) -> None:
    if not conn.in_transaction:
        return
    conn.execute("ROLLBACK")
    tag_ids.forget()


def _fresh_build_settings(conn: sqlite3.Connection) -> None:
    """A fresh build's FTS5 statement keeps up to this many bytes of terms in memory before it writes a
    segment (FTS5 also writes one at the end of every statement): fewer, larger segments to write and merge.
    Kept in the index's FTS5 config; an update's batches write theirs at their statement's end anyway."""
    conn.execute("INSERT INTO messages(messages, rank) VALUES ('hashsize', ?)", (FRESH_HASH_BYTES,))


def _shrink_wal(conn: sqlite3.Connection) -> None:
    """After one large transaction: the -wal file (as large as the index) is emptied, unless a search is
    reading just then (not waited for: SQLite reuses the file from its start)."""
    (timeout,) = conn.execute("PRAGMA busy_timeout").fetchone()
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    except sqlite3.OperationalError:
        pass
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(timeout)}")


def _close(stream) -> None:
    close = getattr(stream, "close", None)
    if close is not None:
        close()  # a generator's finally (open files, cursors) runs now, not at garbage collection


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
