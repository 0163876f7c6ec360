"""Cron schedules in the strict five-field dialect: validate, describe in words, list the next run times.

The dialect is narrower than croniter (it is the one Daycare's engine parses, and a safe subset for any
scheduler that reads cron): exactly five
fields (minute hour day month weekday), each ``*``, ``*/N``, or a comma list of numbers and ``A-B``
ranges; weekday is 0–6; no names (MON), no ``@daily``, no seconds field. A schedule croniter accepts but
the engine does not would silently never run, so both checks must pass.
"""

from __future__ import annotations

import datetime as _dt
import re

from croniter import croniter

_FIELDS = (("minute", 0, 59), ("hour", 0, 23), ("day of month", 1, 31), ("month", 1, 12), ("weekday", 0, 6))
_NUMBER = re.compile(r"^\d+$")


def _field_error(text: str, name: str, low: int, high: int) -> str | None:
    if text == "*":
        return None
    if text.startswith("*/"):
        step = text[2:]
        if not _NUMBER.match(step) or int(step) <= 0:
            return f"{name}: the step in {text!r} must be a positive number"
        return None
    for part in text.split(","):
        if "-" in part:
            start, _, end = part.partition("-")
            if not (_NUMBER.match(start) and _NUMBER.match(end)):
                return f"{name}: {part!r} is not a range of numbers like 1-5"
            if int(start) < low or int(end) > high or int(start) > int(end):
                return f"{name}: range {part!r} must lie within {low}-{high} and go upwards"
        elif not _NUMBER.match(part):
            return f"{name}: {part!r} is not a number (a schedule takes *, */N, numbers, ranges and lists)"
        elif not low <= int(part) <= high:
            return f"{name}: {part} is outside {low}-{high}"
    return None


def validate_schedule(expr: object) -> str | None:
    """None when the engine can run ``expr``; otherwise a sentence saying what is wrong."""
    if not isinstance(expr, str) or not expr.strip():
        return "the schedule must be a cron expression such as '0 2 * * *'"
    parts = expr.split()
    if len(parts) != 5:
        return f"a schedule needs 5 fields (minute hour day month weekday); {expr.strip()!r} has {len(parts)}"
    for text, (name, low, high) in zip(parts, _FIELDS, strict=False):
        problem = _field_error(text, name, low, high)
        if problem:
            return problem
    if not croniter.is_valid(expr.strip()):
        return f"{expr.strip()!r} is not a valid cron expression"
    return None


def describe_schedule(expr: str) -> str:
    """The schedule in words ("At 02:00 AM"), or the reason it is invalid."""
    problem = validate_schedule(expr)
    if problem:
        return f"invalid schedule: {problem}"
    from cron_descriptor import get_description

    try:
        return get_description(expr.strip())
    except Exception as exc:  # cron-descriptor refuses a few forms croniter takes
        return f"{expr.strip()} ({exc})"


def next_runs(expr: str, n: int = 5, now: _dt.datetime | None = None) -> list[_dt.datetime]:
    """The next ``n`` run times after ``now`` (default: the current local time). Empty for an invalid schedule."""
    if validate_schedule(expr):
        return []
    start = now if now is not None else _dt.datetime.now().astimezone()
    iterator = croniter(expr.strip(), start)
    return [iterator.get_next(_dt.datetime) for _ in range(n)]
