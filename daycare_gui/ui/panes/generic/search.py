"""Search for any store kind that offers ``SearchSource`` (Ctrl+Shift+F): the shared full-text index.

The index lives in the user's cache folder (:mod:`daycare_gui.stores.common.search_index`); the store is
never written. It is brought up to date when the pane opens, on a worker of its own so browsing and
searching stay responsive, with progress and Cancel; a search while indexing sees what is indexed so far.
Enter (or a double-click) on a match opens the conversation at that message.
"""

from __future__ import annotations

import time

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
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import when
from daycare_gui.ui.panes.generic.conversations import MessageTarget
from daycare_gui.ui.panes.generic.search_results import SourceResultsModel, result_key
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.snippet import SnippetDelegate, snippet_plain
from daycare_gui.ui.worker import DbWorker

DAY_MS = 86_400_000
TIME_RANGES = (("Any time", None), ("Last day", DAY_MS), ("Last week", 7 * DAY_MS),
               ("Last month", 30 * DAY_MS), ("Last year", 365 * DAY_MS))
RESULT_LIMIT = 200
HINT = "Type to search; Enter on a match opens the conversation at that message."


def _index_for(source: api.SearchSource) -> SourceIndex:
    return SourceIndex(index_file(source.identity()))


def _titles(conversations) -> dict[str, str]:
    return {t.id: t.title for t in conversations.threads()} if conversations is not None else {}


class SourceSearchPane(Pane):
    pane_id = "search"
    title = "Search"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.source: api.SearchSource = ctx.opened.capability(api.SearchSource)
        self.conversations = ctx.opened.capability(api.Conversations)
        self._indexer = DbWorker("source-search-indexer", self)  # builds never queue behind searches
        self._building = False
        self._titles: dict[str, str] = {}

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.query_box = FilterBox('Search every conversation: words, "a phrase", prefix*, OR, -exclude',
                                   delay_ms=400)
        self.query_box.setObjectName("searchQuery")
        self.order_box = QComboBox()
        self.order_box.addItem("Best match", False)
        self.order_box.addItem("Newest first", True)
        self.role_box = QComboBox()
        self.role_box.addItem("Any role", None)
        for role in ROLES:
            self.role_box.addItem(role, role)
        self.time_box = QComboBox()
        for label, span in TIME_RANGES:
            self.time_box.addItem(label, span)
        top.addWidget(self.query_box, 1)
        for w in (self.order_box, self.role_box, self.time_box):
            top.addWidget(w)
        layout.addLayout(top)

        status = QHBoxLayout()
        self.index_label = QLabel("Search index: checking…")
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(200)
        self.progress.hide()
        self.build_button = QPushButton("Update index")
        self.build_button.setToolTip("Index messages added since the last update (the index is kept in your "
                                     "cache folder; the store is never written)")
        self.rebuild_button = QPushButton("Rebuild")
        self.rebuild_button.setToolTip("Index everything again, e.g. after messages were edited or deleted")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        status.addWidget(self.index_label, 1)
        for w in (self.progress, self.build_button, self.rebuild_button, self.cancel_button):
            status.addWidget(w)
        layout.addLayout(status)

        self.model = SourceResultsModel(self)
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
        self.tree.setColumnWidth(1, 130)
        self.tree.setColumnWidth(2, 150)
        self.tree.activated.connect(self._activate)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        layout.addWidget(self.tree, 1)
        self.summary = QLabel(HINT)
        layout.addWidget(self.summary)

        self.query_box.changed.connect(lambda _t: self.run_search())
        self.query_box.returnPressed.connect(self._search_and_focus)
        for combo in (self.order_box, self.role_box, self.time_box):
            combo.currentIndexChanged.connect(lambda _i: self.run_search())
        self.build_button.clicked.connect(lambda: self.start_build())
        self.rebuild_button.clicked.connect(lambda: self.start_build(rebuild=True))
        self.cancel_button.clicked.connect(self.cancel_build)
        self.setTabOrder(self.query_box, self.order_box)
        self.setTabOrder(self.order_box, self.role_box)
        self.setTabOrder(self.role_box, self.time_box)
        self.setTabOrder(self.time_box, self.tree)
        self.last_results = None
        self.last_build = None
        self._focus_results = False

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

    def start_build(self, *, rebuild: bool = False) -> None:
        if self._building:
            return
        source = self.source

        def work(progress, cancelled):
            with _index_for(source) as index:
                result = update_source_index(source, index, progress=lambda d, t: progress(d, t, ""),
                                             cancel=cancelled, rebuild=rebuild)
                return result, str(index.path), index.state().roles

        self._set_building(True)
        self.index_label.setText("Search index: rebuilding…" if rebuild else "Search index: checking what is new…")
        self._indexer.submit_long("build", work, on_result=self._built, on_error=self._build_failed,
                                  on_progress=self._build_progress)

    def _offer_roles(self, roles) -> None:
        """The role filter lists the common roles and any other this store's messages have."""
        known = {self.role_box.itemData(i) for i in range(self.role_box.count())}
        for role in roles:
            if role and role not in known:
                self.role_box.addItem(role, role)

    def cancel_build(self) -> None:
        self._indexer.cancel("build")  # the job stops after its current batch; what it indexed is kept
        self._set_building(False)
        self.index_label.setText("Search index: stopped — what was indexed is kept; Update index continues.")

    def _set_building(self, building: bool) -> None:
        self._building = building
        self.progress.setVisible(building)
        self.cancel_button.setVisible(building)
        self.build_button.setEnabled(not building)
        self.rebuild_button.setEnabled(not building)
        if building:
            self.progress.setRange(0, 0)  # the source does not say how many messages are new

    def _build_progress(self, done: int, _total: int, _message: str) -> None:
        if done:
            self.index_label.setText(f"Indexing messages: {done:,} so far… (searches see what is indexed)")

    def _built(self, answer) -> None:
        result, path, roles = answer
        self.last_build = result
        self._offer_roles(roles)
        self._set_building(False)
        text = f"Search index: {result.rows:,} messages"
        if result.status == "cancelled":
            text += " — stopped; Update index continues"
        elif result.added:
            verb = "rebuilt with" if result.status == "rebuilt" else "added"
            text += f" ({verb} {result.added:,} in {result.seconds:.1f} s)"
        else:
            text += ", up to date"
        if result.reason:
            text += f". Rebuilt because {result.reason}"
        self.index_label.setText(text)
        self.index_label.setToolTip(path)
        if result.added and self.query_box.text().strip():
            self.run_search()

    def _build_failed(self, message: str) -> None:
        self._set_building(False)
        self.index_label.setText(f"Search index: could not be built: {message}")

    # -- searching -----------------------------------------------------------------------------------
    def current_filter(self) -> SourceFilter:
        span = self.time_box.currentData()
        role = self.role_box.currentData()
        since = int(time.time() * 1000) - span if span else None
        return SourceFilter(roles=(role,) if role else (), since=since)

    def run_search(self) -> None:
        text = self.query_box.text()
        if not text.strip():
            self.ctx.worker.cancel("source-search")
            self.model.set_results(None)
            self.summary.setText(HINT)
            return
        source, flt, titles = self.source, self.current_filter(), dict(self._titles)
        newest = bool(self.order_box.currentData())

        def work():
            with _index_for(source) as index:
                return search_source(index, text, flt, limit=RESULT_LIMIT, newest_first=newest, titles=titles)

        self.summary.setText("Searching…")
        self.ctx.worker.submit("source-search", work, on_result=self._results_arrived,
                               on_error=lambda msg: self.summary.setText(f"Search failed: {msg}"))

    def _search_and_focus(self) -> None:
        """Enter in the query box: search now and put the cursor on the first match (the box's delayed
        search for the same text is dropped: it would replace the results under that cursor)."""
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
                hit = self.model.index(0, 0, self.model.index(0, 0, first))  # first match of the first session
                self.tree.setCurrentIndex(hit if hit.isValid() else first)
                self.tree.scrollTo(self.tree.currentIndex())
                self.tree.setFocus()
            elif again is not None and again.isValid():  # fresh results (the index grew): the cursor stays
                self.tree.setCurrentIndex(again)
                self.tree.scrollTo(again)
            else:
                self.tree.scrollTo(first)
        self._focus_results = False

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
