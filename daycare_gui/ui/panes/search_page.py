"""The Search page (Ctrl+Shift+F) as every kind gets it (``panes.generic.search`` over the shared index).

The page is a query box with the order and the kind's filters, an index status line (progress, Update
index, Cancel), the results tree (group → session → hit, snippets in bold) and a summary line. The index is
brought up to date on a DbWorker of the page's own, so searching and the other pages stay responsive while a
large store is indexed; a search while indexing sees what is indexed so far. Searches run on the window's
worker. Enter in the query box searches at once and puts the cursor on the first match; fresh results for
the same query (the index grew) keep the cursor where it was. A subclass makes its filters, the index and
search jobs, and says what a match opens.
"""

from __future__ import annotations

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
    QWidget,
)

from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.snippet import SnippetDelegate
from daycare_gui.ui.worker import DbWorker

DAY_MS = 86_400_000
TIME_RANGES = (("Any time", None), ("Last day", DAY_MS), ("Last week", 7 * DAY_MS),
               ("Last month", 30 * DAY_MS), ("Last year", 365 * DAY_MS))
RESULT_LIMIT = 200


def combo(first: str, values) -> QComboBox:
    """A filter: ``first`` (no filter, data None), then each value as itself."""
    box = QComboBox()
    box.addItem(first, None)
    for v in values:
        box.addItem(v, v)
    return box


def time_range_box() -> QComboBox:
    """Any time, or the last day, week, month or year (data: the span in ms)."""
    box = QComboBox()
    for label, span in TIME_RANGES:
        box.addItem(label, span)
    return box


class SearchPage(Pane):
    pane_id = "search"
    title = "Search"

    # -- what a subclass says --------------------------------------------------------------------------
    placeholder = ""  # the query box's
    hint = ""  # the summary line before a search
    build_tooltip = ""  # Update index's
    offers_rebuild = False  # a Rebuild button beside Update index
    progress_width = 200
    second_column_width = 150
    index_unit = "records"  # "Search index: 1,234 records"
    rebuilt_verb = "rebuilt"  # "(rebuilt 1,234 in 0.5 s)"
    search_channel = "search"  # on the window's worker
    indexer_name = "search-indexer"
    results_model = None  # a GroupedResultsModel subclass

    def _make_filters(self) -> tuple[list[QWidget], list[QWidget]]:
        """The filter widgets beside the query box, and those on a row of their own below it."""
        return [], []

    def _build_work(self, rebuild: bool):
        """The indexing job (``work(progress, cancelled)``), or None when there is nothing to index."""
        raise NotImplementedError

    def _searchable(self) -> bool:
        return True

    def _search_work(self, text: str):
        """The search job for ``text`` with the filters as they are now (read here, not in the job)."""
        raise NotImplementedError

    def _activate(self, index) -> None:
        """Enter or a double-click on a row."""

    def _current_changed(self, current, _previous) -> None:
        """The cursor moved to ``current``."""

    def _build_progress(self, done: int, total: int, _message: str) -> None:
        pass

    def _built(self, result) -> None:
        raise NotImplementedError

    # -- the page --------------------------------------------------------------------------------------
    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self._indexer = DbWorker(self.indexer_name, self)  # builds never queue behind searches
        self._building = False

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.query_box = FilterBox(self.placeholder, delay_ms=400)
        self.query_box.setObjectName("searchQuery")
        self.order_box = QComboBox()
        self.order_box.addItem("Best match", False)
        self.order_box.addItem("Newest first", True)
        beside, below = self._make_filters()
        top.addWidget(self.query_box, 1)
        for w in (self.order_box, *beside):
            top.addWidget(w)
        layout.addLayout(top)
        if below:
            filters = QHBoxLayout()
            for w in below:
                filters.addWidget(w)
            filters.addStretch(1)
            layout.addLayout(filters)

        status = QHBoxLayout()
        self.index_label = QLabel("Search index: checking…")
        # A long status (a rebuild's reason) wraps instead of widening the page, and the window with it:
        # as one line it squeezed the navigation for good.
        self.index_label.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(self.progress_width)
        self.progress.hide()
        self.build_button = QPushButton("Update index")
        self.build_button.setToolTip(self.build_tooltip)
        self.rebuild_button = None
        if self.offers_rebuild:
            self.rebuild_button = QPushButton("Rebuild")
            self.rebuild_button.setToolTip("Index everything again, e.g. after messages were edited or deleted")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        status.addWidget(self.index_label, 1)
        for w in (self.progress, self.build_button, self.rebuild_button, self.cancel_button):
            if w is not None:
                status.addWidget(w)
        layout.addLayout(status)

        self.model = self.results_model(self)
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
        self.tree.setColumnWidth(1, self.second_column_width)
        self.tree.setColumnWidth(2, 150)
        self.tree.activated.connect(self._activate)
        self.tree.selectionModel().currentChanged.connect(self._current_changed)
        layout.addWidget(self.tree, 1)
        self.summary = QLabel(self.hint)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)

        self.query_box.changed.connect(lambda _t: self.run_search())
        self.query_box.returnPressed.connect(self._search_and_focus)
        for combo_box in (self.order_box, *beside, *below):
            if isinstance(combo_box, QComboBox):  # (a row a subclass fills later connects its own)
                combo_box.currentIndexChanged.connect(lambda _i: self.run_search())
        self.build_button.clicked.connect(lambda: self.start_build())
        if self.rebuild_button is not None:
            self.rebuild_button.clicked.connect(lambda: self.start_build(rebuild=True))
        self.cancel_button.clicked.connect(self.cancel_build)
        chain = (self.query_box, self.order_box, *beside, *below, self.tree)
        for first, then in zip(chain, chain[1:]):
            self.setTabOrder(first, then)
        self.last_results = None
        self._focus_results = False

    # -- indexing ----------------------------------------------------------------------------------
    def start_build(self, *, rebuild: bool = False) -> None:
        if self._building:
            return
        work = self._build_work(rebuild)
        if work is None:
            return
        self._set_building(True)
        self.index_label.setText("Search index: rebuilding…" if rebuild else "Search index: checking what is new…")
        self._indexer.submit_long("build", work, on_result=self._built, on_error=self._build_failed,
                                  on_progress=self._build_progress)

    def cancel_build(self) -> None:
        self._indexer.cancel("build")  # the job stops after its current batch; what it indexed is kept
        self._set_building(False)
        self.index_label.setText("Search index: stopped — what was indexed is kept; Update index continues.")

    def _set_building(self, building: bool) -> None:
        self._building = building
        self.progress.setVisible(building)
        self.cancel_button.setVisible(building)
        self.build_button.setEnabled(not building)
        if self.rebuild_button is not None:
            self.rebuild_button.setEnabled(not building)
        if building:
            self.progress.setRange(0, 0)  # busy until the job says how far it is

    def _show_built(self, result, index_path: str) -> None:
        """The status line after a build (``result``: a build result with rows, added, status, reason and
        seconds); fresh matches for the query shown if the index grew."""
        text = f"Search index: {result.rows:,} {self.index_unit}"
        if result.status == "cancelled":
            text += " — stopped; Update index continues"
        elif result.added:
            verb = self.rebuilt_verb if result.status == "rebuilt" else "added"
            text += f" ({verb} {result.added:,} in {result.seconds:.1f} s)"
        else:
            text += ", up to date"
        if result.reason:
            text += f". Rebuilt because {result.reason}"
        self.index_label.setText(text)
        self.index_label.setToolTip(index_path)
        if result.added and self.query_box.text().strip():
            self.run_search()

    def _build_failed(self, message: str) -> None:
        self._set_building(False)
        self.index_label.setText(f"Search index: could not be built: {message}")

    # -- searching -----------------------------------------------------------------------------------
    def run_search(self) -> None:
        text = self.query_box.text()
        if not self._searchable():
            return
        if not text.strip():
            self.ctx.worker.cancel(self.search_channel)
            self.model.set_results(None)
            self.summary.setText(self.hint)
            return
        work = self._search_work(text)
        self.summary.setText("Searching…")
        self.ctx.worker.submit(self.search_channel, work, on_result=self._results_arrived,
                               on_error=lambda msg: self.summary.setText(f"Search failed: {msg}"))

    def _search_and_focus(self) -> None:
        """Enter in the query box: search now and put the cursor on the first match.

        The box's delayed search for the same text is dropped: run a moment later, it would replace the
        results under the cursor the user has just been given."""
        self.query_box.cancel_pending()
        self._focus_results = True
        self.run_search()

    def _results_arrived(self, results) -> None:
        kept = self.model.result_key(self.model.item(self.tree.currentIndex()))
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
        if not self.tree.currentIndex().isValid():
            self.ctx.show_detail(None)  # Details showed a hit of the results replaced: none is selected now
        self._focus_results = False

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
