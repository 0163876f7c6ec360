"""What CianaParrot's scheduler does with one task of ``scheduled_tasks.json``, step by step as its code.

Modelled on ``Scheduler._check_and_run`` and ``_is_due`` (emanueleielo/ciana-parrot@d289c767,
``src/scheduler.py``). Each poll reads the file and asks every active task (``active`` missing or truthy)
whether it is due, then writes the file and runs the due ones. The order of the checks matters:

* A task that never ran (no ``last_run``) is due at once: an ``interval`` one once its value is read, a
  ``cron`` one before its expression is even parsed, so a cron task whose expression the bot cannot use
  still runs once, and only the polls after it meet the expression.
* A ``once`` task with any ``last_run`` counts as run, however that is spelled.
* The due check catches some errors and skips the task (logged, never due): ``int("soon")`` and
  ``int(NaN)`` of an interval, ``fromisoformat("tomorrow")`` of a once time, and for ``cron`` any
  ValueError, TypeError or KeyError (a bad expression or last_run).
* Every other error leaves the whole poll before anything is written or run, and the next poll meets it
  again: no task runs until the file is fixed. That is a task without ``type``; a missing ``value`` (the
  cron check's own log line reads it again); ``int(None)``, ``int([..])``, ``int(Infinity)``; a once time
  that is not text (``fromisoformat(5)``: TypeError); an interval's last_run that is not an ISO time (only
  its ``int()`` is guarded); croniter given something other than text (AttributeError) or a last_run near
  year 1 or 9999 (OverflowError); an entry of the list that is not an object (``files.read_tasks`` says
  that one: it is never listed as a task). Checked against the bot's own scheduler code with croniter 7.0.0
  (its requirement is unpinned, ``croniter>=1.0``).
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from typing import Any

from croniter import croniter

from daycare_gui.stores.cianaparrot.bot_json import spelled, task_id

# What the bot's scheduler does with a task whose error it does not catch.
STALLS_AFTER = "fails on it at every poll, so no task runs until it is fixed"
STALLS = f"the bot's scheduler {STALLS_AFTER}"
NEVER = "the task never runs"
FIRST_RUN = "it has never run, so the scheduler runs it once at its next poll, then"
MISSING = object()  # a key the task does not have (the bot's task["value"] raises KeyError)


@dataclass(frozen=True)
class Verdict:
    """When the bot next runs a task (ms since the epoch; a past time means at its next poll; None: never),
    what is wrong with it, and whether the bot's scheduler fails on it: "now", "after its first run", or
    None."""

    when: int | None
    problem: str | None = None
    stalls: str | None = None


def _time(value: Any) -> dt.datetime:
    """The bot's ``_ensure_utc(datetime.fromisoformat(value))``, raising as it does."""
    moment = dt.datetime.fromisoformat(value)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.timezone.utc)


def _ms(moment: dt.datetime) -> int | None:
    """``moment`` in ms, or None when it falls outside the years 1 to 9999 in UTC (a time the app could
    not show)."""
    try:
        return int(moment.astimezone(dt.timezone.utc).timestamp() * 1000)
    except (OverflowError, ValueError):
        return None


def _due_at(moment: dt.datetime, now_ms: int) -> tuple[int | None, str | None]:
    """(when, problem) for a run due at ``moment``: before year 1 in UTC it is long past (due at the next
    poll); after year 9999 it never comes."""
    at = _ms(moment)
    if at is not None:
        return at, None
    if moment.year <= 1:
        return now_ms, None
    return None, f"its next run falls after the year 9999 (UTC); {NEVER}"


def judge(task: dict, now_ms: int | None = None) -> Verdict:
    """What the bot's scheduler does with ``task`` (a dict read from the tasks file)."""
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    if not task.get("active", True):
        return Verdict(None)
    if "type" not in task:
        return Verdict(None, f'the task has no "type"; {STALLS}', "now")
    kind, value, last = task["type"], task.get("value", MISSING), task.get("last_run")
    if kind == "once":
        return _once(value, last, now_ms)
    if kind == "interval":
        return _interval(value, last, now_ms)
    if kind == "cron":
        return _cron(value, last, now_ms)
    return Verdict(None, f"unknown task type {spelled(kind)}; the scheduler ignores it, so {NEVER}")


def _once(value: Any, last: Any, now_ms: int) -> Verdict:
    if last:  # ran, whatever last_run says
        if isinstance(last, str) and _parses(last):
            return Verdict(None)
        return Verdict(None, f"last_run {spelled(last)} is not an ISO time, but the scheduler only checks that "
                             f"it is set: it takes the task as run, so {NEVER}")
    if value is MISSING:
        return Verdict(None, f'the task has no "value"; {STALLS}', "now")
    if not isinstance(value, str):
        return Verdict(None, f"{spelled(value)} is not an ISO time (not text); {STALLS}", "now")
    try:
        at = _time(value)
    except ValueError:
        return Verdict(None, f"{value!r} is not an ISO time; the scheduler skips it, so {NEVER}")
    return Verdict(*_due_at(at, now_ms))


def _parses(text: str) -> bool:
    try:
        _time(text)
    except ValueError:
        return False
    return True


def _interval(value: Any, last: Any, now_ms: int) -> Verdict:
    if value is MISSING:
        return Verdict(None, f'the task has no "value"; {STALLS}', "now")
    try:
        seconds = int(value)
    except ValueError:  # (int("soon"), int(NaN)) caught: the task is skipped
        return Verdict(None, f"interval {spelled(value)} is not a whole number of seconds; the scheduler skips "
                             f"it, so {NEVER}")
    except (TypeError, OverflowError):  # (int(None), int(Infinity)) not caught
        return Verdict(None, f"interval {spelled(value)} is not a whole number of seconds; {STALLS}", "now")
    # (now - last) is at least a negative interval almost always: due at every poll
    note = (f"interval {spelled(value)} is not a positive number of seconds; the scheduler runs the task at every poll"
            if seconds <= 0 else None)
    if not last:
        return Verdict(now_ms, note)
    try:
        ran = _time(last)
    except (TypeError, ValueError):  # not caught here (only int() is guarded)
        return Verdict(None, f"last_run {spelled(last)} is not an ISO time; {STALLS}", "now")
    try:
        at = ran + dt.timedelta(seconds=seconds)
    except OverflowError:  # (beyond what a timedelta or a datetime holds)
        if seconds < 0:
            return Verdict(now_ms, note)
        return Verdict(None, f"interval {spelled(value)} seconds: its next run falls after the year 9999; {NEVER}")
    when, problem = _due_at(at, now_ms)
    return Verdict(when, note or problem)


def _cron(value: Any, last: Any, now_ms: int) -> Verdict:
    if not last:  # due before the expression is parsed; the bot then sets last_run to that poll's time
        _nxt, wrong, stalls = _cron_next(value, dt.datetime.fromtimestamp(now_ms / 1000, dt.timezone.utc))
        if wrong is None:
            return Verdict(now_ms)
        if stalls:
            return Verdict(now_ms, f"{wrong}; {FIRST_RUN} {STALLS_AFTER}", "after its first run")
        return Verdict(now_ms, f"{wrong}; {FIRST_RUN} skips it at every poll, so it never runs again")
    try:
        ran = _time(last)
    except (TypeError, ValueError):
        if value is MISSING:  # the bot's warning reads task["value"] and raises KeyError out of the poll
            return Verdict(None, f'the task has no "value"; {STALLS}', "now")
        return Verdict(None, f"last_run {spelled(last)} is not an ISO time; the scheduler skips it, so {NEVER}")
    nxt, wrong, stalls = _cron_next(value, ran)
    if wrong is None:
        return Verdict(*_due_at(nxt, now_ms))
    if stalls:
        return Verdict(None, f"{wrong}; {STALLS}", "now")
    return Verdict(None, f"{wrong}; the scheduler skips it, so {NEVER}")


def _cron_next(value: Any, ran: dt.datetime) -> tuple[dt.datetime | None, str | None, bool]:
    """The bot's ``croniter(task["value"], last).get_next(datetime)``: (the next match, what is wrong, and
    whether the error leaves the poll). croniter counts in ``ran``'s own offset: a last_run written with
    +02:00 gives the next match in +02:00."""
    if value is MISSING:  # KeyError, caught; but the warning that follows reads task["value"] again
        return None, 'the task has no "value"', True
    what = f"{value!r}" if isinstance(value, str) else f"{spelled(value)} (not text)"
    try:
        nxt = croniter(value, ran).get_next(dt.datetime)
    except (ValueError, KeyError, TypeError) as exc:  # what the bot catches: the task is skipped
        if not isinstance(value, str) or not croniter.is_valid(value):
            return None, f"{what} is not a valid cron expression", False
        return None, f"cron {what} has no next run ({exc})", False
    except Exception as exc:  # anything else leaves the poll: croniter calls .lower() on a number
        # (AttributeError), and overflows past year 9999 (OverflowError)
        if not isinstance(value, str):
            return None, f"{what} is not a cron expression", True
        return None, f"cron {what} after last_run {ran.isoformat()}: {exc}", True
    return (nxt if nxt.tzinfo is not None else nxt.replace(tzinfo=dt.timezone.utc)), None, False


def named(task: dict, index: int) -> str:
    """A task as a problem names it: its id, else its place in the file."""
    tid = task_id(task)
    return f"task {tid}" if tid else f"task #{index + 1} (no id)"


def blocked_note(stallers: list[tuple[str, str]]) -> str:
    """The note on every other active task while the file holds ``stallers``, (name, ``Verdict.stalls``) of
    the tasks the bot's scheduler fails on: it fails before running any task."""
    names = " and ".join(name for name, _ in stallers)
    verb = "make" if len(stallers) > 1 else "makes"
    if any(when == "now" for _, when in stallers):
        return f"{names} {verb} the bot's scheduler fail at every poll, so this task does not run until that is fixed"
    return (f"{names} {verb} the bot's scheduler fail at every poll after the next one, so from then on this task "
            "does not run until that is fixed")
