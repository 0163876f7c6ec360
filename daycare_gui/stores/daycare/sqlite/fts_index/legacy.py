"""Search a legacy (pre-SQLite) store: the same FTS5 index, filled from ``agents/<id>/history.jsonl``.

Records are cut into sessions exactly as the window shows them (:mod:`daycare_gui.stores.daycare.files.legacy_agents`):
session ids are ``<agent id>#<n>`` and a record's id is its line in the history file, so a hit opens the
conversation at that record. The searchable text is extracted by the same SQL as for a database
(:data:`daycare_gui.stores.daycare.sqlite.fts_index.build.BODY_SQL`), run over each batch in a private in-memory database.

An FTS rowid must be one integer, so it packs the agent's place and the line: ``ordinal << 32 | line``.
Agents are numbered by their last update, so "newest first" lists the most recently active agents' records
first (a legacy store has no global record order). Legacy stores are history: when any history file
changed (size or modification time), the index is rebuilt rather than patched.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

from daycare_gui.stores.daycare.records import LEGACY_MARKERS
from daycare_gui.stores.daycare.sqlite.fts_index.build import BATCH, BODY_SQL, BuildResult
from daycare_gui.stores.daycare.sqlite.fts_index.index import INDEX_VERSION, SearchIndex, add_masking
from daycare_gui.stores.daycare.sqlite.fts_index.prune import STORE_META, prune_indexes

LINE_BITS = 32
LINE_MASK = (1 << LINE_BITS) - 1

_SCRATCH = """
CREATE TABLE session_history (id INTEGER PRIMARY KEY, session_id TEXT, type TEXT, at INTEGER, data TEXT);
CREATE TABLE sessions (id TEXT PRIMARY KEY, agent_id TEXT);
"""
_EXTRACT = (f"SELECT h.id, masked_body({BODY_SQL}), h.session_id, s.agent_id, h.type, h.at "
            "FROM session_history AS h LEFT JOIN sessions AS s ON s.id = h.session_id ORDER BY h.id")


def _ordered(inventory) -> list:
    """Legacy agents with a history, least recently updated first (rowids then grow with recency)."""
    agents = [a for a in inventory.items("legacy_agents") if a.history_path]
    return sorted(agents, key=lambda a: (a.updated_at or 0, a.id))


def fingerprint(inventory) -> list[list]:
    """(agent id, size, mtime ns) of every history file: any change means the index is rebuilt."""
    out = []
    for agent in _ordered(inventory):
        try:
            st = os.stat(agent.history_path)
            out.append([agent.id, st.st_size, st.st_mtime_ns])
        except OSError:
            out.append([agent.id, None, None])
    return out


def _records(agent, ordinal: int, paths):
    """(rowid, session id, type, at, data JSON) of every record of one agent, streamed."""
    from daycare_gui.stores.daycare.files.legacy_agents import iter_history

    sessions = [s for s in agent.sessions if s.first_line is not None]
    current = 0
    for line, obj in iter_history(agent.history_path, root=paths):
        kind = obj.get("type")
        if not isinstance(kind, str) or kind in LEGACY_MARKERS:
            continue
        while current < len(sessions) - 1 and line > sessions[current].last_line:
            current += 1
        if not sessions or not sessions[current].first_line <= line <= sessions[current].last_line:
            continue  # a record the session split did not keep (never the case for a well-formed file)
        at = obj.get("at") if isinstance(obj.get("at"), int) and not isinstance(obj.get("at"), bool) else None
        data = {k: v for k, v in obj.items() if k not in ("type", "at")}
        yield ((ordinal << LINE_BITS) | line, f"{agent.id}#{sessions[current].index + 1}", kind, at,
               json.dumps(data, ensure_ascii=False))


def update_legacy_index(inventory, paths, index: SearchIndex, *, progress: Callable[[int, int], None] | None = None,
                        cancel: Callable[[], bool] | None = None, batch: int = BATCH) -> BuildResult:
    """Index every legacy history record, unless the index already holds exactly these files."""
    started = time.perf_counter()
    prune_indexes(index.path.parent, keep=index.path)
    store = {STORE_META: str(paths.agents_dir.resolve())}  # the index's key is made from this folder
    agents = _ordered(inventory)
    if not agents:
        return BuildResult("no history", 0, 0, 0, 0.0)
    fp = fingerprint(inventory)
    st = index.state()
    if st.exists and st.version == INDEX_VERSION and [list(x) for x in st.fingerprint] == fp:
        return BuildResult("up to date", 0, st.rows, st.last_id, time.perf_counter() - started)
    reason = "the legacy history files changed" if st.exists else ""
    index.clear()
    if st.exists and st.version != INDEX_VERSION:
        index.scrub()
    total = sum(s.record_count for a in agents for s in a.sessions)
    if progress is not None:
        progress(0, total)
    scratch = sqlite3.connect(":memory:")
    scratch.executescript(_SCRATCH)
    add_masking(scratch)
    done, last_id, status = 0, 0, "rebuilt" if reason else "updated"
    try:
        for ordinal, agent in enumerate(agents, start=1):
            sessions = [(f"{agent.id}#{s.index + 1}", agent.id) for s in agent.sessions]
            scratch.executemany("INSERT OR REPLACE INTO sessions VALUES (?, ?)", sessions)
            pending: list[tuple] = []
            for record in _records(agent, ordinal, paths):
                pending.append(record)
                if len(pending) >= batch:
                    if cancel is not None and cancel():
                        status = "cancelled"
                        break
                    done, last_id = _flush(scratch, index, pending, done, last_id)
                    if progress is not None:
                        progress(done, max(total, done))
            if status == "cancelled":
                break
            if pending:
                done, last_id = _flush(scratch, index, pending, done, last_id)
                if progress is not None:
                    progress(done, max(total, done))
    finally:
        scratch.close()
    if status == "cancelled":
        index.clear()  # a half-built legacy index cannot be continued: the next run starts again
        return BuildResult("cancelled", 0, 0, 0, time.perf_counter() - started, reason)
    index.set_meta(version=INDEX_VERSION, last_id=last_id, rows=done, fingerprint=fp, **store)
    return BuildResult(status, done, done, last_id, time.perf_counter() - started, reason)


def _flush(scratch: sqlite3.Connection, index: SearchIndex, pending: list[tuple], done: int, last_id: int):
    if not pending:
        return done, last_id
    scratch.execute("DELETE FROM session_history")
    scratch.executemany("INSERT INTO session_history VALUES (?, ?, ?, ?, ?)", pending)
    rows = scratch.execute(_EXTRACT).fetchall()
    index.conn.execute("BEGIN IMMEDIATE")
    try:
        index.add(rows)
        index.conn.execute("COMMIT")
    except BaseException:
        index.conn.execute("ROLLBACK")
        raise
    count = len(pending)
    last = pending[-1][0]
    pending.clear()
    return done + count, last


@dataclass
class LegacySource:
    """What :func:`daycare_gui.stores.daycare.sqlite.fts_index.query.search` needs to know about a legacy store's agents."""

    agents: dict  # agent id → Agent record (core.queries.legacy_history.legacy_agents_as_records)

    @classmethod
    def from_inventory(cls, inventory) -> LegacySource:
        from daycare_gui.stores.daycare.sqlite.queries.legacy_history import legacy_agents_as_records

        return cls(legacy_agents_as_records(inventory)["agents"])

    def agent_ids(self, kinds: tuple[str, ...], lifecycles: tuple[str, ...], user_id: str | None) -> list[str]:
        if user_id:
            return []  # legacy agents belong to no user yet (the import creates the users)
        return [a.id for a in self.agents.values()
                if (not kinds or a.type in kinds) and (not lifecycles or a.lifecycle in lifecycles)]

    @staticmethod
    def record_id(rowid: int) -> int:
        """The record's line in its history file (what the window's legacy conversation uses as id)."""
        return rowid & LINE_MASK
