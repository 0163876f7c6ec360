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
import time as _time

from PySide6.QtCore import QDateTime, QLocale

from daycare_gui.stores.common import wording as display
from daycare_gui.stores.common.wording import local_time


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
    """``stores.common.wording.count`` with the number in the locale's grouping: "1.204 entities" in German."""
    return display.count(n, noun, plural, number=number)


def _four_digit_year(fmt: str) -> str:
    """A short date format with the year in four digits (a two-digit year reads as a day elsewhere)."""
    if "yyyy" in fmt:
        return fmt
    return fmt.replace("yy", "yyyy")


def date_time(ms: int | None, *, seconds: bool = True) -> str:
    """Local date and time of epoch milliseconds in the locale's order (23.11.2026 17:13:05 in German,
    11/23/2026 5:13:05 PM in US English); "" for None."""
    return _date_time_pattern(seconds).format(ms)


def date_time_formatter(*, seconds: bool = True):
    """:func:`date_time` for the locale as it is now, as one function to call for many times in a row (a
    painter's rows): the locale is looked up once, not for each."""
    return _date_time_pattern(seconds).format


class _DateTimes:
    """One locale's date-time pattern, and the text around the seconds of each minute formatted lately.

    Every history row painted shows its time: formatting it in full (a QDateTime and the locale's pattern,
    or localtime and strftime) was 2–7 µs a row. Records come seconds apart, so a minute's text is mostly
    reused by the rows after its first: a row then costs a dictionary lookup and an f-string."""

    MINUTES = 4096  # minutes remembered (the older half is dropped past this)
    # Since 1973 every time zone's offset is whole minutes (Liberia's was -0:44:30 until 1972), so a time's
    # local seconds are its epoch seconds; before that, times are written in full.
    SINCE_MS = 100_000_000_000

    def __init__(self, locale: QLocale | None, pattern: str, seconds: bool) -> None:
        self.locale, self.pattern, self.seconds = locale, pattern, seconds
        # The pattern with its seconds as a marker to split at, or None where it has no plain "ss" or the
        # locale writes other digits than 0–9 (Arabic's ٠–٩): the f-string between the halves writes those
        self._marked = (_mark_seconds(pattern) if seconds and locale is not None and locale.zeroDigit() == "0"
                        else None)
        self._split_here = seconds and (locale is None or self._marked is not None)
        # epoch minute → (the text before its seconds, the text after them)
        self.minutes: dict[int, tuple[str, str]] = {}

    def format(self, ms) -> str:
        if ms is None:
            return ""
        if self._split_here and type(ms) is int and ms >= self.SINCE_MS:
            minute, within = divmod(ms, 60_000)
            halves = self.minutes.get(minute)
            if halves is None:
                halves = self._halves(minute)
            if halves is not None:
                return f"{halves[0]}{within // 1000:02d}{halves[1]}"
        return self.text(ms)

    def text(self, ms) -> str:
        """The whole text, formatted from scratch."""
        if self.locale is None or not isinstance(ms, (int, float)):
            return local_time(ms, seconds=self.seconds)
        try:
            when = QDateTime.fromMSecsSinceEpoch(int(ms))
        except (OverflowError, ValueError):
            return str(ms)
        if not when.isValid():
            return str(ms)
        return self.locale.toString(when, self.pattern)

    def _halves(self, minute: int) -> tuple[str, str] | None:
        if self.locale is None:  # local_time's form, up to its seconds (and its limits)
            try:
                local = _time.localtime(minute * 60)
            except (OverflowError, OSError, ValueError):
                return None
            if not 1 <= local.tm_year <= 9999:
                return None
            halves = (_time.strftime("%Y-%m-%d %H:%M:", local), "")
        else:
            parts = self.locale.toString(QDateTime.fromMSecsSinceEpoch(minute * 60_000), self._marked).split(_MARK)
            if len(parts) != 2:
                return None
            halves = (parts[0], parts[1])
        if len(self.minutes) >= self.MINUTES:
            for old in list(self.minutes)[: self.MINUTES // 2]:
                del self.minutes[old]
        self.minutes[minute] = halves
        return halves


_MARK = "\u2063"  # (invisible separator: no locale writes it in a date)


def _mark_seconds(pattern: str) -> str | None:
    """``pattern`` with its two-digit seconds ("ss", outside quoted text) as a quoted marker, or None
    unless it has exactly that: one "s" field, two letters long."""
    fields, quoted, i = [], False, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            quoted = not quoted
        elif c == "s" and not quoted:
            end = i
            while end < len(pattern) and pattern[end] == "s":
                end += 1
            fields.append((i, end))
            i = end
            continue
        i += 1
    if len(fields) != 1 or fields[0][1] - fields[0][0] != 2:
        return None
    at = fields[0][0]
    return f"{pattern[:at]}'{_MARK}'{pattern[at + 2:]}"


# (locale name, seconds) → that locale's _DateTimes (a None locale for C). Every painted history row
# formats a time: working the pattern out each time (enum lookups, two format queries) was most of it.
_PATTERNS: dict[tuple[str, bool], _DateTimes] = {}


def _date_time_pattern(seconds: bool) -> _DateTimes:
    locale = QLocale()
    key = (locale.name(), seconds)
    found = _PATTERNS.get(key)
    if found is None:
        plain = _locale()
        found = _PATTERNS[key] = _DateTimes(plain, _date_time_format(plain, seconds) if plain is not None else "",
                                            seconds)
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
