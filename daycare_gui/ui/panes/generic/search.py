"""Search for any store kind that offers ``SearchSource`` (Ctrl+Shift+F): the shared full-text index.

The index lives in the user's cache folder (:mod:`daycare_gui.stores.common.search_index`); the store is
never written. It is brought up to date when the pane opens, on a worker of its own so browsing and
searching stay responsive, with progress and Cancel; a search while indexing sees what is indexed so far.
Enter (or a double-click) on a match opens the conversation at that message.
"""

from __future__ import annotations

import time

from daycare_gui.stores import api
from daycare_gui.stores.common.search_index import SourceIndex, index_file, update_source_index
from daycare_gui.stores.common.search_query import (
    SessionHits,
    SourceFilter,
    SourceHit,
    ThreadHits,
    search_source,
)
from daycare_gui.stores.records import ROLES
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.panes.generic.common import when
from daycare_gui.ui.panes.generic.conversations import MessageTarget
from daycare_gui.ui.panes.generic.search_results import SourceResultsModel
from daycare_gui.ui.panes.search_page import RESULT_LIMIT, SearchPage, combo, time_range_box
from daycare_gui.ui.widgets.snippet import snippet_plain

HINT = "Type to search; Enter on a match opens the conversation at that message."


def _index_for(source: api.SearchSource) -> SourceIndex:
    return SourceIndex(index_file(source.identity()))


def _titles(conversations) -> dict[str, str]:
    return {t.id: t.title for t in conversations.threads()} if conversations is not None else {}


class SourceSearchPane(SearchPage):
    placeholder = 'Search every conversation: words, "a phrase", prefix*, OR, -exclude'
    hint = HINT
    build_tooltip = ("Index messages added since the last update (the index is kept in your "
                     "cache folder; the store is never written)")
    offers_rebuild = True
    second_column_width = 130
    index_unit = "messages"
    rebuilt_verb = "rebuilt with"
    search_channel = "source-search"
    indexer_name = "source-search-indexer"
    results_model = SourceResultsModel

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.source: api.SearchSource = ctx.opened.capability(api.SearchSource)
        self.conversations = ctx.opened.capability(api.Conversations)
        self._titles: dict[str, str] = {}
        self.last_build = None

    def _make_filters(self):
        self.role_box = combo("Any role", ROLES)
        self.time_box = time_range_box()
        return [self.role_box, self.time_box], []

    # -- indexing ----------------------------------------------------------------------------------
    def load(self) -> None:
        conversations = self.conversations
        self.ctx.worker.submit("source-search-titles", lambda: _titles(conversations),
                               on_result=self._titles_arrived, on_error=lambda _m: None)
        self.start_build()

    def _titles_arrived(self, titles: dict[str, str]) -> None:
        self._titles = titles
        if self.query_box.text().strip():
            self.run_search()

    def _build_work(self, rebuild: bool):
        source = self.source

        def work(progress, cancelled):
            with _index_for(source) as index:
                result = update_source_index(source, index, progress=lambda d, t: progress(d, t, ""),
                                             cancel=cancelled, rebuild=rebuild)
                return result, str(index.path), index.state().roles

        return work

    def _offer_roles(self, roles) -> None:
        """The role filter lists the common roles and any other this store's messages have."""
        known = {self.role_box.itemData(i) for i in range(self.role_box.count())}
        for role in roles:
            if role and role not in known:
                self.role_box.addItem(role, role)

    def _build_progress(self, done: int, _total: int, _message: str) -> None:
        if done:
            self.index_label.setText(f"Indexing messages: {done:,} so far… (searches see what is indexed)")

    def _built(self, answer) -> None:
        result, path, roles = answer
        self.last_build = result
        self._offer_roles(roles)
        self._set_building(False)
        self._show_built(result, path)

    # -- searching -----------------------------------------------------------------------------------
    def current_filter(self) -> SourceFilter:
        span = self.time_box.currentData()
        role = self.role_box.currentData()
        since = int(time.time() * 1000) - span if span else None
        return SourceFilter(roles=(role,) if role else (), since=since)

    def _search_work(self, text: str):
        source, flt, titles = self.source, self.current_filter(), dict(self._titles)
        newest = bool(self.order_box.currentData())

        def work():
            with _index_for(source) as index:
                return search_source(index, text, flt, limit=RESULT_LIMIT, newest_first=newest, titles=titles)

        return work

    # -- opening -------------------------------------------------------------------------------------
    def _activate(self, index) -> None:
        if self.conversations is None:
            return
        item = self.model.item(index)
        if isinstance(item, SourceHit):
            self.ctx.navigate("conversations", MessageTarget(item.ref, item.message_id, item.position))
        elif isinstance(item, SessionHits):
            self.ctx.navigate("conversations", item.ref)
        elif isinstance(item, ThreadHits):
            self.ctx.navigate("conversations", item.thread_id)

    def _current_changed(self, current, _previous) -> None:
        item = self.model.item(current)
        if isinstance(item, SourceHit):
            thread = self._titles.get(item.ref.thread_id, item.ref.thread_id)
            fields = tuple((k, v) for k, v in (
                ("Thread", thread), ("Session", item.ref.session_id), ("Message", item.message_id),
                ("Role", item.role), ("Kind", item.kind), ("Time", when(item.at)),
                ("Match", snippet_plain(item.snippet))) if v)
            self.ctx.show_detail(DetailItem(f"Match in message {item.message_id}", fields,
                                            {"thread_id": item.ref.thread_id, "session_id": item.ref.session_id,
                                             "message_id": item.message_id, "role": item.role, "at": item.at}))
