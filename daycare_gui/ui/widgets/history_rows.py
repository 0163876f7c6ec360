"""The record list's row painter: time, a coloured kind badge, the one-line summary.

Rows have one fixed height so the list view can use uniform item sizes: Qt then asks only for the rows
on screen, which is what keeps a million-record session instant.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate

from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.history_model import kind_of
from daycare_gui.ui.models.roles import RecordRole, StateRole
from daycare_gui.ui.widgets.conversation import COLOURS, ERROR


class HistoryRowDelegate(QStyledItemDelegate):
    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        return QSize(200, QFontMetrics(option.font).height() + 8)

    def paint(self, painter, option, index) -> None:
        style = option.widget.style() if option.widget else None
        # background and selection from the style, text painted by hand
        opt = option.__class__(option)
        self.initStyleOption(opt, index)
        opt.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, option.widget)
        rec = index.data(RecordRole)
        state = index.data(StateRole)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        fg = option.palette.color(text_role)
        r = option.rect.adjusted(6, 0, -4, 0)
        fm = QFontMetrics(option.font)
        painter.save()
        if rec is None:
            painter.setPen(option.palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(r, Qt.AlignmentFlag.AlignVCenter, str(index.data() or "…"))
            painter.restore()
            return
        time_w = fm.horizontalAdvance("0000-00-00 00:00:00") + 10
        painter.setPen(fg if selected else QColor("#777777"))
        painter.drawText(QRect(r.left(), r.top(), time_w, r.height()), Qt.AlignmentFlag.AlignVCenter,
                         fmt_time(rec.at))
        family, label = kind_of(rec.type)
        bg, accent = COLOURS.get(family, COLOURS["other"])
        badge_w = fm.horizontalAdvance("Python → tool") + 12
        badge = QRect(r.left() + time_w, r.top() + 3, badge_w, r.height() - 6)
        painter.setRenderHint(painter.RenderHint.Antialiasing)
        painter.setBrush(QColor(ERROR if state == "problem" else bg))
        painter.setPen(QColor(accent))
        painter.drawRoundedRect(badge, 4, 4)
        painter.setPen(QColor("white") if state == "problem" else QColor(accent))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, label)
        painter.setPen(fg)
        rest = QRect(badge.right() + 8, r.top(), max(0, r.right() - badge.right() - 8), r.height())
        summary = fm.elidedText(rec.summary(300), Qt.TextElideMode.ElideRight, rest.width())
        painter.drawText(rest, Qt.AlignmentFlag.AlignVCenter, summary)
        painter.restore()
