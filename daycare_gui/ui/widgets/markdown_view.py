"""Markdown → safe HTML for Qt text views: raw HTML off, nothing loaded from the network or the disk."""

from __future__ import annotations

import base64
import html
import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QByteArray, QEvent, QUrl
from PySide6.QtGui import QColor, QImage, QTextDocument
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


# An inline image larger than this (its URL's encoded length) is not decoded: a message may carry one.
DATA_URL_LIMIT = 8 * 1024 * 1024
# The only folder whose files a view may show: the package's own icons.
OWN_RESOURCES = Path(__file__).resolve().parent.parent / "icons"


def may_load(url: QUrl) -> bool:
    """Whether a view may load ``url``: an inline ``data:`` URL of bounded size, a compiled-in ``qrc:``
    resource, or a regular file of the package's own icons folder. Never anything else: a path in a
    message (``![x](/dev/zero)``, a FIFO, a relative name resolved against the working folder) would be
    read on the GUI thread, until memory runs out or for ever."""
    scheme = url.scheme().lower()
    if scheme == "data":
        return len(url.toEncoded()) <= DATA_URL_LIMIT
    if scheme == "qrc":
        return True
    if scheme not in ("", "file") or url.host():
        return False
    local = url.toLocalFile() if scheme == "file" else url.path()
    if not local or not os.path.isabs(local):
        return False
    real = Path(os.path.realpath(local))
    if OWN_RESOURCES not in real.parents:
        return False
    try:
        return stat.S_ISREG(os.stat(real).st_mode)
    except OSError:
        return False


def data_url_bytes(url: QUrl) -> bytes | None:
    """The bytes a ``data:`` URL carries (base64 or percent-encoded), or None when it is malformed."""
    text = bytes(url.toEncoded().data())
    header, comma, payload = text[len(b"data:"):].partition(b",")
    if not comma:
        return None
    if header.lower().endswith(b";base64"):
        try:
            return base64.b64decode(QUrl.fromPercentEncoding(payload).encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            return None
    return bytes(QByteArray.fromPercentEncoding(QByteArray(payload)).data())


@lru_cache(maxsize=1)
def placeholder_image() -> QImage:
    """What a refused image loads as: one transparent pixel. It must be a real image: given nothing, Qt
    loads the named file itself (QTextDocument and its image handler both fall back to reading it)."""
    image = QImage(1, 1, QImage.Format.Format_ARGB32)
    image.fill(QColor(0, 0, 0, 0))
    return image


class SafeTextBrowser(QTextBrowser):
    """A text browser that loads nothing a document names (images in Markdown stay unloaded, see
    :func:`may_load`) and opens no links itself; ``anchorClicked`` is for the owner to handle.

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
        image = type_ == QTextDocument.ResourceType.ImageResource.value
        if may_load(url):
            if url.scheme().lower() != "data":
                return super().loadResource(type_, url)
            data = data_url_bytes(url)  # decoded here: Qt would try a file of that name for a bad image
            if data is not None:
                if not image:
                    return data
                decoded = QImage.fromData(data)
                if not decoded.isNull():
                    return decoded
        # Something, never nothing: for a null answer Qt reads the file (or decodes the data: URL) itself.
        return placeholder_image() if image else b""


def set_markdown(view: QTextBrowser, text: str) -> None:
    view.setHtml(markdown_html(text))


__all__ = ["markdown_html", "markdown_style_sheet", "escape", "SafeTextBrowser", "set_markdown", "QTextDocument"]
