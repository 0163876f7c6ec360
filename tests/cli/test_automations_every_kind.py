"""`daycare-gui automations PATH --json` and `inspect --json`'s summary on the demo of every kind besides Daycare
(whose generations have their own tests): the command prints the runs the store holds, with outcome, start and
error, narrowed by --task and --since; a Linggen home's runs are its runs.jsonl line for line with the stale
"running" one flagged (#36)."""

from __future__ import annotations

import json

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import api
from daycare_gui.stores.common.run_report import iso
from daycare_gui.stores.registry import open_store
from tests.conftest import snapshot_tree


def _demo(kind: str, dest):
    if kind == "linggen":
        from daycare_gui.stores.linggen.demo import write_demo
    elif kind == "cianaparrot":
        from daycare_gui.stores.cianaparrot.demo import write_demo
    else:
        from daycare_gui.stores.agentstack import write_demo
    return write_demo(dest)


def _json(capsys, *argv) -> dict:
    assert main([*map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("kind", ["linggen", "cianaparrot", "agentstack"])
def test_the_command_lists_each_kinds_runs_as_the_store_tells_them(kind, tmp_path, capsys):
    path = _demo(kind, tmp_path / kind)
    with open_store(path, live=False) as opened:
        cap = opened.capability(api.Automations)
        held = {a.id: [(r.started_at, r.outcome, r.error) for r in cap.runs(a.id)] for a in cap.automations()}
    before = snapshot_tree(tmp_path / kind)
    report = _json(capsys, "automations", path)
    assert snapshot_tree(tmp_path / kind) == before  # nothing written
    assert report["kind"] == kind and report["offered"]
    printed = {a["id"]: [(r["started_ms"], r["outcome"], r["error"]) for r in a["runs"]] for a in report["automations"]}
    assert printed == held
    outcomes = {o for runs in held.values() for _s, o, _e in runs}
    assert {"worked", "failed"} <= outcomes and outcomes & {"running", "unknown"}
    # one task, from the start of its second newest run
    busiest = max(held, key=lambda k: len(held[k]))
    cut = held[busiest][1][0]
    (one,) = _json(capsys, "automations", path, "--task", busiest, "--since", iso(cut))["automations"]
    assert [(r["started_ms"], r["outcome"]) for r in one["runs"]] == [(s, o) for s, o, _e in held[busiest][:2]]
    summary = _json(capsys, "inspect", path)["automations"]
    assert summary["count"] == len(held) and summary["runs"] == sum(len(v) for v in held.values())
    assert summary["failures"] == sum(o == "failed" for v in held.values() for _s, o, _e in v)


def test_a_linggen_home_prints_its_runs_jsonl_line_for_line_and_flags_the_stale_running_run(tmp_path, capsys):
    home = _demo("linggen", tmp_path / "home")
    report = _json(capsys, "automations", home, "--task", "mission:nightly-tests")
    (nightly,) = report["automations"]
    lines = [json.loads(t) for t in (home / "missions" / "nightly-tests" / "runs.jsonl").read_text().splitlines()]
    assert [(r["id"], r["started_ms"]) for r in nightly["runs"]] == [
        (row["run_id"], row["triggered_at"] * 1000) for row in reversed(lines)]
    assert [r["outcome"] for r in nightly["runs"]] == [
        {"completed": "worked"}.get(row["status"], row["status"]) for row in reversed(lines)]
    stale = nightly["runs"][0]
    assert stale["outcome"] == "running" and nightly["health"]["stuck"] == [stale["id"]]
    assert any(p.startswith(f"Run {stale['id']} still running after") for p in nightly["health"]["problems"])
