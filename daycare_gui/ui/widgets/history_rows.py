"""The record list's row painter: time, a coloured kind badge, the one-line summary.

Rows have one fixed height so the list view can use uniform item sizes: Qt then asks only for the rows
on screen, which is what keeps a million-record session instant.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate

from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.history_model import kind_of
from daycare_gui.ui.models.roles import RecordRole, StateRole
from daycare_gui.ui.theme import colours


class HistoryRowDelegate(QStyledItemDelegate):
    """Paints one row from the record alone: no display-role strings are built per paint, text of rows
    already seen comes from a small cache, and font metrics are measured once per font."""

    TEXT_CACHE = 2000  # rows' (time, summary) strings kept; about 10 screens

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._texts: OrderedDict[int, tuple[str, str]] = OrderedDict()
        self._metrics_key = None
        self._metrics: tuple[QFontMetrics, int, int] | None = None

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        return QSize(200, QFontMetrics(option.font).height() + 8)

    def _measure(self, font) -> tuple[QFontMetrics, int, int]:
        key = font.key()
        if key != self._metrics_key:
            fm = QFontMetrics(font)
            self._metrics_key = key
            self._metrics = (fm, fm.horizontalAdvance("0000-00-00 00:00:00") + 10,
                             fm.horizontalAdvance("Python → tool") + 12)
        return self._metrics

    def _text(self, rec) -> tuple[str, str]:
        key = rec.id if rec.id is not None else id(rec)
        texts = self._texts.get(key)
        if texts is None:
            texts = (fmt_time(rec.at), rec.summary(300))
            self._texts[key] = texts
            if len(self._texts) > self.TEXT_CACHE:
                self._texts.popitem(last=False)
        return texts

    def paint(self, painter, option, index) -> None:
        widget = option.widget
        style = widget.style() if widget else None
        # selection/hover background straight from the style; no initStyleOption (it would ask the
        # model for every role, building strings we then throw away)
        if style is not None:
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, widget)
        rec = index.data(RecordRole)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        fg = option.palette.color(text_role)
        r = option.rect.adjusted(6, 0, -4, 0)
        fm, time_w, badge_w = self._measure(option.font)
        painter.save()
        if rec is None:
            painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(r, Qt.AlignmentFlag.AlignVCenter, str(index.data() or "…"))
            painter.restore()
            return
        state = index.data(StateRole)
        time_text, summary_text = self._text(rec)
        c = colours(option.palette)
        painter.setPen(fg if selected else QColor(c.meta))
        painter.drawText(QRect(r.left(), r.top(), time_w, r.height()), Qt.AlignmentFlag.AlignVCenter, time_text)
        family, label = kind_of(rec.type)
        bg, accent = c.family(family)
        badge = QRect(r.left() + time_w, r.top() + 3, badge_w, r.height() - 6)
        painter.setRenderHint(painter.RenderHint.Antialiasing)
        painter.setBrush(QColor(c.error_badge if state == "problem" else bg))
        painter.setPen(QColor(accent))
        painter.drawRoundedRect(badge, 4, 4)
        painter.setPen(QColor(c.error_badge_text if state == "problem" else accent))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, label)
        painter.setPen(fg)
        rest = QRect(badge.right() + 8, r.top(), max(0, r.right() - badge.right() - 8), r.height())
        painter.drawText(rest, Qt.AlignmentFlag.AlignVCenter,
                         fm.elidedText(summary_text, Qt.TextElideMode.ElideRight, rest.width()))
        painter.restore()
