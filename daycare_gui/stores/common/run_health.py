"""How an automation is doing, from its runs and its task's schedule: the same reading for every kind.

Kinds only tell runs (``stores.api.Automations``); this says what a person wants at a glance: how many of the
last runs worked, the last failure and its error, a task that *stopped firing* (its schedule was due and no run
came), runs still "running" long after they should have ended, and a deleted task whose runs remain.
Qt-free and kind-neutral: it reads :class:`~daycare_gui.stores.records.Run` and ``TaskItem`` only.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from daycare_gui.stores.records import Automation, Run, TaskItem

MINUTE = 60_000
HOUR = 60 * MINUTE
# A due time only counts as missed once the system had time to see it: Daycare's scheduler ticks each
# minute, CianaParrot's every 60 s, Linggen's each minute; five minutes leave room for a slow tick.
GRACE_MS = 5 * MINUTE
# A run still "running" after this long is stuck (or its process died and nobody wrote the end).
STUCK_AFTER_MS = 2 * HOUR
# Counting due times of an every-minute cron over a year would take a while: past this many, say "more than".
DUE_CAP = 10_000


@dataclass(frozen=True)
class RunHealth:
    runs_seen: int
    window: int  # how many of the latest runs the rate is over
    worked: int  # of those
    failed: int
    success_rate: float | None  # worked / (worked + failed) in the window; None when none ended either way
    last_failure: Run | None
    expected: int | None  # due times the schedule had from the first seen run to now (None: no schedule to count)
    expected_capped: bool  # ``expected`` stopped counting at DUE_CAP
    missed_since_last: int  # due times after the last run that passed with no run
    last_due: int | None  # the latest missed due time (ms)
    gap_ms: int | None  # from the last run's start to now, when it stopped firing
    stuck: tuple[Run, ...]  # "running" long after they should have ended
    deleted: bool  # the task is gone, its runs remain
    now_ms: int = 0  # the "now" it was read at

    @property
    def stopped_firing(self) -> bool:
        return self.missed_since_last > 0

    def problems(self) -> list[str]:
        """What needs a look, one sentence each ([] when all is well)."""
        out = []
        if self.stopped_firing:
            due = f"{self.missed_since_last}{'+' if self.missed_since_last >= DUE_CAP else ''}"
            since = f" (last run {_span(self.gap_ms)} ago)" if self.gap_ms is not None else " (it never ran)"
            were = "run was" if self.missed_since_last == 1 else "runs were"
            out.append(f"Stopped firing: {due} {were} due since the last one{since}")
        if self.last_failure is not None and self.failed:
            error = f": {_first_line(self.last_failure.error)}" if self.last_failure.error else ""
            out.append(f"{self.failed} of the last {_runs(self.window)} failed{error}" if self.window > 1
                       else f"The last run failed{error}")
        for run in self.stuck:
            out.append(f"Run {run.id} still running after {_span(self.now_ms - (run.started_at or self.now_ms))}")
        if self.deleted and self.runs_seen:
            out.append(f"The task was deleted; {self.runs_seen} of its runs remain" if self.runs_seen > 1
                       else "The task was deleted; its one run remains")
        return out

    def summary(self) -> str:
        """One line for a list: the rate, then the first problem."""
        parts = []
        if self.success_rate is not None and self.window > 1:
            parts.append(f"{round(self.success_rate * 100)}% of the last {self.window:,} worked")
        elif self.success_rate:  # (one run, which worked; one that failed is said by its problem)
            parts.append("the last run worked")
        elif self.success_rate is None and not self.runs_seen:
            parts.append("no runs seen")
        problems = self.problems()
        if problems:
            parts.append(problems[0])
        return " · ".join(parts) or _runs(self.runs_seen)


def _runs(n: int) -> str:
    return "1 run" if n == 1 else f"{n:,} runs"


def _span(ms: int | None) -> str:
    if ms is None:
        return "?"
    seconds = max(0, ms // 1000)
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return f"{seconds} seconds"


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 160 else line[:159] + "…"


def _zone(task: TaskItem):
    try:
        return ZoneInfo(task.timezone) if task.timezone else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def due_times(task: TaskItem | None, start_ms: int, end_ms: int, cap: int = DUE_CAP) -> list[int] | None:
    """The times (ms) ``task``'s schedule was due in (start, end], at most ``cap`` of them; None when its
    schedule cannot be counted (none, a webhook, "on every heartbeat", an invalid expression, disabled)."""
    if task is None or not task.enabled or end_ms <= start_ms:
        return None if task is None or not task.enabled else []
    if task.schedule_kind == "interval":
        try:
            step = int(float(task.schedule) * 1000)
        except ValueError:
            return None
        if step <= 0:
            return None
        out, t = [], start_ms + step
        while t <= end_ms and len(out) < cap:
            out.append(t)
            t += step
        return out
    if task.schedule_kind != "cron" or not task.schedule:
        return None
    from croniter import croniter

    from daycare_gui.stores.common.edit.schedule import validate_schedule

    if validate_schedule(task.schedule):
        return None
    zone = _zone(task)
    if task.timezone and zone is None:
        return None
    begin = _dt.datetime.fromtimestamp(start_ms / 1000, tz=zone or _dt.timezone.utc)
    if zone is None:
        begin = begin.astimezone()  # the machine's zone, as a system without a timezone reads its cron
    iterator = croniter(task.schedule.strip(), begin)
    out = []
    while len(out) < cap:
        t = int(iterator.get_next(_dt.datetime).timestamp() * 1000)
        if t > end_ms:
            break
        out.append(t)
    return out


def run_health(automation: Automation, runs: list[Run], *, now_ms: int, window: int = 20,
               stuck_after_ms: int = STUCK_AFTER_MS) -> RunHealth:
    """``runs`` as the kind gave them (any order); ``now_ms`` is "now" (tests pass a fixed one)."""
    ordered = sorted((r for r in runs if r.started_at is not None), key=lambda r: r.started_at, reverse=True)
    latest = ordered[:window]
    worked = sum(1 for r in latest if r.outcome == "worked")
    failed = sum(1 for r in latest if r.outcome == "failed")
    last_failure = next((r for r in ordered if r.outcome == "failed"), None)
    stuck = tuple(r for r in ordered if r.outcome == "running" and now_ms - r.started_at > stuck_after_ms)
    expected = None
    capped = False
    missed, last_due, gap = 0, None, None
    task = automation.task
    if task is not None and not automation.deleted and automation.runs_told:
        if ordered:
            first, last = ordered[-1].started_at, ordered[0].started_at
            since_first = due_times(task, first - GRACE_MS, now_ms - GRACE_MS)
            if since_first is not None:
                expected, capped = len(since_first), len(since_first) >= DUE_CAP
            after_last = due_times(task, last + GRACE_MS, now_ms - GRACE_MS)
            if after_last:
                missed, last_due, gap = len(after_last), after_last[-1], now_ms - last
        elif task.last_run_at is not None:  # runs not told in records, but the store says when it last ran
            after_last = due_times(task, task.last_run_at + GRACE_MS, now_ms - GRACE_MS)
            if after_last:
                missed, last_due, gap = len(after_last), after_last[-1], now_ms - task.last_run_at
    health = RunHealth(
        runs_seen=len(runs), window=len(latest), worked=worked, failed=failed,
        success_rate=(worked / (worked + failed)) if worked + failed else None, last_failure=last_failure,
        expected=expected, expected_capped=capped, missed_since_last=missed, last_due=last_due, gap_ms=gap,
        stuck=stuck, deleted=automation.deleted, now_ms=now_ms)
    return health
