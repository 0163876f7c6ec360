"""How numbers, counts, times and people read everywhere: one place, so pages and commands agree.

Pure functions, no Qt: the window, the command line and the reports all use them.
"""

from __future__ import annotations

import math
import re
import time as _time

# Nouns whose plural the rules in plural_of would get wrong.
_IRREGULAR = {"child": "children", "person": "people", "status": "statuses", "index": "indexes"}


_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*")
_KEY_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_SHOUTED = {"id": "ID", "ai": "AI", "ids": "IDs", "url": "URL", "urls": "URLs", "api": "API", "json": "JSON", "llm": "LLM",
            "fts": "FTS", "ui": "UI", "mcp": "MCP", "ms": "ms"}


def words_of(key: str) -> str:
    """A stored key as words a person reads: ``sessions_per_project_layout`` → "Sessions per project layout",
    ``model_id`` → "Model ID", ``createdAt`` → "Created at". Text that is not such a key ("Record id",
    "Kind", "3 agents") comes back as it is: one humaniser for every place that shows a store's keys."""
    if not _KEY.fullmatch(key or ""):
        return key
    if not re.search(r"[_.-]|[a-z][A-Z]|[A-Z][A-Z][a-z]", key) and not key.islower():
        return key  # one word, already written for people ("Kind", "URL")
    words = [w.lower() for w in _KEY_PARTS.findall(key)]
    if not words:
        return key
    words = [_SHOUTED.get(w, w) for w in words]
    return words[0][:1].upper() + words[0][1:] + "".join(" " + w for w in words[1:])


def plural_of(noun: str) -> str:
    """The plural of an English noun (or of a phrase's last word): "task" → "tasks", "entity" → "entities"."""
    if noun in _IRREGULAR:
        return _IRREGULAR[noun]
    head, _, last = noun.rpartition(" ")
    if head:
        return f"{head} {plural_of(last)}"
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        return last[:-1] + "ies"
    if last.endswith(("s", "x", "z", "ch", "sh")):
        return last + "es"
    return last + "s"


def singular_of(noun: str) -> str:
    """The inverse of :func:`plural_of` for regular plurals: "cron tasks" → "cron task", "entities" → "entity"."""
    for one, many in _IRREGULAR.items():
        if noun == many:
            return one
    head, _, last = noun.rpartition(" ")
    if head:
        return f"{head} {singular_of(last)}"
    if last.endswith("ies") and len(last) > 3:
        return last[:-3] + "y"
    if last.endswith(("sses", "shes", "ches", "xes", "zes")):
        return last[:-2]
    if last.endswith("s") and not last.endswith("ss"):
        return last[:-1]
    return last


def count(n: int, noun: str, plural: str | None = None, *, number=None) -> str:
    """ "1 cron task", "3 cron tasks", "1,204 entities": the number grouped, the noun agreeing with it.
    ``number`` writes the number (the window passes the user's locale's; English grouping by default)."""
    word = noun if n == 1 else (plural or plural_of(noun))
    return f"{number(n) if number is not None else f'{n:,}'} {word}"


def byte_size(n: int | float | None) -> str:
    """A size as people read it, 1024 a step: "812 bytes", "1.5 KB", "1,234.5 MB" (empty when unknown).
    The one way every page, command and message says a size."""
    if n is None:
        return ""
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if abs(value) < 1024 or unit == "GB":
            return f"{int(value):,} bytes" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return ""


def compact_number(n: float) -> str:
    """A short number for chart axes and badges: 950, 1.2k, 20M, 3.5B (whole numbers drop the ".0")."""
    sign = "-" if n < 0 else ""
    n = abs(n)
    for size, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if n >= size:
            value = n / size
            text = f"{value:.1f}".rstrip("0").rstrip(".") if value < 100 else f"{value:.0f}"
            return f"{sign}{text}{suffix}"
    return f"{sign}{n:.0f}" if float(n).is_integer() else f"{sign}{n:.1f}"


def nice_ticks(maximum: float, target: int = 5) -> list[float]:
    """Round axis ticks from 0 to just above ``maximum``: steps of 1, 2, 2.5 or 5 times a power of ten."""
    if maximum <= 0 or not math.isfinite(maximum):
        return [0.0, 1.0]
    raw = maximum / max(1, target)
    power = 10 ** math.floor(math.log10(raw))
    # counts (a maximum of 1 or more): whole-number steps only, so no 2.5 or 7.5 on an axis of records
    steps = (1, 2, 2.5, 5, 10) if maximum < 1 or power >= 10 else (1, 2, 5, 10)
    step = next(m * power for m in steps if m * power >= raw)
    if step < 1 and maximum >= 1:
        step = 1.0  # counts: no fractional ticks
    ticks = [0.0]
    while ticks[-1] < maximum:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


# -- times ------------------------------------------------------------------------------------------------

# Epoch milliseconds stores keep fall between these (2001 and 2286): a plain integer column is only shown
# as a date when its name says it is a time and its value is in this range.
_MS_MIN, _MS_MAX = 1_000_000_000_000, 9_999_999_999_999


def looks_like_epoch_ms(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and _MS_MIN <= value <= _MS_MAX


def is_time_column(column: str) -> bool:
    """Whether a column's name says it holds a time: ``at`` (session_history), ``*_at``, ``*At``, ``*_ms``."""
    return (column in ("at", "deliver_at") or column.endswith(("_at", "At", "_ms", "_time", "Time"))
            or column.startswith("time"))


def time_value(column: str, value) -> bool:
    """A stored time worth showing as a date: a time-named column holding epoch milliseconds."""
    return is_time_column(column) and looks_like_epoch_ms(value)


def local_time(ms: int | None, *, seconds: bool = True) -> str:
    """Local date and time of a millisecond timestamp, with a four-digit year; "" for None."""
    if ms is None:
        return ""
    try:
        # time.strftime, not datetime.strftime: the latter imports the time module on every call, and with
        # PySide6 loaded every import goes through a Python hook (a few hundred µs on each painted cell).
        local = _time.localtime(ms / 1000)
    except (OverflowError, OSError, ValueError, TypeError):
        return str(ms)
    if not 1 <= local.tm_year <= 9999:  # what a datetime can hold
        return str(ms)
    return _time.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M", local)


# -- people and agents ----------------------------------------------------------------------------------------


def person_label(name: str | None, nametag: str | None, ident: str | None) -> str:
    """What to call a user: their name, else @nametag, else the bare id (never "id (id)")."""
    if name and name.strip():
        return name.strip()
    if nametag and nametag.strip():
        return f"@{nametag.strip()}"
    return ident or ""


def labelled(label: str | None, ident: str | None) -> str:
    """"Alex (u_123)" for a detail field; just the id when there is no label other than the id."""
    if not ident:
        return label or ""
    if not label or label == ident:
        return ident
    return f"{label} ({ident})"
