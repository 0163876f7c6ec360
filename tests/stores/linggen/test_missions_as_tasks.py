"""Linggen's flat missions are scheduled tasks: schedule, enabled, the prompt, the last run from runs.jsonl,
and mission.md as the one copy (with why Linggen cannot read it, when it cannot)."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.common.task_times import task_times
from daycare_gui.stores.linggen.demo import write_demo
from daycare_gui.stores.registry import open_store

NOW_MS = 1_795_000_000_000


def test_flat_missions_are_tasks_and_per_project_ones_are_not(tmp_path):
    root = write_demo(tmp_path / "lg", now_ms=NOW_MS)
    off = root / "missions" / "weekly-cleanup"
    off.mkdir()
    (off / "mission.md").write_text("---\nname: Weekly cleanup\nschedule: 0 18 * * 5\nenabled: false\n---\nTidy.\n")
    broken = root / "missions" / "broken"
    broken.mkdir()
    (broken / "mission.md").write_text("---\nname: [unclosed\n---\nx\n")
    with open_store(root, kind="linggen") as store:
        cap = store.capability(api.Tasks)
        assert cap.reader == "Linggen" and cap.groups() == (("cron", "Missions"),)
        tasks = {t.id: t for t in cap.tasks()}
    assert set(tasks) == {"mission:daily-review", "mission:nightly-tests", "mission:weekly-cleanup", "mission:broken"}
    daily = tasks["mission:daily-review"]
    assert daily.title == "Daily review" and daily.schedule == "0 9 * * 1-5" and daily.enabled
    assert daily.body.startswith("Review yesterday's commits")
    assert daily.last_run_at is not None and daily.document.id == "mission:daily-review"
    ((where, read),) = [(c.where, c.read) for c in daily.copies]
    assert (where, read) == ("mission.md", True)
    assert task_times(daily).words == "At 09:00 AM, Monday through Friday" and task_times(daily).next_runs
    weekly = tasks["mission:weekly-cleanup"]
    assert not weekly.enabled and weekly.last_run_at is None
    assert tasks["mission:broken"].ignored and tasks["mission:broken"].problem
