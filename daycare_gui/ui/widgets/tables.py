"""One way to set up a read-only record table, so every page's tables look and key the same."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView

SIZE_HINT_ROWS = 50


def make_table(model, *, row_height: int = 24, delegate=None) -> QTableView:
    """Single-row selection, no editing, alternating rows, no row numbers; Tab leaves the table and
    the arrow keys move inside it. ``delegate`` (a factory taking the view) paints rows by state."""
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(row_height)
    view.horizontalHeader().setStretchLastSection(True)
    # "Resize to contents" measures at most this many rows (Qt's default is 1000): every measurement
    # calls the model and the delegate in Python, so a thousand rows froze the window for a second.
    view.horizontalHeader().setResizeContentsPrecision(SIZE_HINT_ROWS)
    view.setWordWrap(False)
    view.setTabKeyNavigation(False)
    if delegate is not None:
        view.setItemDelegate(delegate(view))
    return view


def sort_only(view: QTableView, columns) -> None:
    """A table whose model sorts only ``columns`` (in SQL): a click on any other header puts the sort
    arrow back where the rows really are sorted, instead of promising an order that is not there."""
    header = view.horizontalHeader()
    shown = [header.sortIndicatorSection(), header.sortIndicatorOrder()]

    def changed(section: int, order) -> None:
        if section in columns:
            shown[:] = [section, order]
            return
        header.blockSignals(True)
        header.setSortIndicator(*shown)
        header.blockSignals(False)

    header.sortIndicatorChanged.connect(changed)
