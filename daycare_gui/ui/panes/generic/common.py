"""Pieces the shared panes repeat: a filterable list of neutral records with the detail pane fed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import number
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.record_table import FilteredRecords, make_table, select_row


def detail_of(title: str, record, *, fields: tuple[tuple[str, str], ...] = (), markdown: str | None = None
              ) -> DetailItem:
    """A neutral record's detail: the given fields, its ``meta``, its problem, its raw value."""
    meta = tuple(getattr(record, "meta", ()) or ())
    problem = getattr(record, "problem", None)
    extra = (("Problem", problem),) if problem else ()
    return DetailItem(title, fields + meta + extra, raw=getattr(record, "raw", None), markdown=markdown)


def when(ms: int | None) -> str:
    return fmt_time(ms) if ms is not None else ""


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{number(n)} {one if n == 1 else (many or one + 's')}"


MAX_COLUMN_WIDTH = 320  # pixels a column takes at most when fitted to its contents


class RecordList(QWidget):
    """A caption, a filter box and a table over a loaded list of records."""

    def __init__(self, caption: str, columns, *, key=None, state=None, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel(f"<b>{caption}</b>")
        self.filter_box = FilterBox("Filter (Ctrl+F)")
        self.records = FilteredRecords(columns, key=key, state=state)
        self.table = make_table(self.records.proxy)
        # the order given (the store's, or the page's) until a header is clicked: enabling sorting as it
        # stands would sort by the first column, descending (Qt's default indicator), Z to A
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        layout.addWidget(self.caption)
        layout.addWidget(self.filter_box)
        layout.addWidget(self.table, 1)
        self.filter_box.changed.connect(self.records.set_text)

    def set_records(self, records) -> None:
        self.records.set_records(records)
        self.table.resizeColumnsToContents()
        # one long value (a path, a heartbeat batch's title) must not push every other column off screen:
        # wider columns are cut to a readable width, their text elided (the whole of it is in the details)
        for column in range(self.records.proxy.columnCount() - 1):
            if self.table.columnWidth(column) > MAX_COLUMN_WIDTH:
                self.table.setColumnWidth(column, MAX_COLUMN_WIDTH)

    def current(self):
        return self.records.record_at(self.table.currentIndex())

    def select_key(self, key) -> bool:
        """Select the record with ``key`` (clearing a filter that hides it); False when it is not listed."""
        if self.records.model.row_of_key(key) < 0:
            return False
        if self.records.proxy_row_of_key(key) < 0:
            self.filter_box.clear()
            self.records.set_text("")
        return select_row(self.table, self.records.proxy_row_of_key(key))
