"""The shared record list (Automations, Costs, Space …): rows in the order the page gives them until a header is
clicked, and one long value never pushes the other columns off screen."""

from __future__ import annotations

from PySide6.QtCore import Qt

from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.generic.common import MAX_COLUMN_WIDTH, RecordList

COLUMNS = [Column("Name", lambda r: r[0]), Column("Size", lambda r: r[1]), Column("Note", lambda r: r[2])]


def _shown(lst: RecordList) -> list[str]:
    proxy = lst.records.proxy
    return [proxy.index(r, 0).data() for r in range(proxy.rowCount())]


def test_rows_keep_the_order_given_until_a_header_is_clicked(qtbot):
    lst = RecordList("Things", COLUMNS, key=lambda r: r[0])
    qtbot.addWidget(lst)
    lst.set_records([("beta", 2, ""), ("alpha", 1, ""), ("gamma", 3, "")])
    assert _shown(lst) == ["beta", "alpha", "gamma"]  # not sorted Z to A by the first column
    lst.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # a click on Name
    assert _shown(lst) == ["alpha", "beta", "gamma"]


def test_a_long_value_is_cut_to_a_readable_width(qtbot):
    lst = RecordList("Things", COLUMNS, key=lambda r: r[0])
    qtbot.addWidget(lst)
    lst.resize(900, 300)
    lst.show()
    lst.set_records([("/home/someone/" + "very-long-folder-name/" * 12 + "file.bak", 10, "a note")])
    assert lst.table.columnWidth(0) == MAX_COLUMN_WIDTH
    assert lst.table.columnViewportPosition(2) < lst.table.viewport().width()  # the last column still on screen
