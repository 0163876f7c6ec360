"""Issue 15, "look right": numbers, times and sizes in the user's locale (QLocale), while every sort still
orders by the raw values."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from PySide6.QtCore import QLocale, Qt
from PySide6.QtTest import QAbstractItemModelTester

from daycare_gui.ui import formats
from daycare_gui.ui.models.columns import fmt_int, fmt_time
from daycare_gui.ui.models.roles import RecordRole
from tests.ui.conftest import open_and_wait

GERMAN_DATE_TIME = re.compile(r"^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$")


@pytest.fixture
def german(qapp):
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    yield
    QLocale.setDefault(before)


def _ms(*parts) -> int:
    return int(dt.datetime(*parts).timestamp() * 1000)


def test_numbers_and_counts_in_german(german):
    assert formats.number(1234567) == fmt_int(1234567) == "1.234.567"
    assert formats.number(0.843) == "0,843"
    assert formats.count(1234567, "entity") == "1.234.567 entities"
    from daycare_gui.ui.panes.generic.collection import _text

    assert _text(1234567) == "1.234.567" and _text(0.5) == "0,5"
    # a store's JSON may hold numbers past a float's range (1e400) or NaN: shown, never an OverflowError
    assert (_text(float("inf")), _text(float("-inf")), _text(float("nan"))) == ("∞", "-∞", "NaN")
    from daycare_gui.stores.records import DayCount
    from daycare_gui.ui.panes.generic.overview import day_totals

    assert day_totals([DayCount("2026-01-02", "", float("inf")), DayCount("2026-01-03", "", 2.0)]) == [(1767398400000, 2)]


def test_dates_in_the_locales_order(german):
    ms = _ms(2026, 2, 3, 14, 5, 6)
    assert fmt_time(ms) == "03.02.2026 14:05:06"  # day, month, four-digit year
    assert fmt_time(ms, seconds=False) == "03.02.2026 14:05"
    assert formats.date_time_of(dt.datetime(2026, 2, 3, 7, 0), weekday=True).endswith("03.02.2026 07:00")
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    us = fmt_time(ms)
    assert us.startswith("2/3/2026") and "PM" in us and formats.number(1234567) == "1,234,567"


def test_the_c_locale_keeps_the_english_forms(qapp):
    before = QLocale()
    QLocale.setDefault(QLocale.c())
    try:
        assert formats.number(1234567) == "1,234,567"
        assert fmt_time(_ms(2026, 2, 3, 14, 5, 6)) == "2026-02-03 14:05:06"
    finally:
        QLocale.setDefault(before)


LOCALES = [QLocale.c(), QLocale("de_DE"), QLocale("en_US"), QLocale("fr_CA"), QLocale("ar_EG"), QLocale("ja_JP")]


@pytest.mark.parametrize("locale", LOCALES, ids=lambda loc: loc.name())
def test_a_rows_time_reads_as_the_time_formatted_in_full(qapp, locale):
    """The row painter writes times from each minute's text around its seconds: it must read exactly as
    the time formatted from scratch, whatever the locale writes (12-hour clocks with the seconds inside,
    Arabic digits, which are not split), for records seconds apart and for times at a minute's edges."""
    before = QLocale()
    QLocale.setDefault(locale)
    try:
        when = formats.date_time_formatter()
        full = formats._date_time_pattern(True).text
        start = _ms(2026, 2, 3, 23, 58, 30)
        times = [*range(start, start + 240_000, 1_237), start + 29_999, start + 30_000, start + 89_999,
                 0, 999, 12_345.0, -5_000, 99_999_999_999]  # (and some that are written in full)
        assert [when(t) for t in times] == [full(t) for t in times]
        assert when(None) == "" == formats.date_time(None)
        assert formats.date_time(start) == full(start)
    finally:
        QLocale.setDefault(before)


def test_only_a_plain_two_digit_seconds_field_is_split_at():
    mark = formats._mark_seconds
    assert mark("dd.MM.yyyy HH:mm:ss") == f"dd.MM.yyyy HH:mm:'{formats._MARK}'"
    assert mark("h:mm:ss AP") == f"h:mm:'{formats._MARK}' AP"
    assert mark("HH 'h' mm 'min' ss 's'") == f"HH 'h' mm 'min' '{formats._MARK}' 's'"  # quoted text kept
    for pattern in ("H:m:s", "HH:mm:sss", "ss:ss", "'ss' HH:mm", "HH:mm"):
        assert mark(pattern) is None, pattern


def test_times_across_a_daylight_saving_change_read_as_in_full(tmp_path):
    """Local time jumps an hour at a daylight-saving change (a POSIX rule, so no zone database is
    needed): each minute's text must come from that minute, on both sides of the jump."""
    import os
    import subprocess
    import sys

    child = tmp_path / "child.py"
    child.write_text(
        "import time\n"
        "from PySide6.QtCore import QLocale\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from daycare_gui.ui import formats\n"
        "start = 1774746000000 - 3_600_000  # 2026-03-29 00:00 UTC; Europe's clocks go forward at 01:00\n"
        "for name in ('C', 'de_DE'):\n"
        "    QLocale.setDefault(QLocale(name))\n"
        "    when, full = formats.date_time_formatter(), formats._date_time_pattern(True).text\n"
        "    times = range(start, start + 7_200_000, 997)\n"
        "    print(name, full(start), full(start + 7_199_000), sum(when(t) != full(t) for t in times))\n")
    env = dict(os.environ, TZ="CET-1CEST,M3.5.0,M10.5.0/3", QT_QPA_PLATFORM="offscreen")
    out = subprocess.run([sys.executable, str(child)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert lines[0] == "C 2026-03-29 01:00:00 2026-03-29 03:59:59 0"  # (01:00 + 2 h reads 03:59: the jump)
    assert lines[1] == "de_DE 29.03.2026 01:00:00 29.03.2026 03:59:59 0"


def test_a_german_window_shows_german_numbers_and_dates_and_sorts_by_raw_values(qtbot, window, demo_store,
                                                                                 german):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    model, table = pane.threads.model, pane.threads.table
    titles = pane.threads.columns_titles
    tokens_at, created_at = titles.index("Tokens"), titles.index("Created")
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    qtbot.waitUntil(lambda: model.rowCount() > 3, timeout=5000)

    def column(c):
        return [model.index(r, c).data() for r in range(model.rowCount())]

    table.sortByColumn(tokens_at, Qt.SortOrder.DescendingOrder)  # tokens, sorted in SQL by the number
    qtbot.waitUntil(lambda: all(column(tokens_at)) and column(tokens_at) != [], timeout=5000)

    def tokens():
        return [int(t.replace(".", "")) for t in column(tokens_at)]

    qtbot.waitUntil(lambda: tokens() == sorted(tokens(), reverse=True), timeout=5000)
    assert any("." in t for t in column(tokens_at))  # grouped the German way: 12.345
    assert not any("," in t for t in column(tokens_at))

    created = column(created_at)
    assert created and all(GERMAN_DATE_TIME.match(t) for t in created), created[:3]
    table.sortByColumn(created_at, Qt.SortOrder.AscendingOrder)

    # the day-first text would sort 03.02. before 28.01.; the rows follow the stored times instead
    def stored():
        records = [model.index(r, 0).data(RecordRole) for r in range(model.rowCount())]
        return [rec.raw["created_at"] if rec is not None else None for rec in records]

    qtbot.waitUntil(lambda: None not in stored() and stored() == sorted(stored()), timeout=5000)
    assert [fmt_time(ms) for ms in stored()] == column(created_at)
    del tester
