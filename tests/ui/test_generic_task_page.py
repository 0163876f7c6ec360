"""The shared Scheduled tasks page says when a task is overdue, as the store's own system would run it."""

from __future__ import annotations

import datetime as dt

from daycare_gui.stores.records import TaskItem
from daycare_gui.ui.panes.generic.tasks import task_html


def _ms(*parts) -> int:
    return int(dt.datetime(*parts, tzinfo=dt.timezone.utc).timestamp() * 1000)


def _task(next_run_at, last_run_at) -> TaskItem:
    return TaskItem(id="a1", title="Check the weather", schedule_kind="cron", schedule="0 8 * * *", timezone="UTC",
                    enabled=True, next_run_at=next_run_at, last_run_at=last_run_at)


def test_a_cron_task_due_long_ago_reads_overdue_then_its_next_runs(qapp):
    html = task_html(_task(_ms(2026, 2, 26, 8), _ms(2026, 2, 25, 8, 0, 12)))
    assert "Overdue</b> since 2026-02-26 08:00 UTC" in html and "as soon as the system next checks" in html
    assert "<p>Then:</p>" in html and "Next runs" not in html


def test_a_cron_task_that_never_ran_says_so(qapp):
    html = task_html(_task(_ms(2026, 2, 26, 8), None))
    assert "It has never run: it runs as soon as the system next checks" in html


def test_a_task_due_later_lists_its_next_runs(qapp):
    html = task_html(_task(_ms(2099, 1, 1, 8), _ms(2098, 12, 31, 8)))
    assert "Overdue" not in html and "<p>Next runs:</p>" in html and "2099-01-01 08:00 UTC" in html
