"""The table columns' fitter in a list too narrow for every column: the short columns give way (down to their
titles) so the long text column stays in view, and get their width back when the list widens again."""

from __future__ import annotations

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTableView

from daycare_gui.ui.widgets.tables import ColumnFitter, header_text_width

TITLES = ("Posted", "Kind", "Agent", "Summary")


def _table(qtbot, width: int) -> tuple[QTableView, ColumnFitter]:
    model = QStandardItemModel(0, len(TITLES))
    model.setHorizontalHeaderLabels(list(TITLES))
    for _ in range(5):
        model.appendRow([QStandardItem("2026-11-18 10:00:00"), QStandardItem("a rather long kind name"),
                         QStandardItem("an agent with a long name, too"), QStandardItem("what happened " * 8)])
    view = QTableView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(width, 300)
    view.show()
    qtbot.waitExposed(view)
    fitter = ColumnFitter(view)
    fitter.fit()
    return view, fitter


def _right_edge(view, column: int) -> int:
    header = view.horizontalHeader()
    return header.sectionViewportPosition(column) + header.sectionSize(column)


def test_the_long_column_stays_in_view_and_short_ones_get_their_width_back(qtbot):
    view, _fitter = _table(qtbot, 900)
    wide = [view.columnWidth(c) for c in range(3)]
    view.resize(380, 300)
    qtbot.waitUntil(lambda: view.viewport().width() < 380)
    summary = len(TITLES) - 1
    assert _right_edge(view, summary) <= view.viewport().width()
    assert view.columnWidth(summary) >= header_text_width(view, summary)
    assert all(view.columnWidth(c) >= header_text_width(view, c) for c in range(3))
    view.resize(900, 300)
    qtbot.waitUntil(lambda: view.viewport().width() > 800)
    assert [view.columnWidth(c) for c in range(3)] == wide
