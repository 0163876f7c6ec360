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
    next_runs: tuple[_dt.datetime, ...]  # after the overdue run, if there is one
    error: str | None = None
    # When the store says the task was due, where that has passed: the system runs it as soon as it next
    # checks its tasks (a cron task that never ran, or one whose time came while the system was stopped)
    overdue: _dt.datetime | None = None


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
    try:
        return _task_times(task, n, now)
    except (ValueError, OverflowError) as exc:  # (a cron that matches no date: croniter gives up; a time
        # past year 9999, from an interval of 1e300 seconds or a run due at the end of 9999)
        return TaskTimes("", (), f"its next runs cannot be counted ({exc})")


def _task_times(task: TaskItem, n: int, now: _dt.datetime | None) -> TaskTimes:
    zone = _zone(task.timezone)
    tz_note = f" ({task.timezone})" if task.timezone else ""
    if task.timezone and zone is None:
        return TaskTimes("", (), f"unknown timezone {task.timezone!r}")
    if now is not None:
        start = now.astimezone(zone) if zone else now
    else:
        start = _dt.datetime.now(zone) if zone else _dt.datetime.now().astimezone()
    # The next run as the store's system computed it (from the last run), where the kind gives it
    due = (_dt.datetime.fromtimestamp(task.next_run_at / 1000, tz=zone or _dt.timezone.utc)
           if task.next_run_at is not None else None)
    overdue = due if task.enabled and due is not None and due <= start else None
    if task.schedule_kind in ("cron", "heartbeat") and task.schedule:
        # After an overdue run the schedule goes on from now; before the next due one, from that run
        first = due if task.enabled and due is not None and due > start else None
        info = schedule_info(task.schedule, n - (first is not None), first or start)
        if not info.valid:
            return TaskTimes("", (), info.error)
        runs = (((first,) if first else ()) + tuple(info.next_runs)) if task.enabled else ()
        return TaskTimes(info.words + tz_note, runs, overdue=overdue)
    if task.schedule_kind == "interval":
        try:
            seconds = float(task.schedule)
        except ValueError:
            return TaskTimes("", (), f"interval {task.schedule!r} is not a number of seconds")
        if seconds <= 0:
            return TaskTimes("", (), f"interval {task.schedule!r} is not positive")
        runs: tuple = ()
        if task.enabled and due is not None:
            first = due if overdue is None else start  # (an overdue run happens now; the next follow it)
            step = _dt.timedelta(seconds=seconds)
            runs = tuple(first + step * i for i in range(overdue is not None, n + (overdue is not None)))
        return TaskTimes(_every(seconds), runs, overdue=overdue)
    if task.schedule_kind == "once":
        words = f"once at {due:%Y-%m-%d %H:%M}{tz_note}" if due else f"once ({task.schedule or 'time unknown'})"
        runs = (due,) if task.enabled and due is not None and due > start else ()
        return TaskTimes(words, runs, overdue=overdue)
    if not task.schedule and task.schedule_kind in _WITHOUT_SCHEDULE:
        return TaskTimes(_WITHOUT_SCHEDULE[task.schedule_kind], ())
    return TaskTimes(task.schedule or task.schedule_kind, ())


# What a task that names no schedule of its own does, in words: a heartbeat task runs each time the system's
# heartbeat fires (Daycare's interval, not the task's), a webhook when it is called.
_WITHOUT_SCHEDULE = {"heartbeat": "on every heartbeat", "webhook": "when its webhook is called"}
