"""Every table of a database store, paged: the raw view behind the kind's own sections."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QSplitter, QVBoxLayout, QWidget

from daycare_gui.stores import api
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.tables import make_table

PAGE = 200


def _cell(value) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return f"<{len(data):,} bytes>"
    text = mask_free_text(str(value))  # (a key or token in any column is shown masked)
    return text if len(text) <= 200 else text[:199] + "…"


class TablesPane(Pane):
    has_details = False  # nothing here is shown in the Details dock
    pane_id = "tables"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Tables = ctx.opened.capability(api.Tables)
        layout = QVBoxLayout(self)
        self.names = QListWidget()
        self.names.setObjectName("tableNames")
        self.model = QStandardItemModel(self)
        self.table = make_table(self.model)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        self.position = QLabel("Select a table.")
        self.prev_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        bar.addWidget(self.position, 1)
        bar.addWidget(self.prev_button)
        bar.addWidget(self.next_button)
        rl.addLayout(bar)
        rl.addWidget(self.table, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.names)
        split.addWidget(right)
        split.setSizes([240, 860])
        layout.addWidget(split)
        self.names.currentTextChanged.connect(lambda name: self._open(name, 0))
        self.prev_button.clicked.connect(lambda: self._open(self.current, max(0, self.offset - PAGE)))
        self.next_button.clicked.connect(lambda: self._open(self.current, self.offset + PAGE))
        self.current, self.offset, self.total = "", 0, 0

    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-tables", lambda: [t for t in cap.tables() if not t.hidden],
                               on_result=self._arrived)

    def _arrived(self, tables) -> None:
        self.names.clear()
        self.names.addItems([t.name for t in tables])
        self.ctx.set_count("tables", len(tables))
        target, self._pending = getattr(self, "_pending", None), None
        if target is not None:
            self.open_item(target)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        return ("table", self.current) if self.current else None

    def open_item(self, target) -> None:
        """``target``: a table name; kept until the list arrives."""
        found = self.names.findItems(str(target), Qt.MatchFlag.MatchExactly)
        if found:
            self.names.setCurrentItem(found[0])
        elif self.names.count() == 0:
            self._pending = target

    def _open(self, name: str, offset: int) -> None:
        if not name:
            return
        self.current, self.offset = name, offset
        cap = self.cap

        def fetch():
            counts = {t.name: t.count for t in cap.tables()}
            return cap.columns(name), cap.rows(name, offset, PAGE), counts.get(name)

        self.ctx.worker.submit("generic-table-page", fetch,
                               on_result=lambda a, n=name, o=offset: self._page(n, o, *a))

    def _page(self, name: str, offset: int, columns, rows, total) -> None:
        if name != self.current:
            return
        self.model.clear()
        self.model.setHorizontalHeaderLabels(list(columns))
        for r in rows:
            self.model.appendRow([QStandardItem(_cell(v)) for v in r])
        self.table.resizeColumnsToContents()
        end = offset + len(rows)
        of = f" of {total:,}" if isinstance(total, int) else ""
        self.position.setText(f"{name}: rows {offset + 1 if rows else 0:,}–{end:,}{of}")
        self.prev_button.setEnabled(offset > 0)
        self.next_button.setEnabled(len(rows) == PAGE)
