"""A table model that holds only row keys and fetches rows on demand (after Anki's browser table).

The pane gives it the keys in display order (filtered and sorted in SQL). When a view asks for a row
that is not cached, the model answers with a placeholder and asks the worker for that row's whole
chunk; when the answer arrives it emits ``dataChanged``. The cache (records by key, so a row that moves
keeps its record) is bounded, so memory does not grow with the number of rows scrolled past. A live store
is followed with ``update_keys``: changed rows repaint, new rows are inserted, the selection stays.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Sequence

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from daycare_gui.ui.models.columns import ANSWERED_ROLES, Column, column_data, header_title
from daycare_gui.ui.models.live_rows import merge_rows, runs
from daycare_gui.ui.models.roles import KeyRole, StateRole
from daycare_gui.ui.theme import colours, solid_brush
from daycare_gui.ui.worker import DbWorker

PLACEHOLDER = "…"
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
# A row's state colours its text (a dead agent greyed) through the model, so its table needs no Python
# delegate.
_ROLES = ANSWERED_ROLES | {_FOREGROUND}


class KeyedTableModel(QAbstractTableModel):
    sort_requested = Signal(int, object)  # column, Qt.SortOrder — the pane re-queries keys in SQL
    rows_loaded = Signal()

    # How many of the most recently shown records a live update reads again (what a view can show and a
    # little more); older cached records are dropped and read when a view asks for them.
    LIVE_REFETCH = 400

    def __init__(self, columns: Sequence[Column], worker: DbWorker, fetch: Callable[[list], dict[Any, Any]],
                 *, channel: str, chunk: int = 200, max_chunks: int = 64, state=None, parent=None) -> None:
        super().__init__(parent)
        self._columns = list(columns)
        self._worker = worker
        self._fetch = fetch
        self._channel = channel
        self._chunk = chunk
        self._max_records = chunk * max_chunks
        self._state = state
        self._keys: list = []
        self._row_of: dict = {}  # key → row
        # Records by key, least recently shown first: rows move (a live update), records stay theirs.
        self._cache: OrderedDict[Any, Any] = OrderedDict()
        self._missing: set = set()  # keys fetched whose row was gone (deleted since the keys were read)
        self._pending: set = set()  # keys asked for, answer not yet here
        self._epoch = 0  # bumps on set_keys so late answers for old keys are ignored

    # -- feeding ---------------------------------------------------------------------------------
    def set_keys(self, keys: Sequence) -> None:
        self._worker.cancel(self._channel)  # chunks of the old keys: skipped if queued, stopped if running
        self.beginResetModel()
        self._keys = list(keys)
        self._row_of = {k: i for i, k in enumerate(self._keys)}
        self._cache.clear()
        self._missing.clear()
        self._pending.clear()
        self._epoch += 1
        self.endResetModel()

    def seed_rows(self, count: int, rows: dict) -> None:
        """Install the first ``count`` rows, fetched together with the keys, so the first screen needs no
        second round trip (a key among them without a row is gone); the rest come when a view asks."""
        keys = [k for k in self._keys[:count] if k not in self._cache]
        if keys:
            self._pending.update(keys)
            self._arrived(self._epoch, keys, rows)

    @property
    def chunk_size(self) -> int:
        return self._chunk

    def update_keys(self, keys: Sequence) -> None:
        """A newer read of the keys (same filter and sort) shown in place: rows that went are removed, new
        ones inserted, moved ones moved (a view keeps its selection), and the records shown lately are
        read again so rows that changed repaint (``dataChanged`` for those only)."""
        if merge_rows(self, self._keys, list(keys), lambda k: k) is None:
            self.set_keys(keys)
            return
        self._row_of = {k: i for i, k in enumerate(self._keys)}
        self._missing.clear()
        self._pending.clear()  # answers on their way still land: they are matched by key
        keep = [k for k in list(self._cache)[-self.LIVE_REFETCH:] if k in self._row_of]
        for k in list(self._cache):
            if k not in self._row_of or k not in keep:
                del self._cache[k]
        if keep:
            self._pending.update(keep)
            self._submit(keep, refresh=True)

    def keys(self) -> list:
        return list(self._keys)

    def key(self, row: int):
        return self._keys[row] if 0 <= row < len(self._keys) else None

    def row_of_key(self, key) -> int:
        return self._row_of.get(key, -1)

    def record(self, row: int):
        """The cached record of ``row``, or None while it is being fetched."""
        if not (0 <= row < len(self._keys)):
            return None
        return self._cache.get(self._keys[row])

    def is_loaded(self, row: int) -> bool:
        key = self.key(row)
        return key in self._cache or key in self._missing

    def _request(self, row: int) -> None:
        start = row - row % self._chunk
        keys = [k for k in self._keys[start:start + self._chunk]
                if k not in self._cache and k not in self._pending and k not in self._missing]
        if keys:
            self._pending.update(keys)
            self._submit(keys)

    def _submit(self, keys: list, refresh: bool = False) -> None:
        epoch, fetch = self._epoch, self._fetch
        # One channel for every chunk of this model (several in flight); set_keys cancels them all.
        self._worker.submit(self._channel, lambda: fetch(keys), supersede=False,
                            on_result=lambda rows: self._arrived(epoch, keys, rows, refresh),
                            on_error=lambda msg: self._failed(epoch, keys, msg))

    def _arrived(self, epoch: int, keys: list, rows: dict, refresh: bool = False) -> None:
        if epoch != self._epoch:
            return
        changed = []
        for k in keys:
            self._pending.discard(k)
            row = self._row_of.get(k)
            if row is None:
                continue  # gone from the list since it was asked for
            new = rows.get(k)
            if new is None:
                self._missing.add(k)
                self._cache.pop(k, None)
                changed.append(row)
                continue
            if not (refresh and self._cache.get(k) == new):
                changed.append(row)
            self._cache[k] = new
            self._cache.move_to_end(k)
        while len(self._cache) > self._max_records:
            self._cache.popitem(last=False)
        last_column = len(self._columns) - 1
        for first, last in runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(last, last_column))
        self.rows_loaded.emit()

    def _failed(self, epoch: int, keys: list, message: str) -> None:
        if epoch == self._epoch:
            for k in keys:
                self._pending.discard(k)
                if k not in self._cache:
                    self._missing.add(k)  # shown as missing rows rather than retried forever

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
        if role not in _ROLES:
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
            if self._keys[row] not in self._missing:
                self._request(row)
                if role == Qt.ItemDataRole.DisplayRole:
                    return PLACEHOLDER if index.column() == 0 else ""
                if role == StateRole:
                    return "placeholder"
                return None
            # fetched, but the row vanished since the keys were read
            return str(self._keys[row]) if role == Qt.ItemDataRole.DisplayRole and index.column() == 0 else None
        if index.column() == 0 and role == Qt.ItemDataRole.DisplayRole:
            self._cache.move_to_end(self._keys[row])  # shown: among the last evicted, the first refreshed
        if role == StateRole:
            return self._state(rec) if self._state else None
        if role == _FOREGROUND:
            state = self._state(rec) if self._state else None
            colour = colours().states.get(state) if state else None  # the palette's, as it is now
            return solid_brush(colour) if colour else None
        return column_data(self._columns[index.column()], rec, role)
