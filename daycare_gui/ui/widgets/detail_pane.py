"""The detail pane: parsed fields of the selected item and its raw JSON, each copyable.

Selections can change many times a second (an arrow key held in a long history), so the pane renders
lazily: the heading follows at once, but only the visible tab is filled — the others when they are
opened — and while selections keep arriving faster than ``SETTLE_MS`` apart, only the last one is
rendered once they stop.
"""

from __future__ import annotations

import re
from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores.common.secrets import mask_free_text, mask_tree
from daycare_gui.stores.common.wording import words_of
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.theme import take_app_style
from daycare_gui.ui.widgets.json_view import pretty_json
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, set_markdown
from daycare_gui.ui.widgets.tables import ColumnFitter

FIELDS, TEXT, RAW = range(3)
SETTLE_MS = 100
_LONG_RUN = re.compile(r"\S{17,}")  # an id, a path: longer than a word
_RUN_CHUNK = 8


def heading_html(title: str) -> str:
    """The heading's rich text for ``title``: escaped (a name from the store is shown, never read as
    markup), and with a zero-width space every few characters of a long run such as a session id, where
    the line may break. A word-wrapped label asks for its longest word's width: a session's id in bold
    (218 px) widened the Details dock from its 213 px the first time a session was picked, and with it the
    window, which the whole window then laid out and painted again."""
    def breakable(run: re.Match) -> str:
        text = run[0]
        return "\u200b".join(text[i:i + _RUN_CHUNK] for i in range(0, len(text), _RUN_CHUNK))

    return f"<b>{escape(_LONG_RUN.sub(breakable, title), quote=False)}</b>"


class DetailPane(QWidget):
    shown = Signal(object)  # the DetailItem (or None) the visible tab now shows

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.heading = QLabel("Nothing selected")
        self.heading.setWordWrap(True)
        self.heading.setObjectName("detailHeading")
        take_app_style(self.heading)  # its size and padding (resources/styles/app.qss)
        layout.addWidget(self.heading)
        self.tabs = QTabWidget()
        self.fields = QTableWidget(0, 2)
        self.fields.setHorizontalHeaderLabels(["Field", "Value"])
        self.fields.horizontalHeader().setStretchLastSection(True)
        self.fields.verticalHeader().hide()
        self.fields.setWordWrap(True)
        self.fields.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # names as wide as they need (up to 130 px), values the rest, wrapped: no sideways scrolling in a
        # narrow dock
        self.fields.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.fitter = ColumnFitter(self.fields, stretch=1, cap=130)
        self.fields.horizontalHeader().sectionResized.connect(lambda *_: self.fields.resizeRowsToContents())
        self.text = SafeTextBrowser()
        self.raw = QPlainTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tabs.addTab(self.fields, "Fields")
        self.tabs.addTab(self.text, "Text")
        self.tabs.addTab(self.raw, "Raw JSON")
        layout.addWidget(self.tabs, 1)
        buttons = QHBoxLayout()
        self.copy_fields = QPushButton("Copy fields")
        self.copy_raw = QPushButton("Copy JSON")
        self.copy_fields.clicked.connect(self._copy_fields)
        self.copy_raw.clicked.connect(self._copy_raw)
        buttons.addWidget(self.copy_fields)
        buttons.addWidget(self.copy_raw)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.item: DetailItem | None = None  # what the pane describes (follows every selection at once)
        self.shown_item: DetailItem | None = None  # what the visible tab has been filled with
        self._stale: set[int] = set()  # tabs not yet filled for self.item
        self._pending = False  # a selection arrived while others were still coming
        self._switching = False
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self._settled)
        self.tabs.currentChanged.connect(self._tab_opened)
        self.show_item(None)

    def show_item(self, item: DetailItem | None) -> None:
        self.item = item
        self._stale = {FIELDS, TEXT, RAW}
        self.heading.setText("Nothing selected" if item is None else heading_html(item.title))
        has_text = item is not None and item.markdown is not None
        self._switching = True  # choosing the tab for this item renders nothing by itself
        if not has_text and self.tabs.currentIndex() == TEXT:
            self.tabs.setCurrentIndex(FIELDS)  # before disabling it, or Qt moves on to Raw JSON
        self.tabs.setTabEnabled(TEXT, has_text)
        if item is not None and item.prefer_raw:
            self.tabs.setCurrentIndex(RAW)
        self._switching = False
        if item is None:  # clearing is cheap: every tab, at once
            self._pending = False
            self._settle.stop()
            for index in (FIELDS, TEXT, RAW):
                self._render(index)
        elif self._settle.isActive():  # selections are arriving quickly: render when they stop
            self._pending = True
            self._settle.start()
        else:
            self._render(self.tabs.currentIndex())
            self._settle.start()  # a quiet period: the next selection within it waits

    def _settled(self) -> None:
        if self._pending:
            self._pending = False
            self._render(self.tabs.currentIndex())

    def _tab_opened(self, index: int) -> None:
        if not self._switching and not self._pending:
            self._render(index)

    def _render(self, index: int) -> None:
        item = self.item
        if index in self._stale:
            self._stale.discard(index)
            if index == FIELDS:
                self._fill_fields(item)
            elif index == TEXT:
                if item is not None and item.markdown is not None:
                    set_markdown(self.text, item.markdown)
                else:
                    self.text.setHtml("")
            elif index == RAW:
                self.raw.setPlainText(_raw_text(item))
        if index == self.tabs.currentIndex() and self.shown_item is not item:
            self.shown_item = item
            self.shown.emit(item)

    def _fill_fields(self, item: DetailItem | None) -> None:
        fields = item.fields if item is not None else ()
        self.fields.setRowCount(len(fields))
        for row, (key, value) in enumerate(fields):
            self.fields.setItem(row, 0, QTableWidgetItem(words_of(key)))  # "model_id" read as "Model ID"
            self.fields.setItem(row, 1, QTableWidgetItem(mask_free_text(value or "")))
        if fields:
            self.fitter.fit()
            self.fields.resizeRowsToContents()

    def _copy_fields(self) -> None:
        if self.item is None:
            return
        QGuiApplication.clipboard().setText("\n".join(f"{k}: {mask_free_text(v or '')}" for k, v in self.item.fields))

    def _copy_raw(self) -> None:
        if self.item is not None:
            QGuiApplication.clipboard().setText(_raw_text(self.item))


def _raw_text(item: DetailItem | None) -> str:
    """The raw value shown and copied, its secrets masked (a stored record's text is masked where a key
    or token can be recognised in it; everything else stays as stored)."""
    if item is None or item.raw is None:
        return ""
    if isinstance(item.raw, str):
        return pretty_json(mask_free_text(item.raw))
    return pretty_json(mask_tree(item.raw))
