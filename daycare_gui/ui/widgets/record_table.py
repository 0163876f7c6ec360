"""A filterable table over a small loaded list of records, and a delegate that marks row states.

Used by the browse pages (users, inbox, tasks, apps, skills, memory): the records are few, so filtering
is a QSortFilterProxyModel over every column's text rather than SQL.
"""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QTableView

from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.models.roles import KeyRole, RecordRole, SortRole, StateRole
from daycare_gui.ui.theme import colours, solid_brush
from daycare_gui.ui.widgets.tables import make_table as make_plain_table

# state → (bold, standard icon shown in the first column); the text colour comes from the palette
STATE_STYLES = {
    "stuck": (True, QStyle.StandardPixmap.SP_MessageBoxWarning),
    "error": (False, QStyle.StandardPixmap.SP_MessageBoxCritical),
    "ignored": (False, QStyle.StandardPixmap.SP_MessageBoxInformation),
    "disabled": (False, None),
    "dead": (False, None),
}


class StateDelegate(QStyledItemDelegate):
    """Colours a row by its StateRole (e.g. "stuck" in red with a warning icon), so state is visible
    without reading a column."""

    def initStyleOption(self, option, index) -> None:  # noqa: N802 (Qt override)
        super().initStyleOption(option, index)
        state = index.data(StateRole)
        style = STATE_STYLES.get(state)
        if style is None:
            return
        bold, icon = style
        colour = colours(option.palette).states[state]
        option.palette.setBrush(option.palette.ColorRole.Text, solid_brush(colour))
        if bold:
            font = QFont(option.font)
            font.setBold(True)
            option.font = font
        if icon is not None and index.column() == 0:
            option.icon = QApplication.style().standardIcon(icon)
            option.features |= option.ViewItemFeature.HasDecoration


class RecordFilterProxy(QSortFilterProxyModel):
    """Text filter over every column plus an optional record predicate (e.g. "stuck only")."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)
        self.setSortRole(SortRole)
        self._predicate = None

    def set_predicate(self, predicate) -> None:
        self.beginFilterChange()
        self._predicate = predicate
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row, parent) -> bool:  # noqa: N802 (Qt override)
        if self._predicate is not None:
            record = self.sourceModel().index(row, 0, parent).data(RecordRole)
            if record is not None and not self._predicate(record):
                return False
        return super().filterAcceptsRow(row, parent)


class FilteredRecords:
    """A RecordListModel with its filter proxy; views show ``proxy``."""

    def __init__(self, columns, *, key=None, state=None) -> None:
        self.model = RecordListModel(columns, key=key, state=state)
        self.proxy = RecordFilterProxy()
        self.proxy.setSourceModel(self.model)

    def set_records(self, records) -> None:
        self.model.set_records(records)

    def set_text(self, text: str) -> None:
        self.proxy.setFilterFixedString(text)

    def record_at(self, proxy_index):
        return proxy_index.data(RecordRole) if proxy_index.isValid() else None

    def proxy_row_of_key(self, key) -> int:
        row = self.model.row_of_key(key)
        if row < 0:
            return -1
        return self.proxy.mapFromSource(self.model.index(row, 0)).row()

    def visible_records(self) -> list:
        return [self.proxy.index(r, 0).data(RecordRole) for r in range(self.proxy.rowCount())]

    def key_at(self, proxy_index):
        return proxy_index.data(KeyRole) if proxy_index.isValid() else None


def make_table(model) -> QTableView:
    return make_plain_table(model, delegate=StateDelegate)


def select_row(view: QTableView, row: int) -> bool:
    if row < 0:
        return False
    view.selectRow(row)
    view.scrollTo(view.model().index(row, 0))
    return True
