"""Searching the shared index of a store kind's messages: the shared query language, filters in SQL,
hits best first (BM25, FTS5's ``rank``) or newest first, grouped thread → session for display.

Filters: roles and a thread as FTS terms on the ``tags`` column (posting lists intersect, no row is read
to reject it), a time range on the ``at`` column. As in Daycare's search, ranking every match of a very
common word costs more than a person waits for, so beyond ``COUNT_CAP`` matches relevance is computed
among the newest ``RANK_WINDOW`` only (a rowid floor FTS5 applies while matching), and the results say so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from daycare_gui.core.display import count
from daycare_gui.stores.common.fts import (
    MARK_CLOSE,
    MARK_OPEN,
    SNIPPET_TOKENS,
    match_expression,
    results_summary,
)
from daycare_gui.stores.common.search_index import SourceIndex, role_tag, thread_tag
from daycare_gui.stores.records import SessionRef

RANK_WINDOW = 10_000
COUNT_CAP = 10_000


@dataclass(frozen=True)
class SourceFilter:
    roles: tuple[str, ...] = ()  # any of these roles ("user", "assistant", "tool", …)
    thread_id: str | None = None
    since: int | None = None  # ms, inclusive
    until: int | None = None  # ms, exclusive


@dataclass(frozen=True)
class SourceHit:
    ref: SessionRef
    message_id: str
    role: str
    kind: str
    at: int | None
    position: int  # its place among the session's messages as indexed: a hint, the id is what counts
    snippet: str  # matched terms between MARK_OPEN and MARK_CLOSE
    seq: int  # order in the index (cursor order)


@dataclass
class SessionHits:
    ref: SessionRef
    hits: list[SourceHit] = field(default_factory=list)


@dataclass
class ThreadHits:
    thread_id: str
    title: str
    sessions: list[SessionHits] = field(default_factory=list)

    @property
    def hit_count(self) -> int:
        return sum(len(s.hits) for s in self.sessions)


@dataclass
class SourceResults:
    query: str
    expression: str | None
    groups: list[ThreadHits]
    hits: list[SourceHit]  # in the order asked for
    total: int  # matches, up to COUNT_CAP
    total_capped: bool
    ranked_within: int | None  # set when relevance was computed among the newest N matches only
    seconds: float

    @property
    def summary(self) -> str:
        return results_summary(self.expression, len(self.hits), self.total, self.total_capped, self.ranked_within,
                               f"in {count(len(self.groups), 'thread')}")


def _tags_any(tags: list[str]) -> str:
    return "(" + " OR ".join(f'"{t}"' for t in tags) + ")"


def _where(match: str, flt: SourceFilter) -> tuple[str, list]:
    expr = f"body : ({match})"
    if flt.roles:
        expr += " AND tags : " + _tags_any([role_tag(r) for r in flt.roles])
    if flt.thread_id is not None:
        expr += " AND tags : " + _tags_any([thread_tag(flt.thread_id)])
    parts, params = ["messages MATCH ?"], [expr]
    if flt.since is not None:
        parts.append("at >= ?")
        params.append(int(flt.since))
    if flt.until is not None:
        parts.append("at < ?")
        params.append(int(flt.until))
    return " AND ".join(parts), params


def group_hits(hits: list[SourceHit], titles: dict[str, str]) -> list[ThreadHits]:
    """Thread → session → hits, each level ordered by its best hit."""
    threads: dict[str, ThreadHits] = {}
    sessions: dict[SessionRef, SessionHits] = {}
    for hit in hits:
        thread = threads.get(hit.ref.thread_id)
        if thread is None:
            tid = hit.ref.thread_id
            thread = threads[tid] = ThreadHits(tid, titles.get(tid) or tid or "(no thread)")
        session = sessions.get(hit.ref)
        if session is None:
            session = sessions[hit.ref] = SessionHits(hit.ref)
            thread.sessions.append(session)
        session.hits.append(hit)
    return list(threads.values())


def search_source(index: SourceIndex, text: str, flt: SourceFilter = SourceFilter(), *, limit: int = 200,
                  newest_first: bool = False, titles: dict[str, str] | None = None) -> SourceResults:
    """Run one search. ``titles`` (thread id → title) names the groups; ids stand in for missing ones."""
    started = time.perf_counter()
    expr = match_expression(text)
    if expr is None:
        return SourceResults(text, None, [], [], 0, False, None, 0.0)
    where, params = _where(expr, flt)
    conn = index.conn
    total = conn.execute(f"SELECT count(*) FROM (SELECT 1 FROM messages WHERE {where} LIMIT {COUNT_CAP + 1})",
                         params).fetchone()[0]
    capped = total > COUNT_CAP
    total = min(total, COUNT_CAP)
    select = ("SELECT rowid, session, message_id, role, kind, at, position, "
              f"snippet(messages, 0, '{MARK_OPEN}', '{MARK_CLOSE}', '…', {SNIPPET_TOKENS}) FROM messages ")
    limit = max(1, int(limit))
    ranked_within = None
    if newest_first or capped:
        depth = limit if newest_first else RANK_WINDOW
        cutoff = conn.execute(f"SELECT rowid FROM messages WHERE {where} ORDER BY rowid DESC LIMIT 1 OFFSET ?",
                              [*params, depth - 1]).fetchone()
        floor = cutoff[0] if cutoff else 0
        ranked_within = None if (newest_first or not cutoff) else RANK_WINDOW
        order_by = "rowid DESC" if newest_first else "rank"
        sql, args = f"{select} WHERE {where} AND rowid >= ? ORDER BY {order_by} LIMIT ?", [*params, floor, limit]
    else:
        sql, args = f"{select} WHERE {where} ORDER BY rank LIMIT ?", [*params, limit]
    rows = conn.execute(sql, args).fetchall()
    refs = _session_refs(conn, {r[1] for r in rows})
    hits = [SourceHit(refs.get(r[1], SessionRef("", "")), r[2], r[3] or "", r[4] or "", r[5], int(r[6] or 0),
                      r[7] or "", int(r[0])) for r in rows]
    return SourceResults(text, expr, group_hits(hits, titles or {}), hits, total, capped, ranked_within,
                         time.perf_counter() - started)


def _session_refs(conn, ids: set) -> dict[int, SessionRef]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT id, thread_id, session_id FROM sessions WHERE id IN ({marks})", list(ids))
    return {r[0]: SessionRef(r[1], r[2]) for r in rows}
