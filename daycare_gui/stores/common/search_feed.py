"""The search index built by a copy inside SQLite (``SearchSource.sqlite_feed``): a store SQLite can read is
attached read-only to the index's connection and its rows copied in batches of a few statements, masked by
a SQL function before they are stored, with no Python per row but the masking's own.

An index with rows gets each batch in a transaction of its own; a fresh build is one transaction whose rows
FTS5 indexes in one statement at its end (see :func:`_build_from_feed`). The index itself and its layout are
:mod:`.search_index`'s; :mod:`.search_build` chooses this build or the one by rows.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager

from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.search_index import (  # (the index's own helpers, which both builds share)
    BATCH,
    BODY_LIMIT,
    INDEX_VERSION,
    MASK_CHUNK,
    BuildResult,
    Cancel,
    IndexState,
    SourceIndex,
    _index_rows,
    _seal,
    _utf8,
)
from daycare_gui.stores.common.search_tags import TagIds, facet_tag, role_tag, thread_tag
from daycare_gui.stores.common.secrets import mask_free_text, texts_to_mask
from daycare_gui.stores.common.sqlite_text import fetch_all
from daycare_gui.stores.records import Message, SessionRef, SqliteFeed

FEED_BATCH = 20_000  # a batch copied inside SQLite is a few statements: bigger ones cost nothing per row
# FTS5's terms kept in memory before it writes a segment in a fresh build (its default: 1 MB): a fresh build
# of 1M messages writes 2 segments, not dozens it then merges (the build's peak memory is ~33 MB higher; FTS5
# frees it once it writes them)
FRESH_HASH_BYTES = 32 << 20
FEW_SEGMENTS = 4  # a fresh build merges its segments into one only when it wrote more than these
CANCEL_STEPS = 100_000  # SQLite steps between two looks at Cancel in a long statement (a few thousand rows)
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
    """The feed's rows for ``params`` read through the index's connection (text that is not UTF-8 with U+FFFD,
    as the batches index it)."""
    try:
        return fetch_all(index.conn, feed.rows_sql, params)
    except sqlite3.OperationalError as exc:
        if not feed.guarded_sql or "malformed JSON" not in str(exc):
            raise
        return fetch_all(index.conn, feed.guarded_sql, params)


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
