"""A table model that holds only row keys and fetches rows on demand (after Anki's browser table).

The pane gives it the keys in display order (filtered and sorted in SQL). When a view asks for a row
that is not cached, the model answers with a placeholder and asks the worker for that row's whole
chunk; when the answer arrives it emits ``dataChanged``. The cache is bounded, so memory does not grow
with the number of rows scrolled past.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from daycare_gui.ui.models.columns import ANSWERED_ROLES, Column, column_data, header_title
from daycare_gui.ui.models.roles import KeyRole, StateRole
from daycare_gui.ui.worker import DbWorker

PLACEHOLDER = "…"


class KeyedTableModel(QAbstractTableModel):
    sort_requested = Signal(int, object)  # column, Qt.SortOrder — the pane re-queries keys in SQL
    rows_loaded = Signal()

    def __init__(self, columns: Sequence[Column], worker: DbWorker, fetch: Callable[[list], dict[Any, Any]],
                 *, channel: str, chunk: int = 200, max_chunks: int = 64, state=None, parent=None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._worker = worker
        self._fetch = fetch
        self._channel = channel
        self._chunk = chunk
        self._max_chunks = max_chunks
        self._state = state
        self._keys: list = []
        self._chunks: OrderedDict[int, dict] = OrderedDict()  # chunk index → {key: record}
        self._pending: set[int] = set()
        self._epoch = 0  # bumps on set_keys so late answers for old keys are ignored

    # -- feeding ---------------------------------------------------------------------------------
    def set_keys(self, keys: Sequence) -> None:
        self._worker.cancel(self._channel)  # chunks of the old keys: skipped if queued, stopped if running
        self.beginResetModel()
        self._keys = list(keys)
        self._chunks.clear()
        self._pending.clear()
        self._epoch += 1
        self.endResetModel()

    def seed_chunk(self, chunk_index: int, rows: dict) -> None:
        """Install a chunk fetched together with the keys, so the first screen needs no second round trip."""
        if chunk_index not in self._chunks and 0 <= chunk_index * self._chunk < len(self._keys):
            self._pending.add(chunk_index)
            self._arrived(self._epoch, chunk_index, rows)

    @property
    def chunk_size(self) -> int:
        return self._chunk

    def keys(self) -> list:
        return list(self._keys)

    def key(self, row: int):
        return self._keys[row] if 0 <= row < len(self._keys) else None

    def row_of_key(self, key) -> int:
        try:
            return self._keys.index(key)
        except ValueError:
            return -1

    def record(self, row: int):
        """The cached record of ``row``, or None while it is being fetched."""
        if not (0 <= row < len(self._keys)):
            return None
        chunk = self._chunks.get(row // self._chunk)
        return None if chunk is None else chunk.get(self._keys[row])

    def is_loaded(self, row: int) -> bool:
        return (row // self._chunk) in self._chunks

    def _request(self, chunk_index: int) -> None:
        if chunk_index in self._pending or chunk_index in self._chunks:
            return
        self._pending.add(chunk_index)
        start = chunk_index * self._chunk
        keys = self._keys[start:start + self._chunk]
        epoch = self._epoch
        fetch = self._fetch
        # One channel for every chunk of this model (several in flight); set_keys cancels them all.
        self._worker.submit(self._channel, lambda: fetch(keys), supersede=False,
                            on_result=lambda rows: self._arrived(epoch, chunk_index, rows),
                            on_error=lambda msg: self._failed(epoch, chunk_index, msg))

    def _arrived(self, epoch: int, chunk_index: int, rows: dict) -> None:
        if epoch != self._epoch:
            return
        self._pending.discard(chunk_index)
        self._chunks[chunk_index] = rows
        while len(self._chunks) > self._max_chunks:
            self._chunks.popitem(last=False)
        first = chunk_index * self._chunk
        last = min(len(self._keys), first + self._chunk) - 1
        if last >= first:
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(self._columns) - 1))
        self.rows_loaded.emit()

    def _failed(self, epoch: int, chunk_index: int, message: str) -> None:
        if epoch == self._epoch:
            self._pending.discard(chunk_index)
            self._chunks[chunk_index] = {}  # shown as missing rows rather than retried forever

    # -- Qt model API --------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._keys)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        return header_title(self._columns, section, orientation, role)

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        self.sort_requested.emit(column, order)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role not in ANSWERED_ROLES:
            return None
        if not index.isValid() or not (0 <= index.row() < len(self._keys)):
            return None
        if not (0 <= index.column() < len(self._columns)):
            return None
        row = index.row()
        if role == KeyRole:
            return self._keys[row]
        rec = self.record(row)
        if rec is None:
            if (row // self._chunk) not in self._chunks:
                self._request(row // self._chunk)
                if role == Qt.ItemDataRole.DisplayRole:
                    return PLACEHOLDER if index.column() == 0 else ""
                if role == StateRole:
                    return "placeholder"
                return None
            # fetched, but the row vanished since the keys were read
            return str(self._keys[row]) if role == Qt.ItemDataRole.DisplayRole and index.column() == 0 else None
        if role == StateRole:
            return self._state(rec) if self._state else None
        return column_data(self._columns[index.column()], rec, role)
