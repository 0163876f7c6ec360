"""Issue #34: a chart of counts reads as counts — whole-number ticks (no 2.5 or 7.5 records) — and a store
with one day of activity shows a bar over that day on an axis, not a lone dot."""

from __future__ import annotations

import datetime as _dt

import pytest
from PySide6.QtGui import QColor

from daycare_gui.ui.widgets.charts import ActivityChart, TokenUsageChart


def _ms(day: _dt.date) -> int:
    return int(_dt.datetime(day.year, day.month, day.day, tzinfo=_dt.timezone.utc).timestamp() * 1000)


@pytest.mark.parametrize("largest", [6, 12, 13, 18])
def test_count_axes_have_whole_number_ticks(qtbot, largest):
    chart = ActivityChart()
    qtbot.addWidget(chart)
    start = _dt.date(2026, 3, 1)
    chart.set_days([(_ms(start), 1), (_ms(start + _dt.timedelta(days=1)), largest)])
    labels = chart.value_labels()
    assert all(label.isdigit() for label in labels), labels
    assert int(labels[-1]) >= largest


def test_token_bars_have_whole_number_ticks(qtbot):
    chart = TokenUsageChart()
    qtbot.addWidget(chart)
    chart.set_rows([("model-a", (6, 6))])  # 12 tokens: the step was 2.5
    assert all(label.isdigit() for label in chart.value_labels()), chart.value_labels()


def test_one_day_of_activity_is_a_bar_over_its_labelled_day(qtbot):
    chart = ActivityChart()
    qtbot.addWidget(chart)
    chart.resize(500, 220)
    day = _dt.date(2026, 11, 20)
    chart.set_days([(_ms(day), 7)])
    chart.show()
    qtbot.waitExposed(chart)
    image = chart.grab().toImage()
    colour = QColor(chart.series_colours()[0])
    painted = sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
                  if _near(image.pixelColor(x, y), colour))
    assert painted > 150, f"{painted} pixels of the series colour (a lone dot is a handful)"
    assert len(chart.drawn_dates) == 1  # the day is named under it
    assert chart.value_labels()[0] == "0" and int(chart.value_labels()[-1]) >= 7


def _near(a: QColor, b: QColor) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 30
