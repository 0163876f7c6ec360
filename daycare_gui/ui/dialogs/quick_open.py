"""Jump To (Ctrl+K): type a name, id, nametag or path; arrows move; Enter opens; Esc closes.

The lookup is the core's :class:`~daycare_gui.stores.common.jump.JumpIndex` (built on a worker when the
store opens); a search takes a few milliseconds, so it runs on every keystroke, here. Until the index
arrives the palette says so and searches what was typed as soon as it does.
"""

from __future__ import annotations

import time
from html import escape
from typing import Callable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from daycare_gui.stores.common.jump import KIND_TITLES, JumpIndex
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.records import JumpEntry

LIMIT = 50
_MOVE_KEYS = {Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown}


class QuickOpenDialog(QDialog):
    chosen = Signal(object)  # the JumpEntry to open
    search_requested = Signal(str)  # words no item matched, to look for in the conversations (Search page)

    def __init__(self, link_of: Callable[[JumpEntry], str], parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("quickOpen")
        self.setWindowTitle("Jump To")
        self._link_of = link_of
        self._index: JumpIndex | None = None
        self._entries: list[JumpEntry] = []
        self.search_offered = False  # whether the store has a Search page to send unmatched words to
        self.last_ms: float | None = None  # how long the last search took (shown, and read by the bench)
        layout = QVBoxLayout(self)
        self.query = QLineEdit()
        self.query.setObjectName("quickOpenQuery")
        self.query.setPlaceholderText("Agent, session, user, task, document, app or table: name, id or path")
        self.query.setClearButtonEnabled(True)
        self.results = QTreeWidget()
        self.results.setObjectName("quickOpenResults")
        self.results.setColumnCount(3)
        self.results.setHeaderLabels(["Name", "Kind", "Id, owner, path"])
        self.results.setRootIsDecorated(False)
        self.results.setUniformRowHeights(True)
        self.results.setAlternatingRowColors(True)
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay in the query box
        header = self.results.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)  # not measured per keystroke
        header.setStretchLastSection(True)
        self.results.setColumnWidth(0, 330)
        self.results.setColumnWidth(1, self.fontMetrics().horizontalAdvance("Document") + 24)
        self.results.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.results.customContextMenuRequested.connect(self._menu)
        self.results.itemActivated.connect(lambda _item, _col: self.open_current())
        self.note = QLabel("Reading the store's items…")
        self.note.setObjectName("quickOpenNote")
        self.note.setTextFormat(Qt.TextFormat.RichText)
        self.note.linkActivated.connect(lambda _link: self.search_conversations())
        layout.addWidget(self.query)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.note)
        self.query.textChanged.connect(self._search)
        self.query.installEventFilter(self)
        self.resize(760, 440)

    # -- index ------------------------------------------------------------------------------------------
    def set_index(self, index: JumpIndex | None, note: str = "") -> None:
        self._index = index
        if index is None:
            self.note.setText(escape(note or "Reading the store's items…"))  # (the note is rich text)
            self.results.clear()
            return
        self._search(self.query.text())

    def start(self) -> None:
        """Shown again: what was typed last time is kept, selected, so typing replaces it."""
        self.query.selectAll()
        self.query.setFocus()
        self._search(self.query.text())

    # -- searching ----------------------------------------------------------------------------------------
    def _search(self, text: str) -> None:
        if self._index is None:
            return
        started = time.perf_counter()
        entries = self._index.search(text, LIMIT)
        self.last_ms = (time.perf_counter() - started) * 1000
        if entries != self._entries or self.results.topLevelItemCount() != len(entries):
            # typing on into an id usually leaves the same few results: the list is only refilled on a change
            self._entries = entries
            self.results.setUpdatesEnabled(False)
            self.results.clear()
            self.results.addTopLevelItems([_item(e) for e in entries])
            if entries:
                self.results.setCurrentItem(self.results.topLevelItem(0))
            self.results.setUpdatesEnabled(True)
        total = count(len(self._index), "item")
        if not text.strip():
            self.note.setText(f"{total} — type part of a name, id, @nametag or path")
        elif not entries:
            words = escape(text.strip())
            # not a dead end: the words may be in what was said rather than in a name (Enter searches them)
            offer = (f" — <a href='search'>search the conversations for “{words}”</a> (Enter)"
                     if self.search_offered else "")
            self.note.setText(f"Nothing matches “{words}” among {escape(total)}{offer}")
        else:
            more = "first " if len(entries) == LIMIT else ""
            self.note.setText(f"{more}{count(len(entries), 'match', 'matches')} of {total} · {self.last_ms:.0f} ms"
                              " — Enter opens, Ctrl+Shift+L copies its link")

    def current_entry(self) -> JumpEntry | None:
        row = self.results.indexOfTopLevelItem(self.results.currentItem()) if self.results.currentItem() else -1
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def open_current(self) -> None:
        entry = self.current_entry()
        if entry is not None:
            self.accept()
            self.chosen.emit(entry)
        elif self.query.text().strip() and self._index is not None and not self._entries:
            self.search_conversations()

    def search_conversations(self) -> None:
        """The words that matched no item, looked for in the conversations: the Search page, filled in."""
        words = self.query.text().strip()
        if words and self.search_offered:
            self.accept()
            self.search_requested.emit(words)

    def copy_link(self) -> None:
        entry = self.current_entry()
        if entry is not None:
            QGuiApplication.clipboard().setText(self._link_of(entry))
            self.note.setText(escape(f"Copied the link to {entry.label}"))

    # -- keys -------------------------------------------------------------------------------------------
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 (Qt override)
        if watched is self.query and event.type() == QEvent.Type.KeyPress:
            if event.key() in _MOVE_KEYS:
                self.results.keyPressEvent(event)  # the list moves while the cursor stays in the query
                return True
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.open_current()
                return True
            if QKeySequence(event.keyCombination()) == QKeySequence("Ctrl+Shift+L"):  # as in the window
                self.copy_link()
                return True
        return super().eventFilter(watched, event)

    def _menu(self, pos) -> None:
        item = self.results.itemAt(pos)
        if item is None:
            return
        self.results.setCurrentItem(item)
        menu = QMenu(self)
        menu.addAction("Open", self.open_current)
        menu.addAction("Copy link", self.copy_link)
        menu.exec(self.results.viewport().mapToGlobal(pos))


def _item(entry: JumpEntry) -> QTreeWidgetItem:
    detail = entry.key if entry.kind not in ("section", "table") else ""
    if entry.detail and entry.detail != entry.key:
        detail = f"{detail} · {entry.detail}" if detail else entry.detail
    item = QTreeWidgetItem([entry.label, KIND_TITLES.get(entry.kind, entry.kind), detail])
    item.setToolTip(0, entry.label)
    item.setToolTip(2, detail)
    return item
