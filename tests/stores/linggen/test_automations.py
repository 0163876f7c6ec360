"""Linggen's missions on the automations page: one run per runs.jsonl line, with the outcome and the start
time each format means, the session it made, and a run still "running" without Linggen flagged (#36)."""

from __future__ import annotations

import json

from daycare_gui.stores.api import Automations
from daycare_gui.stores.linggen import KIND
from daycare_gui.stores.linggen.demo import write_demo
from tests.stores.linggen.builder import T0, line
from tests.stores.linggen.home17 import NIGHTLY, T17, Home17, home17, run_row

OUTCOME = {"completed": "worked", "failed": "failed", "skipped": "skipped", "running": "running",
           "interrupted": "interrupted", "cancelled": "interrupted"}


def _automations(root) -> Automations:
    return KIND.open(root).capability(Automations)


def _lines(path) -> list[dict]:
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def _as_written(root, mission: str) -> list[tuple]:
    """(run id, outcome, start in ms, session id) of each runs.jsonl line, newest first, as 1.7 means them."""
    rows = _lines(root / "missions" / mission / "runs.jsonl")
    return [(r["run_id"], OUTCOME[r["status"]], r["triggered_at"] * 1000, r.get("session_id"))
            for r in reversed(rows)]


def _as_listed(auto: Automations, aid: str) -> list[tuple]:
    return [(r.id, r.outcome, r.started_at, r.session.session_id if r.session else None) for r in auto.runs(aid)]


def test_the_demo_lists_every_mission_run_it_wrote_line_for_line(tmp_path):
    home = write_demo(tmp_path / "home")
    auto = _automations(home)
    ids = [a.id for a in auto.automations() if a.runs_told]
    assert ids == ["mission:daily-review", "mission:nightly-tests"]
    for mission in ("daily-review", "nightly-tests"):
        assert _as_listed(auto, f"mission:{mission}") == _as_written(home, mission)
    nightly = auto.runs("mission:nightly-tests")
    assert [r.outcome for r in nightly] == ["running", "worked", "skipped", "failed", "worked"]
    assert nightly[0].evidence.startswith("running, but Linggen is not running")  # the demo has no daemon
    assert nightly[3].error == "the model provider refused the request (429 Too Many Requests)"
    assert all(r.certainty == "logged" for r in nightly)
    assert len(auto.run_sessions()) == 4  # the sessions the nightly runs made; the skipped one made none


def test_a_linggen_17_home_lists_its_runs_line_for_line_with_the_stale_running_one_flagged(tmp_path):
    h = home17(tmp_path / "home")
    auto = _automations(h.root)
    for mission in ("daily-review", "nightly"):
        assert _as_listed(auto, f"mission:{mission}") == _as_written(h.root, mission)
    running = auto.runs("mission:daily-review")[0]
    assert running.outcome == "running" and running.finished_at is None  # 1.7 keeps no end
    assert running.evidence.startswith("running, but Linggen is not running")
    assert ("Flag", "stale: will be marked interrupted when Linggen next starts") in running.meta
    h.pid()  # while Linggen runs, a running run is just running
    running = _automations(h.root).runs("mission:daily-review")[0]
    assert running.outcome == "running" and "not running" not in running.evidence
    assert not [v for k, v in running.meta if k == "Flag"]


def test_runs_written_before_17_start_with_their_session_and_end_at_triggered_at(tmp_path):
    h = Home17(tmp_path / "home")
    h.flat_session("s1", "Nightly", T0 - 600, line("ling", "user", "Error: disk full", T0 - 30),
                   creator="mission", mission_id="old")
    h.flat_session("s2", "Nightly", T0 + 86400 - 900, creator="mission", mission_id="old")
    h.project("/work/app", "app")
    h.run("-work-app", "run-ling-1", session="s3", started=T0 + 2 * 86400 - 300, ended=T0 + 2 * 86400 - 5)
    h.mission17("old", NIGHTLY, runs="".join([
        run_row("mission-run-1", "failed", T0, session="s1", entry_exit_code=3, output_dir="/h/missions/old/runs/1"),
        run_row("mission-run-2", "completed", T0 + 86400, session="s2"),  # no entry script: no exit code
        run_row("mission-run-3", "completed", T0 + 2 * 86400, session="s3", entry_exit_code=0, output_dir="/o"),
        run_row("mission-run-4", "skipped", T0 + 3 * 86400, skipped=True),
        run_row("mission-run-5", "completed", T17, session="s5"),  # appended by 1.7 after the upgrade
    ]))
    runs = {r.id: r for r in _automations(h.root).runs("mission:old")}
    failed = runs["mission-run-1"]
    assert (failed.outcome, failed.started_at, failed.finished_at) == ("failed", (T0 - 600) * 1000, T0 * 1000)
    assert failed.error == "disk full"  # the Error: line Linggen appended to the run's session
    assert ("Exit code", "3") in failed.meta
    no_code = runs["mission-run-2"]
    assert (no_code.started_at, no_code.finished_at) == ((T0 + 86400 - 900) * 1000, (T0 + 86400) * 1000)
    from_agent_run = runs["mission-run-3"]  # the per-project run file of that time knows the start
    assert from_agent_run.started_at == (T0 + 2 * 86400 - 300) * 1000 and from_agent_run.outcome == "worked"
    assert runs["mission-run-4"].outcome == "skipped" and runs["mission-run-4"].session is None
    assert runs["mission-run-5"].started_at == T17 * 1000 and runs["mission-run-5"].finished_at is None
    assert [r.id for r in _automations(h.root).runs("mission:old", since=(T0 + 86400) * 1000, limit=2)] == [
        "mission-run-5", "mission-run-4"]


def test_an_entry_script_that_failed_fails_its_run_and_says_its_exit_code(tmp_path):
    h = Home17(tmp_path / "home")
    h.mission17("old", NIGHTLY, runs=run_row("mission-run-1", "completed", T0, entry_exit_code=2, output_dir="/o"))
    (run,) = _automations(h.root).runs("mission:old")
    assert run.outcome == "failed" and run.error == "the entry script exited with code 2"


def test_per_project_missions_say_their_runs_cannot_be_told_apart(tmp_path):
    h = Home17(tmp_path / "home")
    folder = h.project("/work/app", "app")
    h.mission(folder, T0, "Keep it green", True)
    h.run(folder, "run-ling-1")
    auto = _automations(h.root)
    (mission,) = auto.automations()
    assert not mission.runs_told and "cannot be told apart" in mission.why
    assert auto.runs(mission.id) == [] and auto.run_sessions() == frozenset()


def test_an_error_quoting_a_key_shows_the_key_masked(tmp_path):
    h = Home17(tmp_path / "home")
    h.flat_session("s1", "Nightly", T17, line("ling", "user", "Error: 401 for key sk-ant-api03-abcdefghijklmnop", T17 + 5),
                   creator="mission", mission_id="nightly")
    h.mission17("nightly", NIGHTLY, runs=run_row("mission-run-1", "failed", T17, session="s1"))
    (run,) = _automations(h.root).runs("mission:nightly")
    assert run.error.startswith("401 for key ") and "abcdefghijklmnop" not in run.error
