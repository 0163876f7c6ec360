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


def test_numbers_sizes_and_counts_in_german(german):
    assert formats.number(1234567) == fmt_int(1234567) == "1.234.567"
    assert formats.number(0.843) == "0,843"
    assert formats.count(1234567, "entity") == "1.234.567 entities"
    assert formats.data_size(1536) == "1,5 KB" and formats.data_size(812) == "812 B"
    from daycare_gui.ui.panes.generic.collection import _text

    assert _text(1234567) == "1.234.567" and _text(0.5) == "0,5"


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


def test_a_german_window_shows_german_numbers_and_dates_and_sorts_by_raw_values(qtbot, window, demo_store,
                                                                                 german):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    model = pane.model
    tester = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    qtbot.waitUntil(lambda: model.rowCount() > 3, timeout=5000)

    def column(c):
        return [model.index(r, c).data() for r in range(model.rowCount())]

    pane.table.sortByColumn(6, Qt.SortOrder.DescendingOrder)  # tokens, sorted in SQL by the number
    qtbot.waitUntil(lambda: all(column(6)) and column(6) != [], timeout=5000)

    def tokens():
        return [int(t.replace(".", "")) for t in column(6)]

    qtbot.waitUntil(lambda: tokens() == sorted(tokens(), reverse=True), timeout=5000)
    assert any("." in t for t in column(6))  # grouped the German way: 12.345
    assert not any("," in t for t in column(6))

    created = column(4)
    assert created and all(GERMAN_DATE_TIME.match(t) for t in created), created[:3]
    pane.table.sortByColumn(4, Qt.SortOrder.AscendingOrder)

    # the day-first text would sort 03.02. before 28.01.; the rows follow the stored times instead
    def stored():
        records = [model.index(r, 0).data(RecordRole) for r in range(model.rowCount())]
        return [rec.created_at if rec is not None else None for rec in records]

    qtbot.waitUntil(lambda: None not in stored() and stored() == sorted(stored()), timeout=5000)
    assert [fmt_time(ms) for ms in stored()] == column(4)
    del tester
