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

from daycare_gui.stores.common.fts import match_expression
from daycare_gui.stores.common.fts_search import GroupedResults, find_matches, tags_any, where_clause
from daycare_gui.stores.common.fts_search import group_hits as _group
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
class SourceResults(GroupedResults):
    """``groups``: :class:`ThreadHits`; ``hits``: :class:`SourceHit` in the order asked for."""

    group_noun = "thread"


def _where(match: str, flt: SourceFilter) -> tuple[str, list]:
    expr = f"body : ({match})"
    if flt.roles:
        expr += " AND tags : " + tags_any([role_tag(r) for r in flt.roles])
    if flt.thread_id is not None:
        expr += " AND tags : " + tags_any([thread_tag(flt.thread_id)])
    parts, params = where_clause("messages", expr, flt.since, flt.until)
    return " AND ".join(parts), params


def group_hits(hits: list[SourceHit], titles: dict[str, str]) -> list[ThreadHits]:
    """Thread → session → hits, each level ordered by its best hit."""
    def new_thread(hit: SourceHit) -> ThreadHits:
        tid = hit.ref.thread_id
        return ThreadHits(tid, titles.get(tid) or tid or "(no thread)")

    return _group(hits, lambda h: h.ref.thread_id, new_thread, lambda h: h.ref, lambda h: SessionHits(h.ref))


def search_source(index: SourceIndex, text: str, flt: SourceFilter = SourceFilter(), *, limit: int = 200,
                  newest_first: bool = False, titles: dict[str, str] | None = None) -> SourceResults:
    """Run one search. ``titles`` (thread id → title) names the groups; ids stand in for missing ones."""
    started = time.perf_counter()
    expr = match_expression(text)
    if expr is None:
        return SourceResults.empty(text, None)
    where, params = _where(expr, flt)
    conn = index.conn
    found = find_matches(conn, "messages", "rowid, session, message_id, role, kind, at, position", where, params,
                         limit=max(1, int(limit)), newest_first=newest_first, count_cap=COUNT_CAP,
                         rank_window=RANK_WINDOW)
    rows = found.rows
    refs = _session_refs(conn, {r[1] for r in rows})
    hits = [SourceHit(refs.get(r[1], SessionRef("", "")), r[2], r[3] or "", r[4] or "", r[5], int(r[6] or 0),
                      r[7] or "", int(r[0])) for r in rows]
    return SourceResults.found(text, expr, group_hits(hits, titles or {}), hits, found, started)


def _session_refs(conn, ids: set) -> dict[int, SessionRef]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT id, thread_id, session_id FROM sessions WHERE id IN ({marks})", list(ids))
    return {r[0]: SessionRef(r[1], r[2]) for r in rows}
