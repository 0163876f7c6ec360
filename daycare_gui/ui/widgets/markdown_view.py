"""Markdown → safe HTML for Qt text views: raw HTML off, nothing loaded from the network."""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Callable

from PySide6.QtCore import QEvent, QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QTextBrowser

from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.ui.theme import Colours, colours


@lru_cache(maxsize=1)
def _renderer():
    # markdown-it is imported on first use (the window starts without it; ui/preload.py brings it early)
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table").enable("strikethrough")


def markdown_html(text: str) -> str:
    """``text`` as HTML to show, with every secret recognisable in it masked (a key pasted into a chat,
    a password in a URL): what is rendered is only ever shown."""
    return _renderer().render(mask_free_text(text or ""))


def escape(text: str) -> str:
    return html.escape(text or "", quote=False)


def markdown_style_sheet(c: Colours) -> str:
    """Code blocks on a shade of the palette's base, links in a colour that reads on it."""
    return (f"pre, code {{ font-family: monospace; }} pre {{ background: {c.code_background}; }} "
            f"a {{ color: {c.link}; }}")


class SafeTextBrowser(QTextBrowser):
    """A text browser that never fetches remote resources (images in Markdown stay unloaded) and opens
    no links itself; ``anchorClicked`` is for the owner to handle.

    Its default style sheet comes from the palette (``style`` maps :class:`Colours` to CSS), and when the
    palette changes (light ↔ dark) the last HTML is laid out again in the new colours."""

    def __init__(self, parent=None, style: Callable[[Colours], str] = markdown_style_sheet) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self._style = style
        self._html: str | None = None
        self._apply_style()

    def _apply_style(self) -> None:
        self.document().setDefaultStyleSheet(self._style(colours(self.palette())))

    def setHtml(self, text: str) -> None:  # noqa: N802 (Qt name)
        self._html = text
        super().setHtml(text)

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._apply_style()
            if self._html is not None:
                keep = self.verticalScrollBar().value()
                super().setHtml(self._html)
                self.verticalScrollBar().setValue(keep)

    def loadResource(self, type_: int, url: QUrl):  # noqa: N802 (Qt override)
        if url.scheme() in ("", "data", "qrc"):
            return super().loadResource(type_, url)
        return None  # http(s), file, ... are never loaded


def set_markdown(view: QTextBrowser, text: str) -> None:
    view.setHtml(markdown_html(text))


__all__ = ["markdown_html", "markdown_style_sheet", "escape", "SafeTextBrowser", "set_markdown", "QTextDocument"]
