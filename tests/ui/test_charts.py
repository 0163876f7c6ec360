"""The charts are painted by the application itself: bars and lines a user can read, axes with round numbers
and full dates, a sentence when there is nothing to draw, and a per-day chart any store kind can feed."""

from __future__ import annotations

import datetime as _dt

from PySide6.QtGui import QColor

from daycare_gui.stores.daycare.records.agents import TokenSize
from daycare_gui.stores.daycare.sqlite.queries.overview import TokenUsage
from daycare_gui.stores.records import DayCount
from daycare_gui.ui.widgets.charts import DAY_MS, MAX_BARS, ActivityChart, TokenUsageChart
from daycare_gui.ui.widgets.day_chart import MAX_SERIES, DayChart, day_count_series, day_label

DAY0 = 1_769_472_000_000  # 27 Jan 2026, 00:00 UTC
JAN27 = _dt.date(2026, 1, 27)


def _usage(n, scale=1000):
    return [TokenUsage("prov", f"model-{i}", TokenSize(scale * (n - i), scale, scale // 2, scale // 4,
                                                       scale * (n - i) + scale + scale // 2 + scale // 4))
            for i in range(n)]


def _pixels(widget, colour: str) -> int:
    image = widget.grab().toImage()
    want = QColor(colour).rgb()
    return sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
               if image.pixel(x, y) == want)


def test_token_bars_are_drawn_largest_first_with_every_part(qtbot):
    chart = TokenUsageChart()
    qtbot.addWidget(chart)
    chart.resize(700, 300)
    chart.set_usage(_usage(3))
    assert [label for label, _v in chart.rows] == ["prov / model-0", "prov / model-1", "prov / model-2"]
    assert chart.rows[0][1] == (3000, 1000, 500, 250)
    for colour in chart.series_colours()[:4]:  # input, output, cache read, cache write: each visible
        assert _pixels(chart, colour) > 20, colour
    assert "prov / model-0: 4,750 tokens" in chart.toolTip()
    assert chart.value_labels() == ["0", "1k", "2k", "3k", "4k", "5k"]


def test_many_models_keep_readable_bars(qtbot):
    chart = TokenUsageChart()
    qtbot.addWidget(chart)
    chart.set_usage(_usage(30))
    assert len(chart.rows) == MAX_BARS
    label, values = chart.rows[-1]
    assert label == f"{30 - MAX_BARS + 1} others"
    assert values[1] == (30 - MAX_BARS + 1) * 1000  # their output tokens, summed


def test_activity_line_with_quiet_days_as_zeros(qtbot):
    chart = ActivityChart()
    qtbot.addWidget(chart)
    chart.resize(700, 280)
    chart.set_days([(DAY0, 5), (DAY0 + 3 * DAY_MS, 12)])
    days = [JAN27 + _dt.timedelta(days=i) for i in range(4)]
    assert chart.points == list(zip(days, [5, 0, 0, 12]))
    assert _pixels(chart, chart.series_colours()[0]) > 50
    assert chart.toolTip() == "17 records over 2 active days, 2026-01-27 to 2026-01-30"
    assert chart.drawn_dates[0] == "27 Jan 2026"


def test_loading_then_nothing_to_draw_or_why_not_is_a_sentence(qtbot):
    for chart in (TokenUsageChart(), ActivityChart()):
        qtbot.addWidget(chart)
        assert chart.message == "Loading…"  # before the store's answer: no claim either way
        chart.set_usage([]) if isinstance(chart, TokenUsageChart) else chart.set_days([])
        assert chart.is_empty() and chart.message == chart.empty_text and chart.maximumHeight() <= 60
        assert all(_pixels(chart, c) == 0 for c in chart.series_colours())
    chart = ActivityChart()
    qtbot.addWidget(chart)
    chart.set_days([(DAY0, 5)])
    assert chart.message == ""
    chart.show_message("Could not count activity: database is locked")
    assert chart.is_empty() and chart.message == "Could not count activity: database is locked"


def test_axis_numbers_are_short_and_dates_have_their_year(qtbot):
    chart = ActivityChart()
    qtbot.addWidget(chart)
    chart.resize(700, 280)
    chart.set_days([(DAY0 + i * DAY_MS, 20_000_000 if i == 3 else 1_000) for i in range(10)])
    assert "20M" in chart.value_labels() and not any("000" in t for t in chart.value_labels())
    chart.grab()
    assert chart.drawn_dates and all(label.endswith(" 2026") for label in chart.drawn_dates)
    assert day_label(JAN27) == "27 Jan 2026" and day_label(JAN27, long_span=True) == "Jan 2026"


def test_a_long_span_names_each_month_once_at_its_first_day(qtbot):
    """Over more than four months the labels name the month only: one label a month (or every second,
    third… month where they would not fit), never the same month twice."""
    for width in (1400, 700, 300):
        chart = ActivityChart()
        qtbot.addWidget(chart)
        chart.resize(width, 280)
        chart.set_days([(DAY0 + i * DAY_MS, 1 + i % 7) for i in range(0, 300, 3)])  # 27 Jan to 19 Nov 2026
        chart.grab()
        labels = chart.drawn_dates
        assert labels and len(labels) == len(set(labels)), (width, labels)
        months = [_dt.datetime.strptime(label, "%b %Y").month for label in labels]
        assert months == sorted(months) and months[-1] >= 9, (width, labels)
        if width == 1400:  # (January's five days leave no room for its name beside February's)
            assert labels == [f"{m} 2026" for m in ("Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                                      "Nov")]


def test_day_chart_takes_any_kinds_day_counts_as_series(qtbot):
    """The shared overview's DayCount rows (e.g. tokens per day per model) feed the same chart."""
    rows = [DayCount("2026-01-27", "gpt-5", 1200), DayCount("2026-01-29", "gpt-5", 300),
            DayCount("2026-01-28", "claude", 50), DayCount("not a day", "gpt-5", 9)]
    chart = DayChart("Tokens per day", "No tokens recorded.", unit="token")
    qtbot.addWidget(chart)
    chart.resize(700, 280)
    chart.set_series(day_count_series(rows))
    assert chart.days == [JAN27 + _dt.timedelta(days=i) for i in range(3)]
    assert chart.series == {"gpt-5": [1200, 0, 300], "claude": [0, 50, 0]}
    hues = chart.series_colours()
    assert _pixels(chart, hues[0]) > 20 and _pixels(chart, hues[1]) > 5  # a line each, and the legend
    assert chart.toolTip() == "1,550 tokens over 3 active days, 2026-01-27 to 2026-01-29"
    many = {f"m{i}": [(JAN27, float(i + 1))] for i in range(10)}
    chart.set_series(many)
    assert len(chart.series) == MAX_SERIES and chart.series[f"{10 - MAX_SERIES + 1} others"] == [15.0]


def test_a_drawn_chart_follows_a_switch_to_a_dark_palette(qtbot, qapp):
    from PySide6.QtGui import QPalette

    from daycare_gui.ui.theme import dark_palette

    chart = ActivityChart()
    qtbot.addWidget(chart)
    chart.resize(500, 260)
    chart.set_days([(DAY0, 5), (DAY0 + DAY_MS, 7)])
    before = QPalette(qapp.palette())
    light = chart.grab().toImage().pixelColor(2, 2).name()
    try:
        qapp.setPalette(dark_palette())
        qtbot.waitUntil(lambda: chart.grab().toImage().pixelColor(2, 2).name() == "#1e1e1e", timeout=5000)
    finally:
        qapp.setPalette(before)
    assert light != "#1e1e1e"
