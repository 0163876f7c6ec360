"""Any kind's scheduled task in words with its next runs (stores.common.task_times): the next run the
store's own system computed wins over the schedule counted from now, and one that has passed is overdue."""

from __future__ import annotations

import datetime as dt

from daycare_gui.stores.common.task_times import task_times
from daycare_gui.stores.records import TaskItem

UTC = dt.timezone.utc
NOW = dt.datetime(2026, 11, 27, 6, 30, tzinfo=UTC)


def _ms(*parts) -> int:
    return int(dt.datetime(*parts, tzinfo=UTC).timestamp() * 1000)


def _task(kind: str, schedule: str, next_run_at: int | None = None, enabled: bool = True,
          last_run_at: int | None = None) -> TaskItem:
    return TaskItem(id="t", title="t", schedule_kind=kind, schedule=schedule, timezone="UTC", enabled=enabled,
                    next_run_at=next_run_at, last_run_at=last_run_at)


def test_a_cron_task_due_in_the_past_is_overdue_and_the_schedule_goes_on_from_now():
    times = task_times(_task("cron", "0 8 * * *", _ms(2026, 2, 26, 8)), now=NOW)
    assert times.overdue == dt.datetime(2026, 2, 26, 8, tzinfo=UTC)
    assert times.next_runs[:2] == (dt.datetime(2026, 11, 27, 8, tzinfo=UTC), dt.datetime(2026, 11, 28, 8, tzinfo=UTC))
    assert len(times.next_runs) == 5 and times.words.startswith("At 08:00")


def test_a_cron_task_runs_first_when_its_system_says_then_by_its_schedule():
    # the store says 09:15 (say the schedule was edited and the system has not recomputed it yet)
    times = task_times(_task("cron", "0 8 * * *", _ms(2026, 11, 27, 9, 15)), now=NOW)
    assert times.overdue is None
    assert times.next_runs[:3] == (dt.datetime(2026, 11, 27, 9, 15, tzinfo=UTC),
                                   dt.datetime(2026, 11, 28, 8, tzinfo=UTC), dt.datetime(2026, 11, 29, 8, tzinfo=UTC))
    assert len(times.next_runs) == 5


def test_a_cron_task_without_a_stored_next_run_counts_from_now():
    times = task_times(_task("cron", "0 8 * * *"), now=NOW)
    assert times.overdue is None and times.next_runs[0] == dt.datetime(2026, 11, 27, 8, tzinfo=UTC)


def test_an_interval_task_due_in_the_past_runs_now_then_every_interval():
    times = task_times(_task("interval", "3600", _ms(2026, 11, 1, 0)), now=NOW)
    assert times.overdue == dt.datetime(2026, 11, 1, tzinfo=UTC)
    assert times.next_runs[:2] == (NOW + dt.timedelta(hours=1), NOW + dt.timedelta(hours=2))
    assert all(t > NOW for t in times.next_runs) and len(times.next_runs) == 5
    ahead = task_times(_task("interval", "3600", _ms(2026, 11, 27, 7)), now=NOW)
    assert ahead.overdue is None and ahead.next_runs[0] == dt.datetime(2026, 11, 27, 7, tzinfo=UTC)


def test_a_once_task_whose_time_passed_is_overdue_and_a_disabled_task_never_is():
    once = task_times(_task("once", "2026-11-01T09:00:00", _ms(2026, 11, 1, 9)), now=NOW)
    assert once.overdue == dt.datetime(2026, 11, 1, 9, tzinfo=UTC) and once.next_runs == ()
    off = task_times(_task("cron", "0 8 * * *", _ms(2026, 2, 26, 8), enabled=False), now=NOW)
    assert off.overdue is None and off.next_runs == ()


def test_schedules_whose_runs_cannot_be_counted_say_so_instead_of_raising():
    # a cron that matches no date (croniter gives up); times past year 9999 (an interval of 1e300 seconds,
    # a run due at the end of 9999): the page and its table call this for every row
    end_of_9999 = _ms(9999, 12, 31, 23, 59)
    for task in (_task("cron", "0 0 31 2 *"), _task("cron", "0 0 31 2 *", _ms(2026, 2, 26, 8)),
                 _task("interval", "1e+300", _ms(2026, 2, 26, 8)), _task("cron", "0 8 * * *", end_of_9999),
                 _task("interval", "60", end_of_9999)):
        times = task_times(task, now=NOW)
        assert times.error.startswith("its next runs cannot be counted (") and times.next_runs == ()
