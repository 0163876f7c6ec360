"""The automations report reads each automation's runs once where it can: ``inspect --json``'s summary (no runs
listed) and a report of the latest runs take them from the runs read for health. On today's Daycare every read
reconstructs a task agent's whole history (the 1M-record demo: seconds an automation)."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.common.run_report import automations_report, automations_summary
from daycare_gui.stores.records import Automation, Run


class Counting(api.Automations):
    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def automations(self):
        return [Automation("cron:a", "A"), Automation("cron:b", "B")]

    def runs(self, automation_id, *, since=None, limit=None):
        self.calls.append((automation_id, since, limit))
        every = [Run(f"{automation_id}-{i}", automation_id, 1_000_000 - i * 1000, outcome="worked") for i in range(300)]
        every = [r for r in every if since is None or r.started_at >= since]
        return every[:limit] if limit is not None else every


def test_the_summary_reads_each_automations_runs_once():
    cap = Counting()
    summary = automations_summary(cap, now_ms=2_000_000)
    assert summary["runs"] == 400 and len(cap.calls) == 2  # (health reads the latest 200 of each)


def test_the_latest_runs_come_from_the_health_read_and_others_are_read_as_asked():
    cap = Counting()
    (a,) = automations_report(cap, task="A", limit=5, now_ms=2_000_000)
    assert [r["id"] for r in a["runs"]] == [f"cron:a-{i}" for i in range(5)] and len(cap.calls) == 1
    (a,) = automations_report(cap, task="A", now_ms=2_000_000)  # every run: more than health's 200
    assert len(a["runs"]) == 300 and cap.calls[-1] == ("cron:a", None, None)
    (a,) = automations_report(cap, task="A", since=1_000_000 - 2000, now_ms=2_000_000)
    assert [r["id"] for r in a["runs"]] == ["cron:a-0", "cron:a-1", "cron:a-2"]
