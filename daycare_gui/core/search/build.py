"""Bring a search index up to date with a store's ``session_history``, in batches, cancellably.

The Daycare database is read only through :class:`~daycare_gui.core.db.ReadOnlyDatabase`. Indexing is
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
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from daycare_gui.core.db import ReadOnlyDatabase
from daycare_gui.core.search.index import INDEX_VERSION, SearchIndex
from daycare_gui.core.search.prune import STORE_META, prune_indexes

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
BODY_SQL = f"""CASE
  WHEN NOT json_valid(h.data) THEN h.data
  WHEN h.type IN ('user_message', 'note', 'assistant_rewrite') THEN {_s('$.text')}
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

_BATCH_SQL = (f"SELECT h.id, {BODY_SQL}, h.session_id, s.agent_id, h.type, h.at "
              "FROM session_history AS h LEFT JOIN sessions AS s ON s.id = h.session_id "
              "WHERE h.id > :after ORDER BY h.id LIMIT :n")


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
    verdict, reason = staleness(db, index)
    if verdict != "incremental":
        index.clear()
    st = index.state()
    first_id = int(db.scalar("SELECT min(id) FROM session_history") or 0)
    last_id, rows = st.last_id, st.rows
    total = pending_count(db, index)
    done = 0
    if progress is not None:
        progress(0, total)
    status = "rebuilt" if verdict == "rebuild" else "updated"
    while True:
        if cancel is not None and cancel():
            status = "cancelled"
            break
        chunk = db.rows(_BATCH_SQL, {"after": last_id, "n": batch})
        if not chunk:
            break
        last_id = chunk[-1][0]
        rows += len(chunk)
        done += len(chunk)
        sample = fingerprint(db, first_id, last_id)
        index.conn.execute("BEGIN IMMEDIATE")
        try:
            index.add(tuple(r) for r in chunk)
            index.set_meta(version=INDEX_VERSION, last_id=last_id, rows=rows, fingerprint=sample, **store)
            index.conn.execute("COMMIT")
        except BaseException:
            index.conn.execute("ROLLBACK")
            raise
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
