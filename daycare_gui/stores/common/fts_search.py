"""Running a search over an FTS5 index, as the shared search every kind feeds
(:mod:`daycare_gui.stores.common.search_query`) does.

The MATCH expression (:func:`~daycare_gui.stores.common.fts.match_expression`) gets filter terms on the
``tags`` column and a time range on ``at``; the matches are counted up to a cap, then read best first (BM25,
FTS5's ``rank``) or newest first. Ranking every match of a very common word costs more than a person
waits for, so beyond the cap relevance is computed among the newest ``rank_window`` matches only: the rowid
of the newest N-th match bounds a rowid range FTS5 applies while matching, so snippets are built only
inside it. Hits are grouped two levels deep (agent or thread → session) for display.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from daycare_gui.stores.common.fts import MARK_CLOSE, MARK_OPEN, SNIPPET_TOKENS, results_summary
from daycare_gui.stores.common.wording import count


def tags_any(tags: list[str]) -> str:
    """An FTS5 term matching any of ``tags`` (tags are made by the index, never by the user)."""
    return "(" + " OR ".join(f'"{t}"' for t in tags) + ")"


def where_clause(table: str, expression: str, since: int | None, until: int | None) -> tuple[list[str], list]:
    """The conditions (to be joined with AND) and their parameters for a MATCH and a time range."""
    parts, params = [f"{table} MATCH ?"], [expression]
    if since is not None:
        parts.append("at >= ?")
        params.append(int(since))
    if until is not None:
        parts.append("at < ?")
        params.append(int(until))
    return parts, params


@dataclass(frozen=True)
class Matches:
    rows: list  # the selected columns, then the snippet
    total: int  # matches, up to the cap
    capped: bool  # more than the cap matched
    ranked_within: int | None  # set when relevance was computed among the newest N matches only


def find_matches(conn, table: str, columns: str, where: str, params: list, *, limit: int, newest_first: bool,
                 count_cap: int, rank_window: int) -> Matches:
    """Count the matches of ``where`` (up to ``count_cap``) and read ``limit`` of them: ``columns`` and
    a snippet with the matched terms between ``MARK_OPEN`` and ``MARK_CLOSE``."""
    total = conn.execute(f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {where} LIMIT {count_cap + 1})",
                         params).fetchone()[0]
    capped = total > count_cap
    total = min(total, count_cap)
    select = (f"SELECT {columns}, "
              f"snippet({table}, 0, '{MARK_OPEN}', '{MARK_CLOSE}', '…', {SNIPPET_TOKENS}) FROM {table} ")
    ranked_within = None
    if newest_first or capped:
        # The rowid of the newest `limit`-th (or `rank_window`-th) match bounds a rowid range FTS5 applies
        # while matching; the query with snippets then touches only that range.
        depth = limit if newest_first else rank_window
        cutoff = conn.execute(f"SELECT rowid FROM {table} WHERE {where} ORDER BY rowid DESC LIMIT 1 OFFSET ?",
                              [*params, depth - 1]).fetchone()
        floor = cutoff[0] if cutoff else 0
        ranked_within = None if (newest_first or not cutoff) else rank_window
        order_by = "rowid DESC" if newest_first else "rank"
        sql, args = f"{select} WHERE {where} AND rowid >= ? ORDER BY {order_by} LIMIT ?", [*params, floor, limit]
    else:
        sql, args = f"{select} WHERE {where} ORDER BY rank LIMIT ?", [*params, limit]
    return Matches(conn.execute(sql, args).fetchall(), total, capped, ranked_within)


def group_hits(hits: Sequence, group_key: Callable[[object], Hashable], new_group: Callable,
               session_key: Callable[[object], Hashable], new_session: Callable) -> list:
    """Group → session → hits, each level ordered by its best hit. ``new_group(hit)`` and
    ``new_session(hit)`` make a level's container (with a ``sessions`` or ``hits`` list) for its first hit."""
    groups: dict = {}
    sessions: dict = {}
    for hit in hits:
        key = group_key(hit)
        group = groups.get(key)
        if group is None:
            group = groups[key] = new_group(hit)
        key = session_key(hit)
        session = sessions.get(key)
        if session is None:
            session = sessions[key] = new_session(hit)
            group.sessions.append(session)
        session.hits.append(hit)
    return list(groups.values())


@dataclass
class GroupedResults:
    """One search's answer; a subclass names what its groups are (``group_noun``)."""

    query: str
    expression: str | None
    groups: list  # best first, each with its sessions, each with its hits
    hits: list  # in the order asked for
    total: int  # matches, up to the count cap
    total_capped: bool  # more than the cap matched
    ranked_within: int | None  # set when relevance was computed among the newest N matches only
    seconds: float

    group_noun: ClassVar[str] = "group"

    @classmethod
    def empty(cls, query: str, expression: str | None, started: float | None = None):
        """No hits: nothing to search for (``expression`` None) or nothing can match."""
        seconds = time.perf_counter() - started if started is not None else 0.0
        return cls(query, expression, [], [], 0, False, None, seconds)

    @classmethod
    def found(cls, query: str, expression: str, groups: list, hits: list, matches: Matches, started: float):
        return cls(query, expression, groups, hits, matches.total, matches.capped, matches.ranked_within,
                   time.perf_counter() - started)

    @property
    def summary(self) -> str:
        return results_summary(self.expression, len(self.hits), self.total, self.total_capped, self.ranked_within,
                               f"in {count(len(self.groups), self.group_noun)}")
