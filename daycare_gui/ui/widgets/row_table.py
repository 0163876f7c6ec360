"""A read-only table of display-safe rows (``core.queries.subsystems.ShownRow``) with any columns.

Shared by the subsystem panes (channels, signals, processes, expose, system prompts) and the Storage pane's
table browser: columns come from the rows' table, cells are one line, times are local dates (the stored
number in the tooltip), user and agent ids are names when the rowset knows them (the id in the tooltip),
and the detail pane gets every field plus the raw JSON.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from daycare_gui.core.queries.names import Names
from daycare_gui.core.queries.subsystems import RowSet, ShownRow
from daycare_gui.stores.common.wording import labelled, time_value
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.widgets.tables import ColumnFitter, make_table

CELL_LIMIT = 200


def value_text(column: str, value: Any, limit: int | None = CELL_LIMIT, names: Names | None = None) -> str:
    """One value as text: times as local dates, user and agent ids as names, JSON compact, long text cut."""
    if value is None:
        return ""
    label = names.of_column(column, value) if names is not None else None
    if label:
        text = label
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif time_value(column, value):
        text = fmt_time(value)
    elif isinstance(value, (dict, list, tuple)):
        text = json.dumps(value, ensure_ascii=False, default=str)
    else:
        text = str(value)
    if limit is not None:
        text = " ".join(text.split())
        if len(text) > limit:
            text = text[: limit - 1] + "…"
    return text


def raw_tooltip(column: str, value: Any, names: Names | None = None) -> str:
    """What a cell stands for: the id behind a name, the stored number behind a date, else the full text."""
    if names is not None and names.of_column(column, value):
        return str(value)
    if time_value(column, value):
        return f"{value} (milliseconds since 1970, as stored)"
    return value_text(column, value, 2000)


def row_columns(columns: Sequence[str], names: Names | None = None) -> list[Column]:
    return [Column(c, (lambda r, c=c: r.values.get(c)), (lambda v, c=c: value_text(c, v, names=names)),
                   tooltip=(lambda r, c=c: raw_tooltip(c, r.values.get(c), names)),
                   sort_value=(lambda r, c=c: _sortable(r.values.get(c))),
                   align_right=c in ("count", "pid", "line", "messages", "members"))
            for c in columns]


def _sortable(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else value_text("", value, None)


def row_detail(title: str, row: ShownRow, names: Names | None = None) -> DetailItem:
    fields: list[tuple[str, str]] = []
    for column, value in row.values.items():
        text = value_text(column, value, None, names)
        if names is not None and names.of_column(column, value):
            text = labelled(text, value)  # "Alex Rivera (u_1)"
        elif time_value(column, value):
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
        self.names: Names | None = None

    def set_rowset(self, rowset: RowSet, *, more: bool = False) -> None:
        self.set_rows(rowset.columns, rowset.rows, rowset.names, more=more)

    def set_rows(self, columns: Sequence[str], rows: Sequence[ShownRow], names: Names | None = None, *,
                 more: bool = False) -> None:
        self.columns = tuple(columns)
        self.names = names
        self._columns = row_columns(self.columns, names)
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

    def set_rowset(self, rowset: RowSet, describe: Callable[[RowSet], str] | None = None, *,
                   more: bool = False) -> None:
        """Show ``rowset``; ``more``: further rows follow, asked for through the model's ``set_more``."""
        self.model.set_rowset(rowset, more=more)
        self.fitter.fit()  # long text columns are capped, so they do not push the rest away
        if describe is not None:
            self.caption.setText(describe(rowset))

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


def describe_rowset(noun: str) -> Callable[[RowSet], str]:
    """Caption text: how many rows (``noun`` in the singular: "1 channel", "3 channels"), how many shown, and
    where they come from."""

    def describe(rs: RowSet) -> str:
        if rs.source == "none":
            return rs.note
        text = count(rs.total, noun)
        if rs.truncated and rs.source == "database":  # paged by key as the list scrolls
            text += f" ({len(rs.rows):,} loaded; scroll down for more)"
        elif rs.truncated:
            text += f" (first {len(rs.rows):,} shown; narrow the filter to see others)"
        if rs.note:
            text += f" — {rs.note}"
        if rs.problems:
            text += f" — {count(len(rs.problems), 'value')} Daycare cannot read (see the detail pane)"
        return text

    return describe
