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
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeView,
    QVBoxLayout,
)

from daycare_gui.core.queries.agents import distinct_values
from daycare_gui.core.queries.names import user_names
from daycare_gui.core.records import DESCRIPTOR_KINDS, HISTORY_KINDS
from daycare_gui.core.search.build import update_index
from daycare_gui.core.search.index import SearchIndex, index_path
from daycare_gui.core.search.query import AgentGroup, Hit, SearchFilter, SessionGroup, search
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.search_results import SearchResultsModel, SnippetDelegate, result_key, snippet_plain
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.worker import DbWorker

DAY_MS = 86_400_000
TIME_RANGES = (("Any time", None), ("Last day", DAY_MS), ("Last week", 7 * DAY_MS),
               ("Last month", 30 * DAY_MS), ("Last year", 365 * DAY_MS))
RESULT_LIMIT = 200


def _combo(first: str, values) -> QComboBox:
    box = QComboBox()
    box.addItem(first, None)
    for v in values:
        box.addItem(v, v)
    return box


class SearchPane(Pane):
    pane_id = "search"
    title = "Search"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        db = ctx.store.db
        self._index_file = index_path(ctx.store.paths.db_path) if db is not None else None
        self._indexer = DbWorker("search-indexer", self)  # builds never queue behind searches
        self._building = False

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.query_box = FilterBox('Search every session: words, "a phrase", prefix*, OR, -exclude', delay_ms=400)
        self.query_box.setObjectName("searchQuery")
        self.order_box = QComboBox()
        self.order_box.addItem("Best match", False)
        self.order_box.addItem("Newest first", True)
        top.addWidget(self.query_box, 1)
        top.addWidget(self.order_box)
        layout.addLayout(top)

        filters = QHBoxLayout()
        self.kind_box = _combo("All agent kinds", DESCRIPTOR_KINDS)
        self.lifecycle_box = _combo("Any lifecycle", ("active", "sleeping", "dead"))
        self.user_box = _combo("All users", ())
        self.type_box = _combo("All record types", HISTORY_KINDS)
        self.time_box = QComboBox()
        for label, span in TIME_RANGES:
            self.time_box.addItem(label, span)
        for w in (self.kind_box, self.lifecycle_box, self.user_box, self.type_box, self.time_box):
            filters.addWidget(w)
        filters.addStretch(1)
        layout.addLayout(filters)

        status = QHBoxLayout()
        self.index_label = QLabel("Search index: checking…")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(260)
        self.progress.hide()
        self.build_button = QPushButton("Update index")
        self.build_button.setToolTip("Index records added since the last update (the index is kept in your "
                                     "cache folder; the Daycare data directory is never written)")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        status.addWidget(self.index_label, 1)
        status.addWidget(self.progress)
        status.addWidget(self.build_button)
        status.addWidget(self.cancel_button)
        layout.addLayout(status)

        self.model = SearchResultsModel(self)
        self.tree = QTreeView()
        self.tree.setObjectName("searchResults")
        self.tree.setModel(self.model)
        self.tree.setItemDelegate(SnippetDelegate(self.tree))
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tree.setColumnWidth(1, 150)
        self.tree.setColumnWidth(2, 150)
        self.tree.activated.connect(self._activate)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        layout.addWidget(self.tree, 1)
        self.summary = QLabel("Type to search; Enter on a match opens the history at that record.")
        layout.addWidget(self.summary)

        self.query_box.changed.connect(lambda _t: self.run_search())
        self.query_box.returnPressed.connect(self._search_and_focus)
        for combo in (self.order_box, self.kind_box, self.lifecycle_box, self.user_box, self.type_box,
                      self.time_box):
            combo.currentIndexChanged.connect(lambda _i: self.run_search())
        self.build_button.clicked.connect(self.start_build)
        self.cancel_button.clicked.connect(self.cancel_build)
        self.setTabOrder(self.query_box, self.order_box)
        self.setTabOrder(self.order_box, self.kind_box)
        self.setTabOrder(self.kind_box, self.lifecycle_box)
        self.setTabOrder(self.lifecycle_box, self.user_box)
        self.setTabOrder(self.user_box, self.type_box)
        self.setTabOrder(self.type_box, self.time_box)
        self.setTabOrder(self.time_box, self.tree)
        self.setTabOrder(self.tree, self.build_button)
        self.last_results = None
        self._focus_results = False

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

    def start_build(self) -> None:
        db, path = self.ctx.store.db, self._index_file
        if db is None or self._building:
            return

        def work(progress, cancelled):
            with SearchIndex(path) as index:
                return update_index(db, index, progress=lambda done, total: progress(done, total, ""),
                                    cancel=cancelled)

        self._set_building(True)
        self.index_label.setText("Search index: checking what is new…")
        self._indexer.submit_long("build", work, on_result=self._built, on_error=self._build_failed,
                                  on_progress=self._build_progress)

    def cancel_build(self) -> None:
        self._indexer.cancel("build")  # the job stops after its current batch and reports "cancelled"
        self._set_building(False)
        self.index_label.setText("Search index: stopped — what was indexed is kept; Update index continues.")

    def _set_building(self, building: bool) -> None:
        self._building = building
        self.progress.setVisible(building)
        self.cancel_button.setVisible(building)
        self.build_button.setEnabled(not building)
        if building:
            self.progress.setRange(0, 0)

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
        text = f"Search index: {result.rows:,} records"
        if result.status == "cancelled":
            text += " — stopped; Update index continues"
        elif result.added:
            text += f" ({'rebuilt' if result.status == 'rebuilt' else 'added'} {result.added:,} "
            text += f"in {result.seconds:.1f} s)"
        else:
            text += ", up to date"
        if result.reason:
            text += f". Rebuilt because {result.reason}"
        self.index_label.setText(text)
        self.index_label.setToolTip(str(self._index_file))
        if result.added and self.query_box.text().strip():
            self.run_search()

    def _build_failed(self, message: str) -> None:
        self._set_building(False)
        self.index_label.setText(f"Search index: could not be built: {message}")

    # -- searching -----------------------------------------------------------------------------------
    def current_filter(self) -> SearchFilter:
        span = self.time_box.currentData()
        since = int(time.time() * 1000) - span if span else None
        pick = lambda box: (box.currentData(),) if box.currentData() else ()  # noqa: E731
        return SearchFilter(kinds=pick(self.kind_box), lifecycles=pick(self.lifecycle_box),
                            user_id=self.user_box.currentData(), record_types=pick(self.type_box), since=since)

    def run_search(self) -> None:
        db, path = self.ctx.store.db, self._index_file
        text = self.query_box.text()
        if db is None:
            return
        if not text.strip():
            self.ctx.worker.cancel("search")
            self.model.set_results(None)
            self.summary.setText("Type to search; Enter on a match opens the history at that record.")
            return
        flt, newest = self.current_filter(), bool(self.order_box.currentData())

        def work():
            with SearchIndex(path) as index:
                return search(index, db, text, flt, limit=RESULT_LIMIT, newest_first=newest)

        self.summary.setText("Searching…")
        self.ctx.worker.submit("search", work, on_result=self._results_arrived,
                               on_error=lambda msg: self.summary.setText(f"Search failed: {msg}"))

    def _search_and_focus(self) -> None:
        """Enter in the query box: search now and put the cursor on the first match.

        The box's delayed search for the same text is dropped: run a moment later, it would replace the
        results under the cursor the user has just been given."""
        self.query_box.cancel_pending()
        self._focus_results = True
        self.run_search()

    def _results_arrived(self, results) -> None:
        kept = result_key(self.model.item(self.tree.currentIndex()))
        self.last_results = results
        self.model.set_results(results)
        self.tree.expandAll()
        note = " (index still building)" if self._building else ""
        self.summary.setText(f"{results.summary} · {results.seconds * 1000:.0f} ms{note}")
        if self.model.rowCount():
            first = self.model.index(0, 0)
            again = self.model.index_of(kept) if kept is not None else None
            if self._focus_results:
                hit = self.model.index(0, 0, self.model.index(0, 0, first))  # first record of first session
                self.tree.setCurrentIndex(hit if hit.isValid() else first)
                self.tree.scrollTo(self.tree.currentIndex())
                self.tree.setFocus()
            elif again is not None and again.isValid():  # fresh results (index grew): the cursor stays put
                self.tree.setCurrentIndex(again)
                self.tree.scrollTo(again)
            else:
                self.tree.scrollTo(first)
        self._focus_results = False

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
            self.ctx.show_detail(DetailItem(f"Match in record #{item.record_id}", fields,
                                            {"record_id": item.record_id, "session_id": item.session_id,
                                             "agent_id": item.agent_id, "type": item.type, "at": item.at}))

    # -- pane API --------------------------------------------------------------------------------------
    def focus_filter(self) -> None:
        self.query_box.setFocus()
        self.query_box.selectAll()

    def open_item(self, target) -> None:
        """``target``: query text to search for."""
        if isinstance(target, str):
            self.query_box.setText(target)
            self.run_search()
        self.focus_filter()

    def shutdown(self) -> None:
        self._indexer.cancel("build")
        self._indexer.shutdown()
