"""The Daycare Overview's two charts, painted with QPainter: token usage per provider/model and records per day.

The numbers they draw are public (``rows``; ``days``/``series``/``points``) for tests and for the tooltip
of the whole chart. The per-day chart is the shared ``DayChart``; other kinds' overviews can use it too.
"""

from __future__ import annotations

import datetime as _dt
from typing import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter

from daycare_gui.stores.common.wording import compact_number, nice_ticks
from daycare_gui.ui.models.columns import fmt_int
from daycare_gui.ui.theme import Colours
from daycare_gui.ui.widgets.chart_base import LOADING_TEXT, PAD, PaintedChart, draw_legend
from daycare_gui.ui.widgets.day_chart import DayChart

__all__ = ["ActivityChart", "DAY_MS", "LOADING_TEXT", "MAX_BARS", "StackedBarChart", "TOKEN_PARTS",
           "TokenUsageChart", "day_of_ms"]

TOKEN_PARTS = (("Input", "input"), ("Output", "output"), ("Cache read", "cache_read"), ("Cache write", "cache_write"))
DAY_MS = 86_400_000
MAX_BARS = 12


class StackedBarChart(PaintedChart):
    """Horizontal bars, largest on top, each split into the same ``parts``; past ``MAX_BARS`` the smallest
    are summed into one "N others" bar."""

    def __init__(self, title: str, empty_text: str, parts: Sequence[str], unit: str, parent=None) -> None:
        super().__init__(title, empty_text, parent)
        self.parts = tuple(parts)
        self.unit = unit
        self.rows: list[tuple[str, tuple[int, ...]]] = []  # (label, one value per part)
        self._bars: list[QRectF] = []

    def is_empty(self) -> bool:
        return not self.rows

    def _clear(self) -> None:
        self.rows = []

    def set_rows(self, rows: Sequence[tuple[str, Sequence[int]]]) -> None:
        rows = [(label, tuple(int(v) for v in values)) for label, values in rows]
        if len(rows) > MAX_BARS:  # bars stay readable
            rest = rows[MAX_BARS - 1:]
            rows = rows[:MAX_BARS - 1] + [(f"{len(rest)} others", tuple(map(sum, zip(*(v for _l, v in rest)))))]
        self.rows = rows
        self._data_arrived()

    def value_labels(self) -> list[str]:
        return [compact_number(t) for t in nice_ticks(max((sum(v) for _l, v in self.rows), default=0))]

    def _paint(self, p: QPainter, area: QRectF, c: Colours) -> None:
        fm = QFontMetrics(self.font())
        line = fm.height()
        legend_h = line + PAD
        axis_h = line + PAD / 2
        label_w = min(area.width() * 0.4, max(fm.horizontalAdvance(label) for label, _v in self.rows) + PAD)
        plot = QRectF(area.left() + label_w, area.top(), area.width() - label_w - PAD,
                      area.height() - axis_h - legend_h)
        ticks = nice_ticks(max(sum(v) for _l, v in self.rows))
        scale = plot.width() / ticks[-1]
        text = QColor(c.text)
        for t in ticks:  # grid and value axis
            x = plot.left() + t * scale
            p.setPen(self._grid_pen())
            p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            p.setPen(text)
            label = compact_number(t)
            w = fm.horizontalAdvance(label)
            p.drawText(QRectF(x - w / 2 - 2, plot.bottom() + 2, w + 4, line), Qt.AlignmentFlag.AlignCenter, label)
        hues = self.series_colours()
        slot = plot.height() / len(self.rows)
        bar_h = max(4.0, min(28.0, slot * 0.7))
        self._bars = []
        for i, (label, values) in enumerate(self.rows):
            y = plot.top() + i * slot + (slot - bar_h) / 2
            x = plot.left()
            for k, value in enumerate(values):
                w = value * scale
                if w > 0:
                    p.fillRect(QRectF(x, y, w, bar_h), QColor(hues[k % len(hues)]))
                x += w
            self._bars.append(QRectF(area.left(), y, plot.right() - area.left(), bar_h))
            p.setPen(text)
            shown = fm.elidedText(label, Qt.TextElideMode.ElideMiddle, int(label_w - PAD))
            p.drawText(QRectF(area.left(), y, label_w - PAD, bar_h),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, shown)
        draw_legend(p, fm, QRectF(area.left(), area.bottom() - line, area.width(), line), c.text,
                    [(part, hues[k % len(hues)]) for k, part in enumerate(self.parts)])

    def _tip_at(self, pos: QPointF) -> str | None:
        for bar, (label, values) in zip(self._bars, self.rows):
            if bar.contains(pos):
                parts = "\n".join(f"  {part}: {fmt_int(v)}" for part, v in zip(self.parts, values))
                return f"{label}: {fmt_int(sum(values))} {self.unit}\n{parts}"
        return None


class TokenUsageChart(StackedBarChart):
    """One bar per provider/model, split into input, output and cache tokens."""

    def __init__(self, parent=None) -> None:
        super().__init__("Token usage by provider and model", "No token usage recorded in the agents' stats.",
                         [title for title, _a in TOKEN_PARTS], "tokens", parent)

    def set_usage(self, usage: Sequence) -> None:
        """``usage``: TokenUsage records (provider, model, size), largest first."""
        self.set_rows([(f"{u.provider} / {u.model}", [getattr(u.size, a) for _t, a in TOKEN_PARTS]) for u in usage])
        self.setToolTip("\n".join(f"{u.provider} / {u.model}: {fmt_int(u.size.total)} tokens" for u in usage))


class ActivityChart(DayChart):
    """History records per day, as a line over dates; another kind's overview names what it counts."""

    def __init__(self, parent=None, *, what: str = "conversation records",
                 none: str = "No conversation history yet.", unit: str = "record") -> None:
        super().__init__(f"Activity: {what} per day", none, unit, parent)

    def set_days(self, days: Sequence[tuple[int, int]]) -> None:
        """``days``: (start of the day in epoch ms, UTC; records that day)."""
        points = [(d, n) for d, n in ((day_of_ms(ms), n) for ms, n in days) if d is not None]
        self.set_points(points)


def day_of_ms(ms: int) -> _dt.date | None:
    try:
        return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).date()
    except (OverflowError, OSError, ValueError):
        return None
