"""Searching the index: the user's query made safe for FTS5, filters in SQL, results grouped for display.

User text never reaches FTS5 as syntax: every word or "phrase" becomes a quoted FTS5 string, so
``"unterminated``, ``AND OR`` or a lone ``*`` cannot raise. What a person can use: words (all must match,
stemmed, accents ignored), ``"exact phrases"``, ``prefix*``, ``OR`` between two terms and ``-word`` to
exclude.

Filters run in SQL: record type and agent as FTS terms on the ``tags`` column, time range on the ``at``
column; agent kind, lifecycle and user select agent ids from the Daycare database (read-only) with one
query, and the index query takes them as tag terms (or, for very many agents, a JSON id list).
Results come back best match first (``ORDER BY rank`` with a LIMIT), or newest first. For a very common
word, ranking every match costs more than a person waits for, so relevance is computed among the newest
``RANK_WINDOW`` matches only, and the results say so. Both bound the query by a rowid range found first
(the newest N-th match): FTS5 applies it while matching, so snippets are built only inside it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from daycare_gui.stores.common.fts import Term, match_expression, parse_terms  # noqa: F401
from daycare_gui.stores.common.fts_search import GroupedResults, find_matches, tags_any, where_clause
from daycare_gui.stores.common.fts_search import group_hits as _group
from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.sqlite.fts_index.index import SearchIndex, agent_tag, type_tag
from daycare_gui.stores.daycare.sqlite.queries.agents import AgentFilter, fetch_agents

AGENT_TAGS_MAX = 300  # agent filters up to this many agents become FTS terms; more use an id list
RANK_WINDOW = 10_000  # matches ranked at most (the newest ones)
COUNT_CAP = 10_000  # matches counted at most ("10,000+")


# -- filters ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SearchFilter:
    kinds: tuple[str, ...] = ()  # agent kinds (agents.type)
    lifecycles: tuple[str, ...] = ()  # agents.lifecycle
    user_id: str | None = None  # agents.user_id
    agent_id: str | None = None
    record_types: tuple[str, ...] = ()  # session_history.type
    since: int | None = None  # ms, inclusive
    until: int | None = None  # ms, exclusive

    @property
    def needs_agents(self) -> bool:
        return bool(self.kinds or self.lifecycles or self.user_id)


def _agent_ids(db: ReadOnlyDatabase, flt: SearchFilter) -> list[str]:
    have = set(db.columns("agents"))
    if flt.user_id and "user_id" not in have:
        return []  # an older schema without owners: no agent belongs to the user asked for
    where, params = AgentFilter(flt.kinds, flt.lifecycles, flt.user_id).where()
    return [r[0] for r in db.rows(f"SELECT id FROM agents{where}", params)]


def _where(match: str, flt: SearchFilter, agent_ids: list[str] | None) -> tuple[str, list]:
    expr = f"body : ({match})"
    if flt.record_types:
        expr += " AND tags : " + tags_any([type_tag(t) for t in flt.record_types])
    if flt.agent_id:
        expr += " AND tags : " + tags_any([agent_tag(flt.agent_id)])
    if agent_ids is not None and len(agent_ids) <= AGENT_TAGS_MAX:
        expr += " AND tags : " + tags_any([agent_tag(a) for a in agent_ids])
        agent_ids = None
    parts, params = where_clause("records", expr, flt.since, flt.until)
    if agent_ids is not None:
        parts.append("agent_id IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(agent_ids))
    return " AND ".join(parts), params


# -- results --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hit:
    record_id: int
    session_id: str
    agent_id: str | None
    type: str
    at: int | None
    snippet: str  # matched terms between MARK_OPEN and MARK_CLOSE

    @property
    def target(self) -> tuple:
        """What ``navigate("history", …)`` takes to open the history at this record."""
        return (self.agent_id, self.session_id, self.record_id)


@dataclass
class SessionGroup:
    session_id: str
    hits: list[Hit] = field(default_factory=list)


@dataclass
class AgentGroup:
    agent_id: str | None
    name: str
    kind: str
    lifecycle: str
    sessions: list[SessionGroup] = field(default_factory=list)

    @property
    def hit_count(self) -> int:
        return sum(len(s.hits) for s in self.sessions)


@dataclass
class SearchResults(GroupedResults):
    """``groups``: :class:`AgentGroup` best first; ``hits``: :class:`Hit` best first."""

    group_noun = "agent"


def group_hits(hits: list[Hit], agents: dict) -> list[AgentGroup]:
    """Agent → session → hits, each level ordered by its best hit."""
    def new_group(hit: Hit) -> AgentGroup:
        agent = agents.get(hit.agent_id)
        return AgentGroup(hit.agent_id, agent.name if agent else (hit.agent_id or "(unknown agent)"),
                          agent.type if agent else "?", agent.lifecycle if agent else "?")

    return _group(hits, lambda h: h.agent_id, new_group, lambda h: h.session_id, lambda h: SessionGroup(h.session_id))


def search(index: SearchIndex, db: ReadOnlyDatabase | None, text: str, flt: SearchFilter = SearchFilter(),
           *, limit: int = 200, newest_first: bool = False, legacy=None) -> SearchResults:
    """Run one search. ``db`` (the Daycare database, read-only) is used for agent filters and names; for a
    legacy store ``legacy`` (:class:`daycare_gui.stores.daycare.sqlite.fts_index.legacy.LegacySource`) takes its place."""
    started = time.perf_counter()
    expr = match_expression(text)
    if expr is None:
        return SearchResults.empty(text, None)
    agent_ids = None
    if flt.needs_agents and legacy is not None:
        agent_ids = legacy.agent_ids(flt.kinds, flt.lifecycles, flt.user_id)
    elif flt.needs_agents and db is not None:
        agent_ids = _agent_ids(db, flt)
    if agent_ids is not None and not agent_ids:
        return SearchResults.empty(text, expr, started)
    where, params = _where(expr, flt, agent_ids)
    found = find_matches(index.conn, "records", "rowid, session_id, agent_id, type, at", where, params,
                         limit=limit, newest_first=newest_first, count_cap=COUNT_CAP, rank_window=RANK_WINDOW)
    record_id = legacy.record_id if legacy is not None else int
    hits = [Hit(record_id(int(r[0])), r[1], r[2], r[3], r[4], r[5] or "") for r in found.rows]
    ids = sorted({h.agent_id for h in hits if h.agent_id})
    if legacy is not None:
        agents = {i: legacy.agents[i] for i in ids if i in legacy.agents}
    else:
        agents = fetch_agents(db, ids) if (db is not None and ids) else {}
    return SearchResults.found(text, expr, group_hits(hits, agents), hits, found, started)
