"""Markdown → safe HTML for Qt text views: raw HTML off, nothing loaded from the network."""

from __future__ import annotations

import html

from markdown_it import MarkdownIt
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser

_md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table").enable("strikethrough")


def markdown_html(text: str) -> str:
    return _md.render(text or "")


def escape(text: str) -> str:
    return html.escape(text or "", quote=False)


class SafeTextBrowser(QTextBrowser):
    """A text browser that never fetches remote resources (images in Markdown stay unloaded) and opens
    no links itself; ``anchorClicked`` is for the owner to handle."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)

    def loadResource(self, type_: int, url: QUrl):  # noqa: N802 (Qt override)
        if url.scheme() in ("", "data", "qrc"):
            return super().loadResource(type_, url)
        return None  # http(s), file, ... are never loaded


def set_markdown(view: QTextBrowser, text: str) -> None:
    view.document().setDefaultStyleSheet("pre, code { font-family: monospace; } pre { background: #f4f4f4; }")
    view.setHtml(markdown_html(text))


__all__ = ["markdown_html", "escape", "SafeTextBrowser", "set_markdown", "QTextDocument"]
