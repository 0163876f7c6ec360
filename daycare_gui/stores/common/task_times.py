"""Any kind's scheduled task in words, with its next runs in the task's own timezone."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from daycare_gui.stores.common.schedule import schedule_info
from daycare_gui.stores.records import TaskItem


@dataclass(frozen=True)
class TaskTimes:
    words: str  # "At 02:00 AM (Europe/Berlin)", "every 15 minutes", "once at 2026-12-01 09:00"
    next_runs: tuple[_dt.datetime, ...]
    error: str | None = None


def _zone(name: str):
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _every(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"every {n} {unit}{'s' if n != 1 else ''}" if n != 1 else f"every {unit}"
    return f"every {seconds:g} seconds"


def task_times(task: TaskItem, n: int = 5, now: _dt.datetime | None = None) -> TaskTimes:
    """Never raises: a schedule that does not parse says why in ``error``."""
    zone = _zone(task.timezone)
    tz_note = f" ({task.timezone})" if task.timezone else ""
    if task.timezone and zone is None:
        return TaskTimes("", (), f"unknown timezone {task.timezone!r}")
    if now is not None:
        start = now.astimezone(zone) if zone else now
    else:
        start = _dt.datetime.now(zone) if zone else _dt.datetime.now().astimezone()
    if task.schedule_kind in ("cron", "heartbeat") and task.schedule:
        info = schedule_info(task.schedule, n, start)
        if not info.valid:
            return TaskTimes("", (), info.error)
        runs = info.next_runs if task.enabled else ()
        return TaskTimes(info.words + tz_note, runs)
    if task.schedule_kind == "interval":
        try:
            seconds = float(task.schedule)
        except ValueError:
            return TaskTimes("", (), f"interval {task.schedule!r} is not a number of seconds")
        if seconds <= 0:
            return TaskTimes("", (), f"interval {task.schedule!r} is not positive")
        runs: tuple = ()
        if task.enabled and task.next_run_at is not None:
            first = _dt.datetime.fromtimestamp(task.next_run_at / 1000, tz=zone or _dt.timezone.utc)
            runs = tuple(first + _dt.timedelta(seconds=seconds * i) for i in range(n))
        return TaskTimes(_every(seconds), runs)
    if task.schedule_kind == "once":
        at = task.next_run_at
        when = _dt.datetime.fromtimestamp(at / 1000, tz=zone or _dt.timezone.utc) if at is not None else None
        words = f"once at {when:%Y-%m-%d %H:%M}{tz_note}" if when else f"once ({task.schedule or 'time unknown'})"
        runs = (when,) if task.enabled and when is not None and when > start else ()
        return TaskTimes(words, runs)
    return TaskTimes(task.schedule or task.schedule_kind, ())
