"""A read-only table of display-safe rows (anything shaped like :class:`ShownRow`) with any columns.

The Storage pane's table browser: columns come from the rows' table, cells are one line, times are local
dates (the stored number in the tooltip), and the detail pane gets every field plus the raw JSON.
"""

from __future__ import annotations

import json
from typing import Any, Protocol, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from daycare_gui.stores.common.wording import time_value
from daycare_gui.stores.records.conversations import one_line
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.widgets.tables import ColumnFitter, make_table

CELL_LIMIT = 200


class ShownRow(Protocol):
    """One row ready to show: ``values`` keyed by column (JSON parsed, secrets masked by whoever read it)."""

    key: Any
    values: dict
    source: str  # the table or file the row came from
    problems: tuple[str, ...]


def value_text(column: str, value: Any, limit: int | None = CELL_LIMIT) -> str:
    """One value as text: times as local dates, JSON compact, long text cut."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif time_value(column, value):
        text = fmt_time(value)
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(value, ensure_ascii=False, default=str)
    else:
        text = str(value)
    return text if limit is None else one_line(text, limit)


def raw_tooltip(column: str, value: Any) -> str:
    """What a cell stands for: the stored number behind a date, else the full text."""
    if time_value(column, value):
        return f"{value} (milliseconds since 1970, as stored)"
    return value_text(column, value, 2000)


def row_columns(columns: Sequence[str]) -> list[Column]:
    return [Column(c, (lambda r, c=c: r.values.get(c)), (lambda v, c=c: value_text(c, v)),
                   tooltip=(lambda r, c=c: raw_tooltip(c, r.values.get(c))),
                   sort_value=(lambda r, c=c: _sortable(r.values.get(c))),
                   align_right=c in ("count", "pid", "line", "messages", "members"))
            for c in columns]


def _sortable(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else value_text("", value, None)


def row_detail(title: str, row: ShownRow) -> DetailItem:
    fields: list[tuple[str, str]] = []
    for column, value in row.values.items():
        text = value_text(column, value, None)
        if time_value(column, value):
            text = f"{text}  ({value})"
        fields.append((column, text))
    fields.append(("Source", row.source))
    for problem in row.problems:
        fields.append(("Problem", problem))
    return DetailItem(title, tuple(fields), row.values)


class RowListModel(RecordListModel):
    """A RecordListModel whose columns follow the rows it is given."""

    def __init__(self, parent=None) -> None:
        super().__init__([], key=lambda r: r.key, parent=parent)
        self.columns: tuple[str, ...] = ()

    def set_rows(self, columns: Sequence[str], rows: Sequence[ShownRow], *, more: bool = False) -> None:
        self.columns = tuple(columns)
        self._columns = row_columns(self.columns)
        self.set_records(rows, more=more)

    def append_rows(self, rows: Sequence[ShownRow], *, more: bool = False) -> None:
        self.append_records(rows, more=more)


class RowTable(QWidget):
    """A caption over a table of rows; selecting a row emits it (and the pane shows it in the detail pane)."""

    row_selected = Signal(object)  # ShownRow
    row_activated = Signal(object)  # ShownRow (Enter or double-click)

    def __init__(self, caption: str = "", parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.caption = QLabel(caption)
        self.caption.setWordWrap(True)
        self.model = RowListModel(self)
        self.view = make_table(self.model)
        self.fitter = ColumnFitter(self.view, cap=320)
        layout.addWidget(self.caption)
        layout.addWidget(self.view, 1)
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        self.view.activated.connect(lambda index: self._emit(self.row_activated, index.row()))
        self.setFocusProxy(self.view)

    def current_row(self) -> ShownRow | None:
        return self.model.record(self.view.currentIndex().row())

    def select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.view.selectRow(row)
            self.view.scrollTo(self.model.index(row, 0))

    def _current_changed(self, current, _previous) -> None:
        self._emit(self.row_selected, current.row())

    def _emit(self, signal, row: int) -> None:
        record = self.model.record(row)
        if record is not None:
            signal.emit(record)

