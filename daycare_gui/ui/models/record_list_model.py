"""A table model over a small, already-loaded list of records (users, inbox, tasks, apps, …).

Large collections use :class:`~daycare_gui.ui.models.keyed_model.KeyedTableModel` instead, or page by key
here: with :meth:`RecordListModel.set_more`, a view scrolled to the end asks the owner for the records after
the last one held (Qt's ``canFetchMore``/``fetchMore``), and the owner appends them when they arrive.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from daycare_gui.ui.models.columns import ANSWERED_ROLES, Column, column_data, header_title
from daycare_gui.ui.models.live_rows import merge_rows, runs
from daycare_gui.ui.models.roles import KeyRole, StateRole


class RecordListModel(QAbstractTableModel):
    def __init__(self, columns: Sequence[Column], *, key=None, state=None, parent=None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._records: list[Any] = []
        self._key = key or (lambda r: getattr(r, "id", None))
        self._state = state  # record → state string (e.g. "stuck") or None
        self._fetch_more: Callable[[Any], None] | None = None
        self._more = False  # more records follow the last one held
        self._asked = False  # the owner was asked for them and has not answered yet

    def set_records(self, records: Sequence[Any], *, more: bool = False) -> None:
        self.beginResetModel()
        self._records = list(records)
        self._more, self._asked = more, False
        self.endResetModel()

    def update_records(self, records: Sequence[Any], *, more: bool | None = None) -> None:
        """Show a newer read of the same list in place: rows that went are removed, new ones inserted, moved
        ones moved and changed ones repainted, so a view keeps its selection and position (a live store)."""
        changed = merge_rows(self, self._records, list(records), self._key)
        if changed is None:  # keys not unique: nothing to follow rows by
            self.set_records(records, more=bool(more))
            return
        last = len(self._columns) - 1
        for first, end in runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(end, last))
        if more is not None:
            self._more, self._asked = more, False

    # -- paging by key ---------------------------------------------------------------------------
    def set_more(self, fetch_more: Callable[[Any], None] | None) -> None:
        """``fetch_more(last record)`` is called once when a view reaches the end while more records follow;
        the owner answers with :meth:`append_records` (or :meth:`set_records` for a fresh start)."""
        self._fetch_more = fetch_more

    def append_records(self, records: Sequence[Any], *, more: bool = False) -> None:
        self._more = False  # a view reacting to the insertion must not ask again after the old last record
        if records:
            first = len(self._records)
            self.beginInsertRows(QModelIndex(), first, first + len(records) - 1)
            self._records.extend(records)
            self.endInsertRows()
        self._more, self._asked = more, False

    def has_more(self) -> bool:
        return self._more

    def canFetchMore(self, parent=QModelIndex()) -> bool:  # noqa: N802 (Qt API)
        return not parent.isValid() and self._more and not self._asked and self._fetch_more is not None

    def fetchMore(self, parent=QModelIndex()) -> None:  # noqa: N802 (Qt API)
        if self.canFetchMore(parent):
            self._asked = True
            self._fetch_more(self._records[-1] if self._records else None)

    def record(self, row: int):
        return self._records[row] if 0 <= row < len(self._records) else None

    def records(self) -> list:
        return list(self._records)

    def row_of_key(self, key) -> int:
        for i, r in enumerate(self._records):
            if self._key(r) == key:
                return i
        return -1

    # -- Qt model API --------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._records)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        return header_title(self._columns, section, orientation, role)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in ANSWERED_ROLES:
            return None
        if not index.isValid() or not (0 <= index.row() < len(self._records)):
            return None
        if not (0 <= index.column() < len(self._columns)):
            return None
        rec = self._records[index.row()]
        if role == KeyRole:
            return self._key(rec)
        if role == StateRole:
            return self._state(rec) if self._state else None
        return column_data(self._columns[index.column()], rec, role)
