"""Bringing a store's search index up to date: :func:`update_source_index`, the build by rows, which hands a
store that offers a copy inside SQLite to :mod:`.search_feed`.

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

A source that can fingerprint its history (``SearchSource.fingerprint``: a count and sampled rows up to the
cursor) has it stored once a build ends, with the cursor it is for; when the next build finds it no longer
matching at that cursor, the history was rewritten in the middle and the index is rebuilt. (A build that
died before storing it leaves the fingerprint of an earlier cursor: that one is not compared.) Index files of an earlier layout the source names
(``SearchSource.former_index_files``) are removed like a former identity's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from itertools import islice

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.index_prune import prune_source_indexes
from daycare_gui.stores.common.search_feed import FEED_BATCH, _attached, _build_from_feed, _feed_still_ends_at
from daycare_gui.stores.common.search_index import (  # (the index's own helpers, which both builds share)
    BATCH,
    INDEX_VERSION,
    BuildResult,
    Cancel,
    IndexState,
    SourceIndex,
    _as_ms,
    _index_rows,
    _seal,
    _unmasked_text,
    _utf8,
    masked_texts,
    remove_former_indexes,
)
from daycare_gui.stores.common.search_tags import TagIds, facet_tag, role_tag, thread_tag
from daycare_gui.stores.records import Message, SessionRef

Progress = Callable[[int, int], None]  # (done, total); total 0: unknown


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


def _close(stream) -> None:
    close = getattr(stream, "close", None)
    if close is not None:
        close()  # a generator's finally (open files, cursors) runs now, not at garbage collection
