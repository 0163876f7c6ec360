"""The record list's row painter: time, a coloured kind badge, the one-line summary.

Rows have one fixed height so the list view can use uniform item sizes: Qt then asks only for the rows
on screen, which is what keeps a million-record session instant.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QPointF, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPalette, QPixmap, QStaticText
from PySide6.QtWidgets import QStyle, QStyledItemDelegate

from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.history_model import kind_of
from daycare_gui.ui.theme import colours

# Looked up once: every Qt enum or colour reached through its class costs a Python call per use, and a
# screen of rows paints dozens of times a second while scrolling. (Reaching them here also creates
# PySide's enum types at import, in idle time, rather than during the first paint.)
_PANEL = QStyle.PrimitiveElement.PE_PanelItemViewItem
_SELECTED = QStyle.StateFlag.State_Selected
_HIGHLIT = QStyle.StateFlag.State_Selected | QStyle.StateFlag.State_MouseOver
_VCENTER = Qt.AlignmentFlag.AlignVCenter
_CENTER = Qt.AlignmentFlag.AlignCenter
_ELIDE = Qt.TextElideMode.ElideRight
_PLAIN = Qt.TextFormat.PlainText
_TRANSPARENT = Qt.GlobalColor.transparent
_ANTIALIAS = QPainter.RenderHint.Antialiasing
_TEXT = QPalette.ColorRole.Text
_HIGHLIGHTED = QPalette.ColorRole.HighlightedText
_PLACEHOLDER = QPalette.ColorRole.PlaceholderText


def _static(text: str) -> QStaticText:
    st = QStaticText(text)
    st.setTextFormat(_PLAIN)
    return st


class HistoryRowDelegate(QStyledItemDelegate):
    """Paints one row from the record alone. Text goes through QStaticText (laid out once per row, not on
    every paint: QPainter.drawText lays the string out each time, which was most of a scroll's cost), the
    kind badge is a pixmap drawn once per kind and size, and the row's entry comes from the model in one
    call instead of item-data round trips."""

    TEXT_CACHE = 600  # rows' laid-out strings kept; a few screens

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._texts: OrderedDict[int, list] = OrderedDict()  # key → [time, summary, width, elided (static)]
        self._badges: dict[tuple, QPixmap] = {}
        self._placeholders: dict[str, QStaticText] = {}
        self._metrics_key = None
        self._metrics: tuple[QFontMetrics, int, int] | None = None
        self._palette_key = None
        self._colours = None  # the palette's Colours, and its meta text colour as a QColor
        self._meta: QColor | None = None

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        return QSize(200, QFontMetrics(option.font).height() + 8)

    def _measure(self, font) -> tuple[QFontMetrics, int, int]:
        key = font.key()
        if key != self._metrics_key:
            fm = QFontMetrics(font)
            self._metrics_key = key
            self._metrics = (fm, fm.horizontalAdvance("0000-00-00 00:00:00") + 10,
                             fm.horizontalAdvance("Python → tool") + 12)
            self._texts.clear()  # laid out with the old font
            self._badges.clear()
            self._placeholders.clear()
        return self._metrics

    def _theme(self, palette):
        """The palette's colours, worked out again only when the palette changes (light ↔ dark)."""
        key = palette.cacheKey()
        if key != self._palette_key:
            self._palette_key = key
            self._colours = colours(palette)
            self._meta = QColor(self._colours.meta)
            self._badges.clear()
        return self._colours

    def _text(self, rec) -> list:
        key = rec.id if rec.id is not None else id(rec)
        texts = self._texts.get(key)
        if texts is None:
            texts = [_static(fmt_time(rec.at)), rec.summary(300), -1, None]
            self._texts[key] = texts
            if len(self._texts) > self.TEXT_CACHE:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return texts

    def _badge(self, family: str, label: str, problem: bool, width: int, height: int, font, ratio: float):
        key = (family, label, problem, width, height, ratio)
        pixmap = self._badges.get(key)
        if pixmap is None:
            c = self._colours
            bg, accent = c.family(family)
            pixmap = QPixmap(round(width * ratio), round(height * ratio))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(_TRANSPARENT)
            p = QPainter(pixmap)
            p.setRenderHint(_ANTIALIAS)
            p.setFont(font)
            p.setBrush(QColor(c.error_badge if problem else bg))
            p.setPen(QColor(accent))
            p.drawRoundedRect(QRect(0, 0, width - 1, height - 1), 4, 4)
            p.setPen(QColor(c.error_badge_text if problem else accent))
            p.drawText(QRect(0, 0, width, height), _CENTER, label)
            p.end()
            self._badges[key] = pixmap
        return pixmap

    def warm_up(self, font, palette, row_height: int, ratio: float) -> None:
        """Make every kind's badge and lay out a line of text now (the first of each costs a few ms: glyph
        caches, antialiased painting), so the first page painted does not pay for them."""
        from daycare_gui.ui.models.history_model import KINDS

        fm, time_w, badge_w = self._measure(font)
        self._theme(palette)
        for family, label in KINDS.values():
            for problem in (False, True):
                self._badge(family, label, problem, badge_w, row_height - 6, font, ratio)
        image = QPixmap(max(1, round(400 * ratio)), max(1, round(row_height * ratio)))
        image.setDevicePixelRatio(ratio)
        painter = QPainter(image)
        painter.setFont(font)
        painter.drawStaticText(QPointF(0, 0), _static(fm.elidedText("2026-01-01 00:00:00 warm up " * 20, _ELIDE, 380)))
        painter.end()

    def paint(self, painter, option, index) -> None:
        widget = option.widget
        state_flags = option.state
        # selection/hover background straight from the style (nothing to draw for a plain row); no
        # initStyleOption, which would ask the model for every role
        if widget is not None and state_flags & _HIGHLIT:
            widget.style().drawPrimitive(_PANEL, option, painter, widget)
        rec, state = index.model().paint_entry(index.row())
        r = option.rect.adjusted(6, 0, -4, 0)
        font = option.font
        fm, time_w, badge_w = self._measure(font)
        left, top, height = r.left(), r.top(), r.height()
        y = top + (height - fm.height()) / 2
        painter.save()
        painter.setFont(font)
        if rec is None:  # the row's page is on its way: "…" (every row of a fast scroll paints this first)
            placeholder = self._placeholders.get(state)
            if placeholder is None:
                placeholder = self._placeholders[state] = _static(state)
            painter.setPen(option.palette.color(_PLACEHOLDER))
            painter.drawStaticText(QPointF(left, y), placeholder)
            painter.restore()
            return
        selected = bool(state_flags & _SELECTED)
        fg = option.palette.color(_HIGHLIGHTED if selected else _TEXT)
        self._theme(option.palette)
        texts = self._text(rec)
        painter.setPen(fg if selected else self._meta)
        painter.drawStaticText(QPointF(left, y), texts[0])
        family, label = kind_of(rec.type)
        painter.drawPixmap(left + time_w, top + 3, self._badge(family, label, state == "problem", badge_w,
                                                                height - 6, font, painter.device().devicePixelRatioF()))
        x = left + time_w + badge_w + 8
        width = max(0, r.right() - x)
        if texts[2] != width:
            texts[2], texts[3] = width, _static(fm.elidedText(texts[1], _ELIDE, width))
        painter.setPen(fg)
        painter.drawStaticText(QPointF(x, y), texts[3])
        painter.restore()
