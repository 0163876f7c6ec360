"""The Overview's two charts: token usage per provider/model and history records per day.

QtCharts is an optional part of some PySide6 builds; when it does not import, each chart degrades to a small
read-only text table with the same numbers, so the Overview always shows them.
"""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from typing import Sequence

from PySide6.QtCore import QDateTime, QEvent, QMargins, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QStackedLayout,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from daycare_gui.core.display import compact_number, count, nice_ticks
from daycare_gui.ui.models.columns import fmt_int
from daycare_gui.ui.theme import colours, mix

LOADING_TEXT = "Loading…"
TOKEN_PARTS = (("Input", "input"), ("Output", "output"), ("Cache read", "cache_read"), ("Cache write", "cache_write"))


@lru_cache(maxsize=1)
def _qtcharts():
    """QtCharts, imported when the first chart is drawn (not with the Overview page), or None."""
    try:  # pragma: no cover - depends on the PySide6 build
        from PySide6 import QtCharts
    except Exception:  # noqa: BLE001 - any failure to load the module means "no charts"
        return None
    return QtCharts


def charts_available() -> bool:
    return _qtcharts() is not None


def _text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> QTableWidget:
    table = QTableWidget(len(rows), len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().hide()
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setStretchLastSection(True)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = QTableWidgetItem(text)
            if c > 0:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(r, c, item)
    table.resizeColumnsToContents()
    return table


class _ChartBox(QWidget):
    """A chart, or its text-table fallback, or a sentence when there is nothing to draw."""

    def __init__(self, title: str, empty_text: str, parent=None) -> None:
        super().__init__(parent)
        self.title = title
        self.empty_text = empty_text
        self.chart = None  # the QChart when QtCharts is available and there is data
        self.table: QTableWidget | None = None  # the fallback
        self._stack = QStackedLayout(self)
        # Until the store's answer arrives nothing is known: "no history" would be a claim, not a fact.
        self._empty = QLabel(LOADING_TEXT)
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setWordWrap(True)
        self._stack.addWidget(self._empty)
        self.setMinimumHeight(40)
        self.setMaximumHeight(60)
        self._data = None  # what was last drawn, to draw again in a new palette

    def changeEvent(self, event) -> None:  # noqa: N802 (Qt override)
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and self._data:
            self.redraw()

    def redraw(self) -> None:  # subclasses draw ``self._data`` again
        pass

    def _show(self, widget: QWidget) -> None:
        while self._stack.count() > 1:
            old = self._stack.widget(1)
            self._stack.removeWidget(old)
            old.deleteLater()
        self._stack.addWidget(widget)
        self._stack.setCurrentWidget(widget)
        self.setMinimumHeight(260)
        self.setMaximumHeight(16777215)

    @property
    def message(self) -> str:
        """The sentence shown instead of a chart (loading, nothing to draw, could not count), or ''."""
        return self._empty.text() if self._stack.currentWidget() is self._empty else ""

    def show_message(self, text: str) -> None:
        self._show_empty(text)

    def _show_empty(self, text: str | None = None) -> None:
        self._empty.setText(self.empty_text if text is None else text)
        self.chart = None
        self.table = None
        self._stack.setCurrentWidget(self._empty)
        self.setMinimumHeight(40)  # a sentence needs no chart-sized hole
        self.setMaximumHeight(60)

    def _new_chart(self):
        QtCharts = _qtcharts()  # noqa: N806 (the module)
        chart = QtCharts.QChart()
        # The chart's own theme is light whatever the desktop says: pick the one matching the palette,
        # then take the background and text colours from the palette itself.
        c = colours(self.palette())
        chart.setTheme(QtCharts.QChart.ChartTheme.ChartThemeDark if c.dark else QtCharts.QChart.ChartTheme.ChartThemeLight)
        chart.setBackgroundBrush(QBrush(QColor(c.base)))
        chart.setBackgroundPen(QPen(QColor(mix(c.base, c.text, 0.15))))
        chart.setTitleBrush(QBrush(QColor(c.text)))
        chart.legend().setLabelColor(QColor(c.text))
        chart.setTitle(self.title)
        chart.setMargins(QMargins(4, 4, 18, 4))  # room for the last axis label ("300k") at the right edge
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        view = QtCharts.QChartView(chart)
        view.setRenderHint(QPainter.RenderHint.Antialiasing)
        view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.chart = chart
        self._show(view)
        return chart

    def _style_axes(self) -> None:
        """Axis labels, titles and grid lines in the palette's colours (after the axes are added)."""
        c = colours(self.palette())
        for axis in self.chart.axes():
            axis.setLabelsBrush(QBrush(QColor(c.text)))
            axis.setTitleBrush(QBrush(QColor(c.text)))
            axis.setLinePenColor(QColor(c.meta))
            axis.setGridLineColor(QColor(mix(c.base, c.text, 0.15)))


def count_axis(maximum: float, title: str = ""):
    """A value axis from 0 with round ticks labelled 0, 500, 1k, 20M…: a raw "20000000" is hard to read."""
    QtCharts = _qtcharts()  # noqa: N806 (the module)
    axis = QtCharts.QCategoryAxis()
    axis.setLabelsPosition(QtCharts.QCategoryAxis.AxisLabelsPosition.AxisLabelsPositionOnValue)
    ticks = nice_ticks(maximum)
    axis.setStartValue(0)
    for tick in ticks:
        axis.append(compact_number(tick), tick)
    axis.setRange(0, ticks[-1])
    if title:
        axis.setTitleText(title)
    return axis


class TokenUsageChart(_ChartBox):
    """Stacked horizontal bars: one per provider/model, split into input, output and cache tokens."""

    def __init__(self, parent=None) -> None:
        super().__init__("Token usage by provider and model",
                         "No token usage recorded in the agents' stats.", parent)

    def redraw(self) -> None:
        self.set_usage(self._data)

    def set_usage(self, usage: Sequence) -> None:
        """``usage``: TokenUsage records (provider, model, size), largest first."""
        self._data = usage
        if not usage:
            self._show_empty()
            return
        labels = [f"{u.provider} / {u.model}" for u in usage]
        QtCharts = _qtcharts()  # noqa: N806 (the module)
        if QtCharts is None:
            self.table = _text_table(["Provider / model", *[t for t, _ in TOKEN_PARTS], "Total"],
                                     [[label, *[fmt_int(getattr(u.size, a)) for _, a in TOKEN_PARTS],
                                       fmt_int(u.size.total)] for label, u in zip(labels, usage)])
            self._show(self.table)
            return
        chart = self._new_chart()
        series = QtCharts.QHorizontalStackedBarSeries()
        # Bars read top to bottom largest first: a horizontal category axis starts at the bottom.
        ordered = list(reversed(list(zip(labels, usage))))
        for title, attr in TOKEN_PARTS:
            bar_set = QtCharts.QBarSet(title)
            for _label, u in ordered:
                bar_set.append(float(getattr(u.size, attr)))
            series.append(bar_set)
        chart.addSeries(series)
        categories = QtCharts.QBarCategoryAxis()
        categories.append([label for label, _ in ordered])
        values = count_axis(max(u.size.total for u in usage), "tokens")
        chart.addAxis(categories, Qt.AlignmentFlag.AlignLeft)
        chart.addAxis(values, Qt.AlignmentFlag.AlignBottom)
        series.attachAxis(categories)
        series.attachAxis(values)
        self._style_axes()
        self.setToolTip("\n".join(f"{label}: {fmt_int(u.size.total)} tokens" for label, u in zip(labels, usage)))


class ActivityChart(_ChartBox):
    """History records per day, as a line over dates."""

    def __init__(self, parent=None) -> None:
        super().__init__("Activity: conversation records per day", "No conversation history yet.", parent)

    def redraw(self) -> None:
        self.set_days(self._data)

    def set_days(self, days: Sequence[tuple[int, int]]) -> None:
        self._data = days
        if not days:
            self._show_empty()
            return
        QtCharts = _qtcharts()  # noqa: N806 (the module)
        if QtCharts is None:
            self.table = _text_table(["Day", "Records"], [[_day(ms), fmt_int(n)] for ms, n in days])
            self._show(self.table)
            return
        chart = self._new_chart()
        chart.legend().hide()
        series = QtCharts.QLineSeries()
        series.setName("records")
        series.setPointsVisible(len(days) <= 60)
        for ms, n in _with_quiet_days(days):
            series.append(float(ms), float(n))
        chart.addSeries(series)
        dates = QtCharts.QDateTimeAxis()
        first, last = days[0][0], days[-1][0]
        # four-digit years; over a long span the day number is noise, the month and year are what matter
        dates.setFormat("d MMM yyyy" if last - first <= 120 * DAY_MS else "MMM yyyy")
        dates.setTickCount(min(8, max(2, len(days))))
        if first == last:  # one day: give the axis a width so the point is visible
            first, last = first - 86_400_000, last + 86_400_000
        dates.setRange(QDateTime.fromMSecsSinceEpoch(first), QDateTime.fromMSecsSinceEpoch(last))
        counts = count_axis(max(n for _, n in days))
        chart.addAxis(dates, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(counts, Qt.AlignmentFlag.AlignLeft)
        series.attachAxis(dates)
        series.attachAxis(counts)
        self._style_axes()
        total = sum(n for _, n in days)
        self.setToolTip(f"{count(total, 'record')} over {count(len(days), 'active day')}, "
                        f"{_day(days[0][0])} to {_day(days[-1][0])}")


DAY_MS = 86_400_000


def _with_quiet_days(days: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Add the days without records as zeros, so the line drops to 0 instead of bridging quiet days."""
    if not days or (days[-1][0] - days[0][0]) // DAY_MS > 3660:  # over ten years: leave the points as they are
        return list(days)
    by_day = dict(days)
    return [(ms, by_day.get(ms, 0)) for ms in range(days[0][0], days[-1][0] + 1, DAY_MS)]


def _day(ms: int) -> str:
    try:
        return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        return str(ms)
