"""The shape every document page shares: filter box, a list on the left, a viewer on the right.

Subclasses say how to fetch their records (``fetch``, run in the worker: file parsing never happens on
the GUI thread), how to describe one (``describe`` → the detail pane) and what the viewer shows
(``present``). The viewer sits in ``viewer_stack`` (a QStackedWidget) so an editor can be added there
later; ``show_document(path)`` reads any file of the store in the worker and shows it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from daycare_gui.core.file_preview import preview_file
from daycare_gui.core.queries.names import Names
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.document_viewer import DocumentViewer
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.record_table import FilteredRecords, make_table, select_row
from daycare_gui.ui.widgets.tables import ColumnFitter


class BrowsePane(Pane):
    columns: list = []
    noun = "item"  # singular: the count line says "1 item", "3 items"
    hint = ""  # appended to the count line, e.g. what Enter does
    filter_placeholder = "Filter (Ctrl+F)"
    stretch_column: int | None = -1  # the long text column that takes the width left (ColumnFitter)
    # Columns, by title, whose text a reader needs whole: sized to their widest text up to this many px
    # instead of the fitter's usual cap (a cron schedule in words is longer than a name or a date).
    column_caps: dict[str, int] = {}
    list_share = (1, 1)  # how the list and the viewer beside it share the page's width

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        self.bar = QHBoxLayout()
        self.filter_box = FilterBox(self.filter_placeholder)
        self.summary = QLabel("Loading…")
        self.bar.addWidget(self.filter_box, 1)
        layout.addLayout(self.bar)

        self.records = FilteredRecords(self.columns, key=self.key, state=self.state)
        self.table = make_table(self.records.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # keep the loaded order until asked
        titles = [c.title for c in self.columns]
        self.fitter = ColumnFitter(self.table, stretch=self.stretch_column,
                                   caps={titles.index(t): px for t, px in self.column_caps.items()})
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.table.activated.connect(self._activated)

        self.side = QWidget()
        side = QVBoxLayout(self.side)
        side.setContentsMargins(0, 0, 0, 0)
        self.head = QVBoxLayout()  # subclasses put item-specific controls above the viewer
        side.addLayout(self.head)
        self.viewer = DocumentViewer()
        self.viewer_stack = QStackedWidget()
        self.viewer_stack.addWidget(self.viewer)
        side.addWidget(self.viewer_stack, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.side)
        list_part, side_part = self.list_share
        self.splitter.setSizes([520 * list_part, 480 * side_part])
        # a narrow window shares its width, the list keeps its share
        self.splitter.setStretchFactor(0, list_part)
        self.splitter.setStretchFactor(1, side_part)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.summary)
        self.setTabOrder(self.filter_box, self.table)

        self.filter_box.changed.connect(self._filter_changed)
        self._pending: object | None = None
        self._loaded = False
        self.names = Names()  # display names of the user/agent ids the records mention (fetch_names)

    # -- hooks -------------------------------------------------------------------------------------
    def fetch(self, store) -> list:  # runs in the worker
        raise NotImplementedError

    def fetch_names(self, store, records) -> Names | None:  # runs in the worker, after fetch
        """The names the columns show for user and agent ids (default: none needed)."""
        return None

    def key(self, record):
        return getattr(record, "id", None)

    def state(self, record) -> str | None:
        return None

    def describe(self, record) -> DetailItem:
        raise NotImplementedError

    def present(self, record) -> None:
        """Show ``record`` in the viewer (default: its detail Markdown)."""
        item = self.describe(record)
        self.viewer.show_markdown(item.title, item.markdown or "")

    def activate(self, record) -> None:
        """Enter or double-click on a row (default: move the focus to the viewer)."""
        self.viewer_stack.currentWidget().setFocus()

    def matches(self, record, target) -> bool:
        """Whether ``open_item(target)`` means ``record`` (default: its key)."""
        return self.key(record) == target

    link_kind = ""  # the deep-link word for this page's records ("task", "app", "doc"); "" for none

    def link_key(self, record) -> str | None:
        """The id a deep link names ``record`` by (default: its key)."""
        return self.key(record)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        """(kind, key) of the selected record for "Copy link", or None."""
        record = self.current_record()
        key = self.link_key(record) if record is not None and self.link_kind else None
        return (self.link_kind, str(key)) if key else None

    # -- loading -----------------------------------------------------------------------------------
    def load(self) -> None:
        store = self.ctx.store
        self.ctx.worker.submit(f"{self.pane_id}-list", lambda: self._fetch_with_names(store),
                               on_result=self._named_arrived, on_error=self._failed)

    def _fetch_with_names(self, store):
        records = self.fetch(store)
        return records, self.fetch_names(store, records)

    def _named_arrived(self, answer) -> None:
        records, names = answer
        if names is not None:
            self.names = names
        self._arrived(records)

    def _arrived(self, records) -> None:
        current = self.records.key_at(self.table.currentIndex())
        if self._loaded:  # read again (a live store, a save): rows change in place, the selection stays
            self.records.model.update_records(records)
            self._update_summary()
            self.ctx.set_count(self.pane_id, len(records))
            self.loaded(records)
            return
        self.records.set_records(records)
        self._loaded = True
        self._update_summary()
        self.ctx.set_count(self.pane_id, len(records))  # the navigation shows what this page lists
        target, self._pending = self._pending, None
        if target is not None:
            self.open_item(target)
        elif current is not None:
            select_row(self.table, self.records.proxy_row_of_key(current))
        self.fitter.fit()
        self.loaded(records)

    def loaded(self, records) -> None:
        """Called after records arrive (subclasses fill selectors, counts)."""

    def _failed(self, message: str) -> None:
        self.summary.setText(f"Could not read: {message}")

    def _update_summary(self) -> None:
        total, shown = self.records.model.rowCount(), self.records.proxy.rowCount()
        text = count(total, self.noun) if shown == total else f"{shown:,} of {count(total, self.noun)}"
        self.summary.setText(f"{text} — {self.hint}" if self.hint else text)

    def _filter_changed(self, text: str) -> None:
        self.records.set_text(text)
        self._update_summary()

    # -- selection -------------------------------------------------------------------------------
    def current_record(self):
        return self.records.record_at(self.table.currentIndex())

    def _selected(self, current, _previous) -> None:
        record = self.records.record_at(current)
        if record is None:
            return
        self.ctx.show_detail(self.describe(record))
        self.viewer_stack.setCurrentWidget(self.viewer)
        self.present(record)

    def _activated(self, index) -> None:
        record = self.records.record_at(index)
        if record is not None:
            self.activate(record)

    def show_document(self, path: str, title: str | None = None) -> None:
        """Read ``path`` (inside the store only) in the worker and show it in the viewer."""
        root = self.ctx.store.paths
        self.viewer.show_message(title or path, "Reading…")
        self.ctx.worker.submit(f"{self.pane_id}-document", lambda: preview_file(path, root=root),
                               on_result=self._document_arrived,
                               on_error=lambda msg: self.viewer.show_message(title or path, msg))

    def _document_arrived(self, preview) -> None:
        self.viewer_stack.setCurrentWidget(self.viewer)
        self.viewer.show_preview(preview)

    # -- pane API ----------------------------------------------------------------------------------
    def open_item(self, target) -> None:
        if not self._loaded:
            self._pending = target
            return
        records = self.records.model.records()
        row = next((i for i, r in enumerate(records) if self.matches(r, target)), -1)
        if row < 0:
            return
        proxy_row = self.records.proxy.mapFromSource(self.records.model.index(row, 0)).row()
        if proxy_row < 0:  # hidden by the filter: clear it so the item can be shown
            self.filter_box.clear()
            self.records.set_text("")
            self._update_summary()
            proxy_row = self.records.proxy.mapFromSource(self.records.model.index(row, 0)).row()
        select_row(self.table, proxy_row)
        self.table.setFocus()
