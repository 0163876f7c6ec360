"""Daycare's search results tree: agent → session → matching record.

The model adapts a :class:`~daycare_gui.core.search.query.SearchResults` (the tree itself is
:class:`~daycare_gui.ui.models.search_results.GroupedResultsModel`, shared with every other kind's Search
page); snippets are drawn by :mod:`daycare_gui.ui.widgets.snippet`, which escapes everything and only
then turns the index's match markers into ``<b>``, so text from a history can never become markup.
"""

from __future__ import annotations

from daycare_gui.core.search.query import AgentGroup, Hit, SessionGroup
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.search_results import GroupedResultsModel
from daycare_gui.ui.widgets.snippet import SnippetDelegate, snippet_html, snippet_plain  # noqa: F401

HEADERS = ("Match", "Type", "When")


def result_key(item) -> tuple | None:
    """What identifies a row across two searches (the objects themselves are new each time)."""
    if isinstance(item, Hit):
        return ("hit", item.session_id, item.record_id)
    if isinstance(item, SessionGroup):
        return ("session", item.session_id)
    if isinstance(item, AgentGroup):
        return ("agent", item.agent_id)
    return None


class SearchResultsModel(GroupedResultsModel):
    HEADERS = HEADERS
    hit_type = Hit
    result_key = staticmethod(result_key)

    @staticmethod
    def key(item):
        if isinstance(item, AgentGroup):
            return item.agent_id
        if isinstance(item, SessionGroup):
            return item.session_id
        return item.record_id

    @staticmethod
    def sort_value(hit: Hit, col: int):
        return hit.at if col == 2 else hit.record_id

    @staticmethod
    def text(item, col: int, tooltip: bool) -> str | None:
        if isinstance(item, AgentGroup):
            if col == 0:
                label = f"{item.name} — {count(item.hit_count, 'match')} in {count(len(item.sessions), 'session')}"
                return f"{label}\n{item.agent_id}" if tooltip else label
            return f"{item.kind} · {item.lifecycle}" if col == 1 else None
        if isinstance(item, SessionGroup):
            if col == 0:
                return f"Session {item.session_id} — {count(len(item.hits), 'match')}"
            return None
        if col == 0:
            return snippet_plain(item.snippet)
        if col == 1:
            return item.type
        return fmt_time(item.at)
