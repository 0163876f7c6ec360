"""Searching the shared index of a store kind's messages: the shared query language, filters in SQL,
hits best first (BM25, FTS5's ``rank``) or newest first, grouped thread → session for display.

Filters: roles, a thread and the source's tagged facets (Daycare's record type) as FTS terms on the
``tags`` column (posting lists intersect, no row is read to reject it), a time range on the ``at`` column;
a facet of threads (an agent's kind, lifecycle, user: ``SearchSource.facet_threads``) is asked of the store
when searching and becomes thread terms, or an id list for very many threads. Documents (skills, memory,
prompt files, settings keys) are searched beside the messages with the same words and come back apart. As in Daycare's search, ranking every match of a very
common word costs more than a person waits for, so beyond ``COUNT_CAP`` matches relevance is computed
among the newest ``RANK_WINDOW`` only (a rowid floor FTS5 applies while matching), and the results say so.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace

from daycare_gui.stores.common.fts import MARK_CLOSE, MARK_OPEN, SNIPPET_TOKENS, match_expression
from daycare_gui.stores.common.fts_search import GroupedResults, find_matches, tags_any, where_clause
from daycare_gui.stores.common.fts_search import group_hits as _group
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.common.search_tags import facet_tag, role_tag, tag_tokens, thread_tag
from daycare_gui.stores.records import SessionRef

RANK_WINDOW = 10_000
COUNT_CAP = 10_000
THREAD_TAGS_MAX = 300  # threads a facet narrows to that become FTS terms; more use an id list
DOCUMENT_LIMIT = 50


@dataclass(frozen=True)
class SourceFilter:
    roles: tuple[str, ...] = ()  # any of these roles ("user", "assistant", "tool", …)
    thread_id: str | None = None
    since: int | None = None  # ms, inclusive
    until: int | None = None  # ms, exclusive
    choices: tuple[tuple[str, str], ...] = ()  # (facet name, value) of SearchSource.facets()


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


@dataclass(frozen=True)
class DocumentHit:
    key: str  # what the store's quick open and Documents section know it by
    title: str
    group: str
    where: str
    at: int | None
    snippet: str


@dataclass
class DocumentGroup:
    """The documents that matched, as one group of the results tree (one "session" per document group)."""

    title: str = "Documents"
    sessions: list[DocumentSection] = field(default_factory=list)

    @property
    def hit_count(self) -> int:
        return sum(len(s.hits) for s in self.sessions)


@dataclass
class DocumentSection:
    group: str
    hits: list[DocumentHit] = field(default_factory=list)


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
    documents: list[DocumentHit] = field(default_factory=list)  # best first, apart from the message hits

    @property
    def summary(self) -> str:
        if not self.documents:
            return super().summary
        n = len(self.documents)
        documents = f"{n} document{'s' if n != 1 else ''}"
        if not self.hits:
            return f"{documents} match; no message does." if n > 1 else f"{documents} matches; no message does."
        return f"{super().summary} · {documents}"


def _where(conn, match: str, flt: SourceFilter, threads: frozenset[str] | None = None) -> tuple[str, list]:
    def any_of(tags: list[str]) -> str:  # (as the index on ``conn`` writes them: search_tags)
        return tags_any(tag_tokens(conn, tags))

    expr = f"body : ({match})"
    if flt.roles:
        expr += " AND tags : " + any_of([role_tag(r) for r in flt.roles])
    if flt.thread_id is not None:
        expr += " AND tags : " + any_of([thread_tag(flt.thread_id)])
    by_name: dict[str, list[str]] = {}
    for name, value in flt.choices:  # values of one facet: any of them; facets: all of them
        by_name.setdefault(name, []).append(facet_tag(name, value))
    for tags in by_name.values():
        expr += " AND tags : " + any_of(tags)
    if threads is not None and len(threads) <= THREAD_TAGS_MAX:
        expr += " AND tags : " + any_of([thread_tag(t) for t in sorted(threads)])
        threads = None
    parts, params = where_clause("messages", expr, flt.since, flt.until)
    if threads is not None:
        parts.append("session IN (SELECT id FROM sessions WHERE thread_id IN (SELECT value FROM json_each(?)))")
        params.append(json.dumps(sorted(threads)))
    return " AND ".join(parts), params


def split_choices(source, flt: SourceFilter) -> tuple[SourceFilter, frozenset[str] | None]:
    """The filter with only tagged facets left, and the threads the thread facets narrow to (None: no
    thread facet chosen). Asks the store (``facet_threads``): call it on a worker."""
    tagged, by_name = [], {}
    for name, value in flt.choices:  # values of one facet: any of them; facets: all of them
        found = source.facet_threads(name, value) if source is not None else None
        if found is None:
            tagged.append((name, value))
        else:
            by_name[name] = by_name.get(name, frozenset()) | frozenset(found)
    threads = None
    for found in by_name.values():
        threads = found if threads is None else threads & found
    return replace(flt, choices=tuple(tagged)), threads


def group_hits(hits: list[SourceHit], titles: dict[str, str]) -> list[ThreadHits]:
    """Thread → session → hits, each level ordered by its best hit."""
    def new_thread(hit: SourceHit) -> ThreadHits:
        tid = hit.ref.thread_id
        return ThreadHits(tid, titles.get(tid) or tid or "(no thread)")

    return _group(hits, lambda h: h.ref.thread_id, new_thread, lambda h: h.ref, lambda h: SessionHits(h.ref))


def search_source(index: SourceIndex, text: str, flt: SourceFilter = SourceFilter(), *, limit: int = 200,
                  newest_first: bool = False, titles: dict[str, str] | None = None, source=None,
                  documents: bool = True) -> SourceResults:
    """Run one search. ``titles`` (thread id → title) names the groups; ids stand in for missing ones.
    ``source`` answers the thread facets among ``flt.choices`` (the store is asked: call on a worker).
    Documents are searched too unless ``documents`` is False or a filter only messages have is set."""
    started = time.perf_counter()
    expr = match_expression(text)
    if expr is None:
        return SourceResults.empty(text, None)
    flt, threads = split_choices(source, flt)
    docs = (search_documents(index, expr) if documents and not (flt.roles or flt.thread_id or flt.choices
                                                                 or threads is not None) else [])
    if threads is not None and not threads:
        found = SourceResults.empty(text, expr, started)
        found.documents = docs
        return found
    conn = index.conn
    where, params = _where(conn, expr, flt, threads)
    found = find_matches(conn, "messages", "rowid, session, message_id, role, kind, at, position", where, params,
                         limit=max(1, int(limit)), newest_first=newest_first, count_cap=COUNT_CAP,
                         rank_window=RANK_WINDOW)
    rows = found.rows
    refs = _session_refs(conn, {r[1] for r in rows})
    hits = [SourceHit(refs.get(r[1], SessionRef("", "")), r[2], r[3] or "", r[4] or "", r[5], int(r[6] or 0),
                      r[7] or "", int(r[0])) for r in rows]
    results = SourceResults.found(text, expr, group_hits(hits, titles or {}), hits, found, started)
    results.documents = docs
    return results


def search_documents(index: SourceIndex, expression: str, limit: int = DOCUMENT_LIMIT) -> list[DocumentHit]:
    """The documents matching ``expression`` (a MATCH expression, in their text or title), best first."""
    rows = index.conn.execute(
        f"SELECT doc_key, title, doc_group, place, at, snippet(documents, 0, '{MARK_OPEN}', '{MARK_CLOSE}', "
        f"'…', {SNIPPET_TOKENS}) FROM documents WHERE documents MATCH ? ORDER BY rank LIMIT ?",
        [f"{{body title}} : ({expression})", int(limit)]).fetchall()
    return [DocumentHit(k, t or k, g or "", w or "", at, snip or "") for k, t, g, w, at, snip in rows]


def document_groups(hits: list[DocumentHit]) -> DocumentGroup | None:
    """The document hits as one group of the results tree, a section per document group, best first."""
    if not hits:
        return None
    group = DocumentGroup()
    sections: dict[str, DocumentSection] = {}
    for hit in hits:
        section = sections.get(hit.group)
        if section is None:
            section = sections[hit.group] = DocumentSection(hit.group or "Documents")
            group.sessions.append(section)
        section.hits.append(hit)
    return group


def _session_refs(conn, ids: set) -> dict[int, SessionRef]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT id, thread_id, session_id FROM sessions WHERE id IN ({marks})", list(ids))
    return {r[0]: SessionRef(r[1], r[2]) for r in rows}
