"""Bring a search index up to date with a store's ``session_history``, in batches, cancellably.

The Daycare database is only read: through :class:`~daycare_gui.stores.common.sqlite_ro.ReadOnlyDatabase`, and attached to
the index's connection by that object's read-only URI, so each batch is copied inside SQLite. Indexing is
incremental: each batch reads the records with ``id`` above the last indexed one and commits them together
with the new ``last_id``, so a cancelled build keeps what it did and the next one continues from there.
Before continuing, the index checks that the rows it already holds are still there and unchanged (a count
of ids up to ``last_id`` and a fingerprint of sampled rows); if the history shrank or was rewritten it is
rebuilt from scratch.

The searchable text of a record is extracted in SQL (SQLite's JSON functions run in C, and the large
``rlm_tool_call`` snapshot never leaves the database file): message text, tool call names and arguments,
tool result text, rlm code, tool names/arguments/results, output and print output, notes and rewrites.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.sqlite.fts_index.index import INDEX_VERSION, SearchIndex, agent_tag, type_tag
from daycare_gui.stores.daycare.sqlite.fts_index.prune import STORE_META, prune_indexes

BATCH = 5000
SAMPLES = 8

Progress = Callable[[int, int], None]
Cancel = Callable[[], bool]


def _s(path: str) -> str:
    """A JSON value as text ('' when missing), for concatenation."""
    return f"coalesce(json_extract(h.data, '{path}'), '')"


def _each_text(path: str, member: str | None = None) -> str:
    """The strings of an array (or ``member`` of its objects), space-joined."""
    if member is None:
        pick = "CASE WHEN j.type = 'text' THEN j.value END"
    else:
        pick = (f"CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.{member}') "
                "WHEN j.type = 'text' THEN j.value END")
    return f"coalesce((SELECT group_concat({pick}, ' ') FROM json_each(h.data, '{path}') AS j), '')"


_TOOL_CALLS = ("coalesce((SELECT group_concat(coalesce(json_extract(j.value, '$.name'), '') || ' ' || "
               "coalesce(json_extract(j.value, '$.arguments'), ''), ' ') "
               "FROM json_each(h.data, '$.toolCalls') AS j WHERE j.type = 'object'), '')")

# One expression per record type; anything unknown is indexed as its stored JSON (minus a snapshot).
_VALID_GUARD = "WHEN NOT json_valid(h.data) THEN h.data\n  "
BODY_SQL = f"""CASE
  {_VALID_GUARD}WHEN h.type IN ('user_message', 'note', 'assistant_rewrite') THEN {_s('$.text')}
  WHEN h.type = 'assistant_message' THEN {_s('$.text')} || ' ' || {_TOOL_CALLS}
  WHEN h.type = 'tool_result' THEN {_s('$.output.toolMessage.toolName')} || ' '
       || {_each_text('$.output.toolMessage.content', 'text')}
  WHEN h.type = 'rlm_start' THEN {_s('$.code')}
  WHEN h.type = 'rlm_tool_call' THEN {_s('$.toolName')} || ' ' || {_s('$.toolArgs')} || ' '
       || {_each_text('$.printOutput')}
  WHEN h.type = 'rlm_tool_result' THEN {_s('$.toolName')} || ' ' || {_s('$.toolResult')}
  WHEN h.type = 'rlm_complete' THEN {_s('$.output')} || ' ' || {_s('$.error')} || ' ' || {_each_text('$.printOutput')}
  ELSE json_remove(h.data, '$.snapshot')
END"""

# A batch goes from the store into the index inside SQLite, as plain FTS5 over the raw rows would: the store
# is attached to the index's connection by its read-only URI (writing to it fails), so no row is decoded
# into Python and encoded back. Tags are made by a Python function, once per type and agent.
ATTACHED_AS = "daycare_store"
_INSERT_SQL = (f"INSERT INTO records(rowid, body, tags, session_id, agent_id, type, at) "
               f"SELECT h.id, masked_body({BODY_SQL}), index_tags(h.type, s.agent_id), h.session_id, s.agent_id, h.type, h.at "
               f"FROM {ATTACHED_AS}.session_history AS h "
               f"LEFT JOIN {ATTACHED_AS}.sessions AS s ON s.id = h.session_id "
               "WHERE h.id > :after AND h.id <= :last ORDER BY h.id")
# Without the guard, which parses every payload once more only to check it: SQLite then fails the statement
# on a malformed payload, and that batch is inserted again with the guard.
_FAST_INSERT_SQL = _INSERT_SQL.replace(_VALID_GUARD, "")
_NEXT_BATCH_SQL = (f"SELECT max(id) FROM (SELECT id FROM {ATTACHED_AS}.session_history WHERE id > :after "
                   "ORDER BY id LIMIT :n)")


@contextmanager
def _store_attached(db: ReadOnlyDatabase, index: SearchIndex):
    tags: dict[tuple, str] = {}

    def index_tags(record_type, agent_id):
        tag = tags.get((record_type, agent_id))
        if tag is None:
            tag = tags[(record_type, agent_id)] = f"{type_tag(record_type or '')} {agent_tag(agent_id)}"
        return tag

    index.conn.create_function("index_tags", 2, index_tags, deterministic=True)
    index.conn.execute(f"ATTACH DATABASE ? AS {ATTACHED_AS}", (db.uri,))
    try:
        yield
    finally:
        index.conn.execute(f"DETACH DATABASE {ATTACHED_AS}")


def _insert_batch(index: SearchIndex, after: int, last: int) -> int:
    params = {"after": after, "last": last}
    try:
        return index.conn.execute(_FAST_INSERT_SQL, params).rowcount
    except sqlite3.OperationalError as exc:  # the failed statement changed nothing; its transaction goes on
        if "malformed JSON" not in str(exc):
            raise
        return index.conn.execute(_INSERT_SQL, params).rowcount


@dataclass(frozen=True)
class BuildResult:
    status: str  # "up to date" | "updated" | "rebuilt" | "cancelled" | "no history"
    added: int  # records indexed by this run
    rows: int  # records in the index now
    last_id: int
    seconds: float
    reason: str = ""  # why a rebuild happened


# -- fingerprint -----------------------------------------------------------------------------------
def _row_hash(row) -> str:
    return hashlib.sha1(repr(tuple(row)).encode()).hexdigest()[:16]


_SAMPLE_SQL = ("SELECT id, session_id, type, at, length(data), substr(data, 1, 128), substr(data, -64) "
               "FROM session_history WHERE id >= :t AND id <= :last ORDER BY id LIMIT 1")


def fingerprint(db: ReadOnlyDatabase, first_id: int, last_id: int) -> list[list]:
    """[(id, hash)] for up to ``SAMPLES`` rows spread over ``first_id..last_id`` (ends included)."""
    if last_id < first_id:
        return []
    out: dict[int, str] = {}
    for i in range(SAMPLES):
        target = first_id + (last_id - first_id) * i // max(1, SAMPLES - 1)
        rows = db.rows(_SAMPLE_SQL, {"t": target, "last": last_id})
        if rows:
            out[rows[0][0]] = _row_hash(rows[0])
    return [[k, v] for k, v in sorted(out.items())]


def _sample_still_matches(db: ReadOnlyDatabase, sample) -> bool:
    for record_id, digest in sample:
        rows = db.rows(_SAMPLE_SQL, {"t": record_id, "last": record_id})
        if not rows or _row_hash(rows[0]) != digest:
            return False
    return True


def staleness(db: ReadOnlyDatabase, index: SearchIndex) -> tuple[str, str]:
    """("fresh" | "incremental" | "rebuild", reason). Fresh: nothing indexed yet."""
    st = index.state()
    if not st.exists:
        return "fresh", ""
    if st.version != INDEX_VERSION:
        return "rebuild", f"index format {st.version} is not {INDEX_VERSION}"
    have = int(db.scalar("SELECT count(*) FROM session_history WHERE id <= :l", {"l": st.last_id}) or 0)
    if have != st.rows:
        why = "shrank" if have < st.rows else "gained rows below the indexed range"
        return "rebuild", f"the history {why} ({st.rows:,} indexed, {have:,} now)"
    if not _sample_still_matches(db, st.fingerprint):
        return "rebuild", "indexed records were changed"
    return "incremental", ""


def pending_count(db: ReadOnlyDatabase, index: SearchIndex) -> int:
    """Records not yet indexed (assuming no rebuild is needed)."""
    st = index.state()
    return int(db.scalar("SELECT count(*) FROM session_history WHERE id > :l", {"l": st.last_id}) or 0)


def has_history(db: ReadOnlyDatabase | None) -> bool:
    if db is None:
        return False
    return bool(db.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'session_history'"))


# -- building --------------------------------------------------------------------------------------
def update_index(db: ReadOnlyDatabase, index: SearchIndex, *, progress: Progress | None = None,
                 cancel: Cancel | None = None, batch: int = BATCH, optimize: bool = True) -> BuildResult:
    """Index every record not yet indexed, rebuilding first if the indexed part changed.

    Starting also removes the indexes of stores that no longer exist from the same cache folder."""
    started = time.perf_counter()
    prune_indexes(index.path.parent, keep=index.path)
    store = {STORE_META: str(Path(db.path).resolve())}  # lets a later prune tell whether the store is gone
    if not has_history(db):
        return BuildResult("no history", 0, 0, 0, 0.0)
    older_format = index.state().version != INDEX_VERSION
    verdict, reason = staleness(db, index)
    if verdict != "incremental":
        index.clear()
        if older_format:
            index.scrub()
    st = index.state()
    first_id = int(db.scalar("SELECT min(id) FROM session_history") or 0)
    last_id, rows = st.last_id, st.rows
    total = pending_count(db, index)
    done = 0
    if progress is not None:
        progress(0, total)
    status = "rebuilt" if verdict == "rebuild" else "updated"
    with _store_attached(db, index):
        while True:
            if cancel is not None and cancel():
                status = "cancelled"
                break
            batch_last = index.conn.execute(_NEXT_BATCH_SQL, {"after": last_id, "n": batch}).fetchone()[0]
            if batch_last is None:
                break
            sample = fingerprint(db, first_id, batch_last)
            index.conn.execute("BEGIN IMMEDIATE")
            try:
                added = _insert_batch(index, last_id, batch_last)
                index.set_meta(version=INDEX_VERSION, last_id=batch_last, rows=rows + added, fingerprint=sample,
                               **store)
                index.conn.execute("COMMIT")
            except BaseException:
                index.conn.execute("ROLLBACK")
                raise
            last_id, rows, done = batch_last, rows + added, done + added
            if progress is not None:
                progress(done, max(total, done))
    if done == 0 and status == "updated":
        status = "up to date"
        if not index.state().exists:  # an empty history: remember that it was looked at
            index.set_meta(version=INDEX_VERSION, last_id=0, rows=0, fingerprint=[], **store)
    elif optimize and done >= batch and status != "cancelled" and not (cancel is not None and cancel()):
        index.optimize()  # seconds on a large index: skipped when the build was cancelled meanwhile
    meta = index.meta()
    if meta and meta.get(STORE_META) != store[STORE_META]:  # an index built before it named its store
        index.set_meta(**store)
    return BuildResult(status, done, rows, last_id, time.perf_counter() - started, reason)
