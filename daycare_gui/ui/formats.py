"""Numbers, times and sizes as the user's locale writes them (QLocale's default: the system's, or what
``QLocale.setDefault`` chose).

The core's helpers (``core.display``) stay Qt-free and write English; the window formats here, and hands
:func:`number` to the core where a core helper builds a phrase (``display.count(..., number=number)``).
Only what is shown changes: models keep raw values for sorting (``SortRole``) and copying.

In the C locale (LANG=C, CI) Qt knows no grouping and no date order worth the name, so the window keeps
the English forms: "1,234,567" and "2026-02-02 22:07:32".
"""

from __future__ import annotations

import datetime as _dt

from PySide6.QtCore import QDateTime, QLocale

from daycare_gui.core import display
from daycare_gui.core.display import local_time


def _locale() -> QLocale | None:
    locale = QLocale()
    return None if locale.language() == QLocale.Language.C else locale


def number(n: int | float | None, decimals: int | None = None) -> str:
    """A number with the locale's grouping and decimal mark: 1.234.567 and 0,843 in German."""
    if n is None:
        return ""
    locale = _locale()
    if isinstance(n, float) and not n.is_integer() or decimals:
        places = 3 if decimals is None else decimals
        if locale is None:
            return f"{n:,.{places}f}".rstrip("0").rstrip(".") if decimals is None else f"{n:,.{places}f}"
        text = locale.toString(float(n), "f", places)
        if decimals is None:  # as few places as the value needs
            point = locale.decimalPoint()
            text = text.rstrip("0").rstrip(point) if point in text else text
        return text
    if locale is None:
        return f"{int(n):,}"
    return locale.toString(int(n))


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``core.display.count`` with the number in the locale's grouping: "1.204 entities" in German."""
    return display.count(n, noun, plural, number=number)


def _four_digit_year(fmt: str) -> str:
    """A short date format with the year in four digits (a two-digit year reads as a day elsewhere)."""
    if "yyyy" in fmt:
        return fmt
    return fmt.replace("yy", "yyyy")


def date_time(ms: int | None, *, seconds: bool = True) -> str:
    """Local date and time of epoch milliseconds in the locale's order (23.11.2026 17:13:05 in German,
    11/23/2026 5:13:05 PM in US English); "" for None."""
    if ms is None:
        return ""
    locale, pattern = _date_time_pattern(seconds)
    if locale is None or not isinstance(ms, (int, float)):
        return local_time(ms, seconds=seconds)
    try:
        when = QDateTime.fromMSecsSinceEpoch(int(ms))
    except (OverflowError, ValueError):
        return str(ms)
    if not when.isValid():
        return str(ms)
    return locale.toString(when, pattern)


# (locale name, seconds) → (the locale, or None for C; its date-time pattern). Every painted history row
# formats a time: working the pattern out each time (enum lookups, two format queries) was most of it.
_PATTERNS: dict[tuple[str, bool], tuple[QLocale | None, str]] = {}


def _date_time_pattern(seconds: bool) -> tuple[QLocale | None, str]:
    locale = QLocale()
    key = (locale.name(), seconds)
    found = _PATTERNS.get(key)
    if found is None:
        plain = _locale()
        found = _PATTERNS[key] = (plain, _date_time_format(plain, seconds) if plain is not None else "")
    return found


def _date_time_format(locale: QLocale, seconds: bool) -> str:
    date = _four_digit_year(locale.dateFormat(QLocale.FormatType.ShortFormat))
    time = locale.timeFormat(QLocale.FormatType.ShortFormat)
    if seconds and "ss" not in time:
        time = time.replace("mm", "mm:ss", 1)
    return f"{date} {time}"


def date_time_of(when: _dt.datetime, *, weekday: bool = False) -> str:
    """A Python datetime (a task's next run, a file's change time) the same way, to the minute; ``weekday``
    puts the day's short name in front ("Mo. 23.11.2026 07:00")."""
    locale = _locale()
    if locale is None:
        return when.strftime("%a %Y-%m-%d %H:%M" if weekday else "%Y-%m-%d %H:%M")
    text = date_time(int(when.timestamp() * 1000), seconds=False)
    if weekday:
        text = f"{locale.dayName(when.isoweekday(), QLocale.FormatType.ShortFormat)} {text}"
    return text


def data_size(n: int | None) -> str:
    """A size in bytes, short: "812 B", "1.2 KB", "3.4 MB" (the locale's decimal mark: "3,4 MB")."""
    if n is None:
        return ""
    value = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if abs(value) < 1024 or unit == "TB":
            return f"{number(int(value))} {unit}" if unit == "B" else f"{number(value, 1)} {unit}"
        value /= 1024
    return str(n)
