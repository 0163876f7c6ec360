"""The right-hand side of the document pages: one document shown as Markdown, plain text or a note.

Read-only: the Files page fills it from the store's ``Files.preview``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QStackedWidget, QVBoxLayout, QWidget

from daycare_gui.ui.theme import set_tone
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, set_markdown


class DocumentViewer(QWidget):
    MARKDOWN, TEXT, NOTE = range(3)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.note = QLabel()
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        set_tone(self.note, "note")
        self.pages = QStackedWidget()
        self.markdown = SafeTextBrowser()
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setMargin(12)
        self.message.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        for w in (self.markdown, self.text, self.message):
            self.pages.addWidget(w)
        layout.addWidget(self.heading)
        layout.addWidget(self.note)
        layout.addWidget(self.pages, 1)
        self.path: str | None = None
        self.clear()

    # -- what to show ------------------------------------------------------------------------------
    def _head(self, title: str, note: str, path: str | None) -> None:
        self.path = path
        self.heading.setText(f"<b>{escape(title)}</b>" if title else "")
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def show_markdown(self, title: str, text: str, note: str = "", path: str | None = None) -> None:
        self._head(title, note, path)
        set_markdown(self.markdown, text)
        self.pages.setCurrentIndex(self.MARKDOWN)

    def show_text(self, title: str, text: str, note: str = "", path: str | None = None) -> None:
        self._head(title, note, path)
        self.text.setPlainText(text)
        self.pages.setCurrentIndex(self.TEXT)

    def show_message(self, title: str, message: str, note: str = "", path: str | None = None) -> None:
        self._head(title, note, path)
        self.message.setText(message)
        self.pages.setCurrentIndex(self.NOTE)

    def clear(self, message: str = "Select an item on the left to see it here.") -> None:
        self.show_message("", message)

    def shown_text(self) -> str:
        """The plain text currently visible (for tests and copy)."""
        page = self.pages.currentIndex()
        if page == self.MARKDOWN:
            return self.markdown.toPlainText()
        if page == self.TEXT:
            return self.text.toPlainText()
        return self.message.text()
