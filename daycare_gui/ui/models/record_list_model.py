"""A table model over a small, already-loaded list of records (users, inbox, tasks, apps, …).

Large collections use :class:`~daycare_gui.ui.models.keyed_model.KeyedTableModel` instead.
"""

from __future__ import annotations

from typing import Any, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

from daycare_gui.ui.models.columns import Column, column_data, header_title
from daycare_gui.ui.models.roles import KeyRole, StateRole


class RecordListModel(QAbstractTableModel):
    def __init__(self, columns: Sequence[Column], *, key=None, state=None, parent=None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._records: list[Any] = []
        self._key = key or (lambda r: getattr(r, "id", None))
        self._state = state  # record → state string (e.g. "stuck") or None

    def set_records(self, records: Sequence[Any]) -> None:
        self.beginResetModel()
        self._records = list(records)
        self.endResetModel()

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
