"""A task the bot's scheduler cannot use is described as the scheduler treats it, in its code's order.

The bot (emanueleielo/ciana-parrot@d289c767, src/scheduler.py ``_is_due``) runs a cron or interval task that
never ran before it reads the task's value, skips the task on the errors it catches, and lets every other
error out of its poll: then no task runs at all, poll after poll, until the file is fixed. Such a task is
said on itself, on every task it stops, and in the list of the file's problems.
"""

from __future__ import annotations

import datetime as dt
import json
import time

from daycare_gui.stores.api import Tasks
from daycare_gui.stores.cianaparrot import KIND

STALLS = "the bot's scheduler fails on it at every poll, so no task runs until it is fixed"
RAN = "2026-02-25T08:00:12+00:00"
FINE = {"id": "fine0001", "prompt": "Say hi", "type": "interval", "value": 3600, "last_run": None, "active": True}


def _open(deployment, *tasks):
    (deployment / "data" / "scheduled_tasks.json").write_text(json.dumps([FINE, *tasks], indent=2))
    return KIND.open(deployment)


def _listed(store):
    return {t.id: t for t in store.capability(Tasks).tasks()}


def _file_problems(store):
    return [(p.message, p.severity) for p in store.problems if p.path.endswith("scheduled_tasks.json")]


def test_a_bad_cron_expression_that_never_ran_runs_once_then_never_again(deployment):
    with _open(deployment, {"id": "cron0001", "prompt": "p", "type": "cron", "value": "every morning"}) as store:
        task = _listed(store)["cron0001"]
        assert task.problem == ("'every morning' is not a valid cron expression; it has never run, so the scheduler "
                                "runs it once at its next poll, then skips it at every poll, so it never runs again")
        assert task.next_run_at is not None and task.next_run_at <= time.time() * 1000  # at the next poll
        # only this task is affected: nothing listed for the file, nothing said on the others
        assert _file_problems(store) == [] and _listed(store)["fine0001"].problem is None


def test_a_bad_cron_expression_that_ran_is_skipped(deployment):
    with _open(deployment, {"id": "cron0002", "prompt": "p", "type": "cron", "value": "every morning",
                            "last_run": RAN}) as store:
        task = _listed(store)["cron0002"]
        assert task.problem == ("'every morning' is not a valid cron expression; the scheduler skips it, so the "
                                "task never runs")
        assert task.next_run_at is None and _file_problems(store) == []


def test_a_cron_value_that_is_not_text_runs_once_then_stops_every_task(deployment):
    with _open(deployment, {"id": "cron0003", "prompt": "p", "type": "cron", "value": 8}) as store:
        tasks = _listed(store)
        said = ("8 (not text) is not a cron expression; it has never run, so the scheduler runs it once at its next "
                "poll, then fails on it at every poll, so no task runs until it is fixed")
        assert tasks["cron0003"].problem == said
        assert tasks["cron0003"].next_run_at <= time.time() * 1000
        assert tasks["fine0001"].problem == ("task cron0003 makes the bot's scheduler fail at every poll after the "
                                             "next one, so from then on this task does not run until that is fixed")
        assert _file_problems(store) == [(f"task cron0003: {said}", "error")]


def test_a_cron_value_that_is_not_text_stops_every_task_once_it_ran(deployment):
    with _open(deployment, {"id": "cron0004", "prompt": "p", "type": "cron", "value": None, "last_run": RAN}) as store:
        tasks = _listed(store)
        said = f"null (not text) is not a cron expression; {STALLS}"
        assert tasks["cron0004"].problem == said and tasks["cron0004"].next_run_at is None
        assert tasks["fine0001"].problem == ("task cron0004 makes the bot's scheduler fail at every poll, so this "
                                             "task does not run until that is fixed")
        assert _file_problems(store) == [(f"task cron0004: {said}", "error")]


def test_a_malformed_last_run_stops_every_task_on_an_interval_task_and_is_skipped_on_a_cron_one(deployment):
    with _open(deployment,
               {"id": "intv0001", "prompt": "p", "type": "interval", "value": 60, "last_run": "yesterday"},
               {"id": "cron0005", "prompt": "p", "type": "cron", "value": "0 8 * * *", "last_run": "yesterday"},
               {"id": "once0001", "prompt": "p", "type": "once", "value": RAN, "last_run": "yesterday"}) as store:
        tasks = _listed(store)
        said = f"last_run 'yesterday' is not an ISO time; {STALLS}"
        assert tasks["intv0001"].problem == said  # (fromisoformat is not guarded there)
        assert tasks["cron0005"].problem == ("last_run 'yesterday' is not an ISO time; the scheduler skips it, so "
                                             "the task never runs")
        assert tasks["once0001"].problem == ("last_run 'yesterday' is not an ISO time, but the scheduler only "
                                             "checks that it is set: it takes the task as run, so the task never "
                                             "runs")
        assert _file_problems(store) == [(f"task intv0001: {said}", "error")]


def test_a_task_without_a_type_stops_every_task_and_one_of_an_unknown_type_is_ignored(deployment):
    with _open(deployment, {"id": "notype01", "prompt": "p", "value": 60},
               {"id": "weekly01", "prompt": "p", "type": "weekly", "value": "mon"},
               {"id": "notype02", "prompt": "p", "value": 60, "active": False}) as store:  # (never looked at)
        tasks = _listed(store)
        said = f'the task has no "type"; {STALLS}'
        assert tasks["notype01"].problem == said
        assert tasks["weekly01"].problem == ("unknown task type 'weekly'; the scheduler ignores it, so the task "
                                             "never runs")
        assert tasks["notype02"].problem is None
        assert _file_problems(store) == [(f"task notype01: {said}", "error")]


def test_once_and_interval_values_the_scheduler_skips_or_fails_on(deployment):
    with _open(deployment, {"id": "once0002", "prompt": "p", "type": "once", "value": "tomorrow"},
               {"id": "once0003", "prompt": "p", "type": "once", "value": 1767225600},
               {"id": "once0004", "prompt": "p", "type": "once"},
               {"id": "intv0002", "prompt": "p", "type": "interval", "value": "soon"},
               {"id": "intv0003", "prompt": "p", "type": "interval", "value": None}) as store:
        tasks = _listed(store)
        assert tasks["once0002"].problem == ("'tomorrow' is not an ISO time; the scheduler skips it, so the task "
                                             "never runs")
        assert tasks["once0003"].problem == f"1767225600 is not an ISO time (not text); {STALLS}"
        assert tasks["once0004"].problem == f'the task has no "value"; {STALLS}'
        assert tasks["intv0002"].problem == ("interval 'soon' is not a whole number of seconds; the scheduler skips "
                                             "it, so the task never runs")
        # int(None): TypeError, which the bot does not catch
        assert tasks["intv0003"].problem == f"interval null is not a whole number of seconds; {STALLS}"
        assert tasks["fine0001"].problem == ("task once0003 and task once0004 and task intv0003 make the bot's "
                                             "scheduler fail at every poll, so this task does not run until that "
                                             "is fixed")
        assert _file_problems(store) == [(f"task once0003: {tasks['once0003'].problem}", "error"),
                                         (f"task once0004: {tasks['once0004'].problem}", "error"),
                                         (f"task intv0003: {tasks['intv0003'].problem}", "error")]


def test_an_entry_that_is_not_an_object_stops_every_task(deployment):
    (deployment / "data" / "scheduled_tasks.json").write_text(json.dumps([FINE, "check the mail"]))
    with KIND.open(deployment) as store:
        assert list(_listed(store)) == ["fine0001"]
        assert _file_problems(store) == [(f"task #2 is not an object (a string): {STALLS}; it is not listed", "error")]


def test_a_cron_task_counts_from_its_last_run_in_that_run_s_own_offset(deployment):
    # croniter counts in the offset the time is written with: 08:00 at +02:00, which is 06:00 UTC
    with _open(deployment, {"id": "cron0006", "prompt": "p", "type": "cron", "value": "0 8 * * *",
                            "last_run": "2026-02-25T08:00:12+02:00"}) as store:
        task = _listed(store)["cron0006"]
        assert task.next_run_at == int(dt.datetime(2026, 2, 26, 6, tzinfo=dt.timezone.utc).timestamp()) * 1000
        assert task.problem is None


def test_times_past_year_9999_are_said_not_raised(deployment):
    with _open(deployment, {"id": "intv0004", "prompt": "p", "type": "interval", "value": 1e300, "last_run": RAN},
               {"id": "cron0007", "prompt": "p", "type": "cron", "value": "0 0 * * *",
                "last_run": "9999-12-31T12:00:00+00:00"}) as store:
        tasks = _listed(store)
        assert tasks["intv0004"].problem == ("interval 1e+300 seconds: its next run falls after the year 9999; the "
                                             "task never runs")
        # croniter overflows there, and the bot does not catch OverflowError
        assert tasks["cron0007"].problem == ("cron '0 0 * * *' after last_run 9999-12-31T12:00:00+00:00: date value "
                                             f"out of range; {STALLS}")
