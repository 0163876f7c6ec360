"""Search snippets drawn with their matched terms in bold, for any results model.

Snippets carry the index's match markers (:mod:`daycare_gui.stores.common.fts`); :func:`snippet_html`
escapes everything and only then turns the markers into ``<b>``, so text from a history can never become
markup. :class:`SnippetDelegate` asks the model's ``snippet_at(index)`` which cells hold a snippet.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSize
from PySide6.QtGui import QAbstractTextDocumentLayout, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from daycare_gui.stores.common.fts import MARK_CLOSE, MARK_OPEN, marked_snippet, plain_snippet


def snippet_plain(snippet: str) -> str:
    return plain_snippet(snippet, "", "")


def snippet_html(snippet: str) -> str:
    """Escaped text on one line with the matched terms in bold (secrets masked before they are marked)."""
    text = html.escape(" ".join(marked_snippet(snippet).split()), quote=False)
    # Markers come in pairs from snippet(); a stray one in stored text is dropped rather than left open.
    out, open_ = [], False
    for ch in text:
        if ch == MARK_OPEN and not open_:
            out.append("<b>")
            open_ = True
        elif ch == MARK_CLOSE and open_:
            out.append("</b>")
            open_ = False
        elif ch not in (MARK_OPEN, MARK_CLOSE):
            out.append(ch)
    if open_:
        out.append("</b>")
    return "".join(out)


class SnippetDelegate(QStyledItemDelegate):
    """Paints the cells whose model answers ``snippet_at(index)`` as rich text; everything else as usual."""

    def _doc(self, option, index) -> QTextDocument | None:
        snippet_at = getattr(index.model(), "snippet_at", None)
        snippet = snippet_at(index) if snippet_at is not None else None
        if snippet is None:
            return None
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(option.font)
        doc.setHtml(snippet_html(snippet))
        return doc

    def paint(self, painter, option, index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._doc(opt, index)
        if doc is None:
            super().paint(painter, option, index)
            return
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        group = QPalette.ColorGroup.Active if opt.state & QStyle.StateFlag.State_Active else QPalette.ColorGroup.Inactive
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(group, role))
        painter.save()
        top = rect.top() + max(0, (rect.height() - int(doc.size().height())) // 2)
        painter.translate(rect.left(), top)
        painter.setClipRect(0, 0, rect.width(), rect.height())
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), 22))
