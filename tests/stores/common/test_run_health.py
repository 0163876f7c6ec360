"""Health of an automation from made-up runs: what the page and the CLI flag at a glance."""

from __future__ import annotations

import datetime as dt

from daycare_gui.stores.common.run_health import due_times, run_health
from daycare_gui.stores.records import Automation, Run, TaskItem

HOUR = 3_600_000
DAY = 24 * HOUR
# 2026-11-18 12:00 UTC, a Wednesday
NOW = int(dt.datetime(2026, 11, 18, 12, 0, tzinfo=dt.timezone.utc).timestamp() * 1000)
DAILY_7 = TaskItem("t", "Digest", "cron", "0 7 * * *", timezone="UTC")


def at(day: int, hour: int = 7, minute: int = 0) -> int:
    return int(dt.datetime(2026, 11, day, hour, minute, tzinfo=dt.timezone.utc).timestamp() * 1000)


def run(i, started, outcome="worked", error=""):
    return Run(str(i), "t", started, started + 60_000 if outcome not in ("running",) else None, outcome, error)


def test_a_daily_task_that_ran_every_day_is_healthy():
    runs = [run(d, at(d)) for d in range(10, 19)]  # 10th..18th at 07:00, today included
    h = run_health(Automation("t", "Digest", DAILY_7), runs, now_ms=NOW)
    assert h.success_rate == 1.0 and h.window == 9
    assert h.expected == 9 and not h.stopped_firing
    assert h.problems() == []
    assert h.summary() == "100% of the last 9 worked"


def test_success_rate_counts_only_the_last_n_runs_and_names_the_last_error():
    runs = [run(d, at(d), "failed" if d in (12, 16) else "worked",
                "Timeout talking to Gmail" if d == 16 else "old error") for d in range(10, 19)]
    h = run_health(Automation("t", "Digest", DAILY_7), runs, now_ms=NOW, window=5)
    assert (h.window, h.worked, h.failed) == (5, 4, 1)
    assert h.success_rate == 0.8
    assert h.last_failure.id == "16"
    assert "1 of the last 5 runs failed: Timeout talking to Gmail" in h.problems()


def test_a_task_whose_last_run_is_days_before_its_last_due_time_stopped_firing():
    runs = [run(d, at(d)) for d in range(5, 15)]  # ran the 5th..14th, nothing since
    h = run_health(Automation("t", "Digest", DAILY_7), runs, now_ms=NOW)
    assert h.stopped_firing
    assert h.missed_since_last == 4  # the 15th, 16th, 17th and 18th at 07:00
    assert h.last_due == at(18)
    assert h.expected == 14 and h.runs_seen == 10  # due since the first run vs seen
    assert h.gap_ms == NOW - at(14)
    assert h.problems()[0] == "Stopped firing: 4 runs were due since the last one (last run 4 days ago)"


def test_a_due_time_minutes_ago_is_not_yet_missed():
    runs = [run(17, at(17, 11, 0))]
    hourly = TaskItem("t", "Hourly", "cron", "0 * * * *", timezone="UTC")
    assert run_health(Automation("t", "Hourly", hourly), runs, now_ms=at(17, 12, 2)).missed_since_last == 0
    assert run_health(Automation("t", "Hourly", hourly), runs, now_ms=at(17, 12, 10)).missed_since_last == 1


def test_a_disabled_or_unscheduled_task_never_stopped_firing():
    runs = [run(1, at(1))]
    off = TaskItem("t", "Off", "cron", "0 7 * * *", timezone="UTC", enabled=False)
    hook = TaskItem("t", "Hook", "webhook")
    assert not run_health(Automation("t", "Off", off), runs, now_ms=NOW).stopped_firing
    assert not run_health(Automation("t", "Hook", hook), runs, now_ms=NOW).stopped_firing
    assert run_health(Automation("t", "Hook", hook), runs, now_ms=NOW).expected is None


def test_a_run_still_running_hours_later_is_stuck_but_a_fresh_one_is_not():
    runs = [run(1, NOW - 5 * HOUR, "running"), run(2, NOW - 10 * 60_000, "running")]
    h = run_health(Automation("t", "Hook", TaskItem("t", "Hook", "webhook")), runs, now_ms=NOW)
    assert [r.id for r in h.stuck] == ["1"]
    assert "Run 1 still running after 5 hours" in h.problems()


def test_a_deleted_task_with_runs_left_says_so():
    runs = [run(1, at(3)), run(2, at(4), "failed", "boom")]
    h = run_health(Automation("t", "Dentist", DAILY_7, deleted=True), runs, now_ms=NOW)
    assert not h.stopped_firing  # a deleted task is not expected to fire
    assert "The task was deleted; 2 of its runs remain" in h.problems()


def test_no_runs_but_an_old_last_run_at_still_tells_a_task_that_stopped():
    task = TaskItem("t", "Digest", "cron", "0 7 * * *", timezone="UTC", last_run_at=at(10))
    h = run_health(Automation("t", "Digest", task), [], now_ms=NOW)
    assert h.missed_since_last == 8 and h.summary().startswith("no runs seen · Stopped firing: 8 runs")


def test_interval_and_cap():
    every_30 = TaskItem("h", "Heartbeat", "interval", "1800")
    assert due_times(every_30, 0, 2 * HOUR) == [1_800_000, 3_600_000, 5_400_000, 7_200_000]
    every_minute = TaskItem("t", "Busy", "cron", "* * * * *", timezone="UTC")
    assert len(due_times(every_minute, 0, 30 * DAY, cap=500)) == 500
    assert due_times(TaskItem("t", "Bad", "cron", "99 * * * *"), 0, DAY) is None


def test_one_run_reads_as_one():
    """A task seen once: "1 run", "the last run worked", or its failure said once — never "1 runs"."""
    task = Automation("t", "Digest", DAILY_7)
    assert run_health(task, [run(1, at(18), "unknown")], now_ms=NOW).summary() == "1 run"
    assert run_health(task, [run(1, at(18))], now_ms=NOW).summary() == "the last run worked"
    failed = run_health(task, [run(1, at(18), "failed", "401 token expired")], now_ms=NOW).summary()
    assert failed == "The last run failed: 401 token expired"
