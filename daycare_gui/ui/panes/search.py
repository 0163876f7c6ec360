"""Search Histories (Ctrl+Shift+F): full-text search across every session, grouped by agent and session.

The FTS5 index lives in the user's cache directory (see :mod:`daycare_gui.core.search.index`). This pane
brings it up to date when it opens — on a DbWorker of its own, so searching and the other panes stay
responsive while a large store is indexed — with a progress bar and Cancel. Searches run on the window's
worker; a search while indexing sees what is indexed so far. Enter (or double-click) on a match opens the
history at that record.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from daycare_gui.core.queries.agents import distinct_values
from daycare_gui.core.queries.names import user_names
from daycare_gui.core.records import DESCRIPTOR_KINDS, HISTORY_KINDS
from daycare_gui.core.search.build import update_index
from daycare_gui.core.search.index import SearchIndex, index_path
from daycare_gui.core.search.query import AgentGroup, Hit, SearchFilter, SessionGroup, search
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.panes.search_page import RESULT_LIMIT, SearchPage, combo, time_range_box
from daycare_gui.ui.panes.search_results import SearchResultsModel, snippet_plain


class SearchPane(SearchPage):
    placeholder = 'Search every session: words, "a phrase", prefix*, OR, -exclude'
    hint = "Type to search; Enter on a match opens the history at that record."
    build_tooltip = ("Index records added since the last update (the index is kept in your "
                     "cache folder; the Daycare data directory is never written)")
    progress_width = 260
    results_model = SearchResultsModel

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        db = ctx.store.db
        self._index_file = index_path(ctx.store.paths.db_path) if db is not None else None
        self.setTabOrder(self.tree, self.build_button)

    def _make_filters(self):
        self.kind_box = combo("All agent kinds", DESCRIPTOR_KINDS)
        self.lifecycle_box = combo("Any lifecycle", ("active", "sleeping", "dead"))
        self.user_box = combo("All users", ())
        self.type_box = combo("All record types", HISTORY_KINDS)
        self.time_box = time_range_box()
        return [], [self.kind_box, self.lifecycle_box, self.user_box, self.type_box, self.time_box]

    # -- loading and indexing ----------------------------------------------------------------------
    def load(self) -> None:
        db = self.ctx.store.db
        if db is None:
            self.index_label.setText("This store has no database, so there is no session history to search.")
            for w in (self.query_box, self.build_button, self.tree):
                w.setEnabled(False)
            return
        store = self.ctx.store
        self.ctx.worker.submit("search-users", lambda: (distinct_values(db, "user_id"), user_names(store)),
                               on_result=self._users_arrived)
        self.start_build()

    def _users_arrived(self, answer) -> None:
        users, names = answer
        self.user_box.blockSignals(True)
        for u in users:
            self.user_box.addItem(names.get(u, u), u)  # the user's name; the filter uses the id
            self.user_box.setItemData(self.user_box.count() - 1, u, Qt.ItemDataRole.ToolTipRole)
        self.user_box.blockSignals(False)

    def _build_work(self, rebuild: bool):
        db, path = self.ctx.store.db, self._index_file
        if db is None:
            return None

        def work(progress, cancelled):
            with SearchIndex(path) as index:
                return update_index(db, index, progress=lambda done, total: progress(done, total, ""),
                                    cancel=cancelled)

        return work

    def _build_progress(self, done: int, total: int, _message: str) -> None:
        if total <= 0:
            return
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.index_label.setText(f"Indexing session histories: {done:,} of {total:,} new records… "
                                 "(searches see what is indexed so far)")
        if done and done % 50_000 < 5_000 and self.query_box.text().strip():
            self.run_search()

    def _built(self, result) -> None:
        self._set_building(False)
        if result.status == "no history":
            self.index_label.setText("Search index: this store has no session history.")
            return
        self._show_built(result, str(self._index_file))

    # -- searching -----------------------------------------------------------------------------------
    def current_filter(self) -> SearchFilter:
        span = self.time_box.currentData()
        since = int(time.time() * 1000) - span if span else None
        pick = lambda box: (box.currentData(),) if box.currentData() else ()  # noqa: E731
        return SearchFilter(kinds=pick(self.kind_box), lifecycles=pick(self.lifecycle_box),
                            user_id=self.user_box.currentData(), record_types=pick(self.type_box), since=since)

    def _searchable(self) -> bool:
        return self.ctx.store.db is not None

    def _search_work(self, text: str):
        db, path = self.ctx.store.db, self._index_file
        flt, newest = self.current_filter(), bool(self.order_box.currentData())

        def work():
            with SearchIndex(path) as index:
                return search(index, db, text, flt, limit=RESULT_LIMIT, newest_first=newest)

        return work

    # -- opening -------------------------------------------------------------------------------------
    def _activate(self, index) -> None:
        item = self.model.item(index)
        if isinstance(item, Hit):
            self.ctx.navigate("history", item.target)
        elif isinstance(item, SessionGroup):
            agent = self.model.item(index.parent())
            self.ctx.navigate("history", (agent.agent_id if agent else None, item.session_id, None))
        elif isinstance(item, AgentGroup) and item.agent_id:
            self.ctx.navigate("agents", item.agent_id)

    def _current_changed(self, current, _previous) -> None:
        item = self.model.item(current)
        if isinstance(item, Hit):
            agent = self.model.item(current.parent().parent())
            fields = (("Agent", f"{agent.name} ({item.agent_id})" if agent else str(item.agent_id)),
                      ("Session", item.session_id), ("Record id", str(item.record_id)), ("Type", item.type),
                      ("Time", fmt_time(item.at)), ("Match", snippet_plain(item.snippet)))
            self.ctx.show_detail(DetailItem(f"Match in record id {item.record_id}", fields,
                                            {"record_id": item.record_id, "session_id": item.session_id,
                                             "agent_id": item.agent_id, "type": item.type, "at": item.at}))
