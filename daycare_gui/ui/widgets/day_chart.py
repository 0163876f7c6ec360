"""A line chart of values per day, for any store kind: records per day, tokens per day per model, …

It takes neutral input — named series of ``(datetime.date, value)`` — so Daycare's overview (day starts in
epoch ms) and the shared overview of other kinds (``DayCount`` rows, ``day_count_series``) can both feed it.
Quiet days are drawn as zeros; past ``MAX_SERIES`` the smallest series are summed into one.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Iterable, Mapping, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen

from daycare_gui.stores.common.wording import compact_number, count, nice_ticks, plural_of
from daycare_gui.ui.theme import Colours
from daycare_gui.ui.widgets.chart_base import PAD, PaintedChart, draw_legend

MAX_SERIES = 6
MAX_FILLED_DAYS = 3660  # over ten years the quiet days are not added: the points are drawn as they are
LONG_SPAN_DAYS = 120  # beyond this a date label names the month and year only

DayPoints = Sequence[tuple[_dt.date, float]]


def day_label(day: _dt.date, long_span: bool = False) -> str:
    """``3 Feb 2026`` (or ``Feb 2026`` over a long span): the full year, never a two-digit one."""
    return f"{day.strftime('%b')} {day.year}" if long_span else f"{day.day} {day.strftime('%b')} {day.year}"


def day_count_series(rows: Iterable) -> dict[str, list[tuple[_dt.date, float]]]:
    """``DayCount`` rows (``day`` as YYYY-MM-DD, ``series``, ``value``) as DayChart input; bad days skipped."""
    out: dict[str, dict[_dt.date, float]] = {}
    for r in rows:
        try:
            day = _dt.date.fromisoformat(str(r.day)[:10])
        except ValueError:
            continue
        days = out.setdefault(r.series or "", {})
        days[day] = days.get(day, 0) + float(r.value)
    return {name: sorted(days.items()) for name, days in out.items()}


def _amount(value: float, unit: str) -> str:
    if float(value).is_integer():
        return count(int(value), unit)
    return f"{value:,.1f} {plural_of(unit)}"


class DayChart(PaintedChart):
    """One line per named series over the days from the first to the last; a shaded area when alone."""

    def __init__(self, title: str, empty_text: str, unit: str = "record", parent=None) -> None:
        super().__init__(title, empty_text, parent)
        self.unit = unit
        self.days: list[_dt.date] = []  # the x axis: every day from the first to the last
        self.series: dict[str, list[float]] = {}  # name -> one value per day in ``days``
        self.drawn_dates: list[str] = []  # the date labels the last paint could fit (for tests)
        self._xs: list[float] = []

    def is_empty(self) -> bool:
        return not self.days

    def _clear(self) -> None:
        self.days, self.series = [], {}

    @property
    def points(self) -> list[tuple[_dt.date, float]]:
        """(day, value) of the first series: what a one-series chart draws."""
        values = next(iter(self.series.values()), [])
        return list(zip(self.days, values))

    def set_points(self, points: DayPoints, name: str = "") -> None:
        self.set_series({name: points} if points else {})

    def set_series(self, series: Mapping[str, DayPoints]) -> None:
        """``series``: name -> (day, value) pairs; the name is shown in a legend when there are several."""
        series = {name: pts for name, pts in series.items() if pts}
        if len(series) > MAX_SERIES:  # lines stay readable: the smallest are summed into one
            ranked = sorted(series, key=lambda n: -sum(v for _d, v in series[n]))
            rest = ranked[MAX_SERIES - 1:]
            summed: dict[_dt.date, float] = {}
            for name in rest:
                for day, v in series[name]:
                    summed[day] = summed.get(day, 0) + v
            series = {n: series[n] for n in ranked[:MAX_SERIES - 1]}
            series[f"{len(rest)} others"] = sorted(summed.items())
        every = sorted({d for pts in series.values() for d, _v in pts})
        if every and (every[-1] - every[0]).days <= MAX_FILLED_DAYS:
            every = [every[0] + _dt.timedelta(days=i) for i in range((every[-1] - every[0]).days + 1)]
        self.days = every
        self.series = {}
        for name, pts in series.items():
            by_day: dict[_dt.date, float] = {}
            for d, v in pts:
                by_day[d] = by_day.get(d, 0) + v
            self.series[name] = [by_day.get(d, 0) for d in every]
        self._set_summary(series)
        self._data_arrived()

    def _set_summary(self, series: Mapping[str, DayPoints]) -> None:
        if not self.days:
            self.setToolTip("")
            return
        total = sum(v for pts in series.values() for _d, v in pts)
        active = len({d for pts in series.values() for d, v in pts if v})
        self.setToolTip(f"{_amount(total, self.unit)} over {count(active, 'active day')}, "
                        f"{self.days[0].isoformat()} to {self.days[-1].isoformat()}")

    def value_labels(self) -> list[str]:
        """The value axis: 0 to a round number just above the largest value, in short numbers (20M)."""
        return [compact_number(t) for t in self._ticks()]

    def _ticks(self) -> list[float]:
        return nice_ticks(max((max(v) for v in self.series.values()), default=0))

    def _paint(self, p: QPainter, area: QRectF, c: Colours) -> None:
        fm = QFontMetrics(self.font())
        line = fm.height()
        ticks = self._ticks()
        legend_h = line + PAD if len(self.series) > 1 or next(iter(self.series), "") else 0
        label_w = max(fm.horizontalAdvance(compact_number(t)) for t in ticks) + PAD
        plot = QRectF(area.left() + label_w, area.top() + line / 2, area.width() - label_w - PAD,
                      area.height() - line * 1.5 - PAD - legend_h)
        top = ticks[-1]
        for t in ticks:
            y = plot.bottom() - t / top * plot.height()
            p.setPen(self._grid_pen())
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(QColor(c.text))
            p.drawText(QRectF(area.left(), y - line / 2, label_w - PAD / 2, line),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, compact_number(t))
        n = len(self.days)
        step = plot.width() / max(1, n - 1)
        self._xs = [plot.left() + (i * step if n > 1 else plot.width() / 2) for i in range(n)]
        hues = self.series_colours()
        p.save()
        p.setClipRect(plot.adjusted(-4, -4, 4, 4))  # a negative value (a store's odd count) stays in the plot
        if n == 1:  # one day: a bar for each series, above the day's label (a line of one point was a lone dot)
            self._paint_one_day(p, plot, top, hues)
        for k, values in enumerate(self.series.values() if n > 1 else ()):
            colour = QColor(hues[k % len(hues)])
            ys = [plot.bottom() - v / top * plot.height() for v in values]
            path = QPainterPath(QPointF(self._xs[0], ys[0]))
            for x, y in zip(self._xs[1:], ys[1:]):
                path.lineTo(x, y)
            if len(self.series) == 1:
                fill = QPainterPath(path)
                fill.lineTo(self._xs[-1], plot.bottom())
                fill.lineTo(self._xs[0], plot.bottom())
                fill.closeSubpath()
                shade = QColor(colour)
                shade.setAlpha(50)
                p.fillPath(fill, shade)
            p.setPen(QPen(colour, 2))
            p.drawPath(path)
            if n <= 60:
                p.setBrush(colour)
                for x, y in zip(self._xs, ys):
                    p.drawEllipse(QPointF(x, y), 2.5, 2.5)
        p.restore()
        self._paint_dates(p, fm, area, plot, step, c)
        if legend_h:
            draw_legend(p, fm, QRectF(area.left(), area.bottom() - line, area.width(), line), c.text,
                        [(name or self.unit, hues[k % len(hues)]) for k, name in enumerate(self.series)])

    def _paint_one_day(self, p: QPainter, plot: QRectF, top: float, hues) -> None:
        count_ = len(self.series)
        width = min(48.0, plot.width() / 3) / max(1, count_)
        left = self._xs[0] - width * count_ / 2
        p.setPen(Qt.PenStyle.NoPen)
        for k, values in enumerate(self.series.values()):
            height = max(0.0, values[0]) / top * plot.height()
            p.setBrush(QColor(hues[k % len(hues)]))
            p.drawRect(QRectF(left + k * width, plot.bottom() - height, width - 2, height))

    def _paint_dates(self, p: QPainter, fm: QFontMetrics, area: QRectF, plot: QRectF, step: float,
                     c: Colours) -> None:
        """As many date labels as fit, evenly spaced from the first day, and the last one when there is room;
        over a long span, where labels name only the month, at the first day of every month (or of every
        second, third… where they would not fit), so that no month is named twice."""
        n = len(self.days)
        long_span = (self.days[-1] - self.days[0]).days > LONG_SPAN_DAYS
        p.setPen(QColor(c.text))
        widest = fm.horizontalAdvance(day_label(_dt.date(2000, 12, 28), long_span)) + 2 * PAD
        if long_span:
            starts = [i for i in range(1, n) if self.days[i].month != self.days[i - 1].month]
            if not starts or starts[0] >= 10:  # the first month's label only where it has room of its own
                starts.insert(0, 0)
            every = max(1, math.ceil(widest / (step * 30.4)))  # months between labels
            shown = starts[::every]
        else:
            every = max(1, math.ceil(widest / step)) if n > 1 else 1
            shown = list(range(0, n, every))
            if n > 1 and shown[-1] != n - 1 and (n - 1 - shown[-1]) >= 0.7 * every:
                shown.append(n - 1)
        self.drawn_dates = []
        drawn_to = -math.inf
        for i in shown:
            label = day_label(self.days[i], long_span)
            w = fm.horizontalAdvance(label)
            x = min(max(self._xs[i] - w / 2, area.left()), area.right() - w)
            if x < drawn_to + PAD:  # pushed against the edge into its neighbour: leave it out
                continue
            p.drawText(QRectF(x, plot.bottom() + PAD / 2, w, fm.height()), Qt.AlignmentFlag.AlignCenter, label)
            self.drawn_dates.append(label)
            drawn_to = x + w

    def _tip_at(self, pos: QPointF) -> str | None:
        if not self._xs:
            return None
        i = min(range(len(self._xs)), key=lambda j: abs(self._xs[j] - pos.x()))
        day = self.days[i].isoformat()
        if len(self.series) == 1:
            return f"{day}: {_amount(next(iter(self.series.values()))[i], self.unit)}"
        return "\n".join([day] + [f"  {name}: {_amount(values[i], self.unit)}" for name, values in self.series.items()])
