"""The shared search's results as a tree: thread → session → matching message. It runs no query."""

from __future__ import annotations

from daycare_gui.stores.common.search_query import SessionHits, SourceHit, ThreadHits
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.search_results import GroupedResultsModel
from daycare_gui.ui.panes.generic.common import plural
from daycare_gui.ui.widgets.snippet import snippet_plain

HEADERS = ("Match", "Role", "When")


def result_key(item) -> tuple | None:
    """What identifies a row across two searches (the objects themselves are new each time)."""
    if isinstance(item, SourceHit):
        return ("hit", item.ref, item.message_id)
    if isinstance(item, SessionHits):
        return ("session", item.ref)
    if isinstance(item, ThreadHits):
        return ("thread", item.thread_id)
    return None


class SourceResultsModel(GroupedResultsModel):
    HEADERS = HEADERS
    hit_type = SourceHit
    result_key = staticmethod(result_key)

    @staticmethod
    def sort_value(hit: SourceHit, col: int):
        return hit.at if col == 2 else hit.seq

    @staticmethod
    def text(item, col: int, tooltip: bool) -> str | None:
        if isinstance(item, ThreadHits):
            if col != 0:
                return None
            label = (f"{item.title} — {plural(item.hit_count, 'match', 'matches')} in "
                     f"{plural(len(item.sessions), 'session')}")
            return f"{label}\n{item.thread_id}" if tooltip else label
        if isinstance(item, SessionHits):
            return f"Session {item.ref.session_id} — {plural(len(item.hits), 'match', 'matches')}" if col == 0 else None
        if col == 0:
            return snippet_plain(item.snippet)
        if col == 1:
            return item.role + (f" · {item.kind}" if item.kind and item.kind != item.role else "")
        return fmt_time(item.at) if item.at is not None else ""
