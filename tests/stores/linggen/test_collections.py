"""Runs, missions, mission runs, overrides, plans and credentials as the shared list pane shows them."""

import json

import pytest

from daycare_gui.stores.api import Collections, WriteRefused
from daycare_gui.stores.linggen import KIND
from daycare_gui.stores.records import SessionRef
from tests.stores.linggen.builder import T0, Home, standard_home


def _cols(root) -> Collections:
    return KIND.open(root).capability(Collections)


def _rows(cols, cid):
    return cols.rows(cid, 0, cols.size(cid))


def test_runs_are_a_tree_with_status_and_duration(tmp_path):
    standard_home(tmp_path / "home")
    cols = _cols(tmp_path / "home")
    runs = next(c for c in cols.collections() if c.id == "runs")
    assert runs.tree and "Status" in runs.columns and "Duration" in runs.columns
    rows = {r.key: r for r in _rows(cols, "runs")}
    main, child = rows["-work-app/run-ling-1"], rows["-work-app/run-coder-1"]
    col = runs.columns.index
    assert main.parent is None and child.parent == main.key
    assert main.values[col("Status")] == "completed" and main.values[col("Duration")] == "1m 00s"
    assert child.values[col("Status")] == "failed" and child.values[col("Duration")] == "1s"
    assert child.values[col("Agent")] == "coder" and child.values[col("Project")] == "/work/app"
    assert main.links[0].target == "session"
    assert main.links[0].value == SessionRef("per-project:-work-app", "sess-1700000000-aaaa0001")
    assert cols.row("runs", child.key) == child


def test_a_running_run_without_linggen_is_flagged_and_orphans_are_roots(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    h.run(folder, "run-a", status="running", ended=None)
    h.run(folder, "run-b", parent="run-gone")
    rows = {r.key: r for r in _rows(_cols(h.root), "runs")}
    assert rows["-p/run-a"].flag.startswith("stale") and rows["-p/run-a"].values[5] == "never ended"
    assert rows["-p/run-b"].parent is None and rows["-p/run-b"].flag == "parent missing"
    h.pid()  # while Linggen runs, a running run is just running
    rows = {r.key: r for r in _rows(_cols(h.root), "runs")}
    assert rows["-p/run-a"].flag == "" and rows["-p/run-a"].values[5] == "running"


def test_missions_mark_the_active_one_and_flag_losses(tmp_path):
    h = standard_home(tmp_path / "home")
    h.mission("-work-app", T0 + 200, "Also says active", True)  # older than the active one
    h.mission("-work-app", T0 + 300, "Misnamed", False, name=str(T0 + 301))
    h.write("projects/-work-app/mission.json",
            json.dumps({"text": "legacy", "created_at": T0 + 500, "active": False, "agents": []}))
    h.flat_mission("daily", runs="".join(json.dumps(
        {"run_id": f"r{i}", "triggered_at": T0 + i, "status": "completed" if i else "failed",
         "skipped": i == 2, "session_id": "sess-1700000000-aaaa0001"}) + "\n" for i in range(3)))
    cols = _cols(h.root)
    rows = {r.key: r for r in _rows(cols, "missions")}
    active = rows[f"-work-app/{T0 + 500}.json"]
    assert active.values[1] == "● active" and active.markdown.startswith("Monitor production\n\n")
    assert "- **ling** every 1m 00s: Check status" in active.markdown
    also = rows[f"-work-app/{T0 + 200}.json"]
    assert also.values[1] == "inactive" and "also marked active" in also.flag
    assert "name ≠ created_at" in rows[f"-work-app/{T0 + 301}.json"].flag
    legacy = rows["-work-app/mission.json"]
    assert legacy.flag == "lost: same second" and "same second" in legacy.problem
    flat = rows["flat/daily"]
    assert flat.values[1] == "enabled" and flat.values[4] == "0 9 * * *"
    assert flat.values[5] == "1 completed, 1 failed, 1 skipped"
    assert flat.links[0].target == "doc" and flat.links[0].value.path.name == "mission.md"
    mruns = _rows(cols, "mission_runs")
    assert [r.values[3] for r in mruns] == ["failed", "completed", "completed"]
    assert [r.values[4] for r in mruns] == [False, False, True]  # shown as no, no, yes
    assert mruns[0].links[0].value == ("missions", "flat/daily")
    assert mruns[0].links[1].target == "session"


def test_missions_in_a_colliding_folder_are_flagged(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/a/b", "ab")
    h.run(folder, "r1", repo_path="/a-b")
    h.mission(folder, T0, "which project set me?", True)
    rows = _rows(_cols(h.root), "missions")
    assert "shared folder" in rows[0].flag


def test_agent_overrides(tmp_path):
    standard_home(tmp_path / "home")
    row = _rows(_cols(tmp_path / "home"), "agent_overrides")[0]
    assert row.values == ("ling", "/work/app", "Custom prompt", "2m 00s")


def test_plans_are_checklists(tmp_path):
    h = standard_home(tmp_path / "home")
    h.plan("odd", "# Plan: Odd\n\n**Status:** planned\n\n- [?] what is this\n")
    rows = {r.key: r for r in _rows(_cols(h.root), "plans")}
    plan = rows["refactor-auth.md"]
    assert plan.values[:6] == ("Refactor auth module", "approved", 1, 1, 1, 1)
    md = plan.markdown
    assert "- [x] Read existing auth code" in md and "  src/auth.rs — understand current session handling" in md
    assert "- [ ] Implement JWT validation — *in progress*" in md
    assert "- [ ] ~~Skipped: migration script~~ — *skipped*" in md and "- [ ] Add tests\n" in md
    assert "**Origin:** model_managed" in md
    assert rows["odd.md"].flag == "unknown marker on line 5"
    assert plan.links[0].value.editable is False


def test_credentials_are_masked_everywhere(tmp_path):
    h = standard_home(tmp_path / "home")
    h.credentials({"gemini-flash": {"api_key": "AIzaSyA1234567890abcdef", "base_url": "https://u:pw@x"},
                   "weird": "sk-plain-string-secret"})
    cols = _cols(h.root)
    rows = _rows(cols, "credentials")
    text = json.dumps([(r.key, r.values, r.raw) for r in rows], ensure_ascii=False)
    for secret in ("AIzaSyA1234567890abcdef", "pw@x", "sk-plain-string-secret"):
        assert secret not in text
    assert rows[0].values[0] == "gemini-flash" and "api_key: ••••••••" in rows[0].values[1]
    assert cols.editable("credentials", rows[0]) == ()
    with pytest.raises(WriteRefused):
        cols.update("credentials", rows[0], {"api_key": "x"})


def test_broken_credentials_are_a_problem_not_a_crash(tmp_path):
    h = standard_home(tmp_path / "home")
    h.credentials('{"gemini": {"api_key": "AIza')
    store = KIND.open(h.root)
    assert store.capability(Collections).size("credentials") == 0
    problem = next(p for p in store.problems if p.path.endswith("credentials.json"))
    assert "truncated" in problem.message and "AIza" not in problem.message
    assert store.counts()["bad_json_files"] == 1  # the broken file is in the count of unreadable JSON


def test_credentials_of_the_wrong_type_count_as_a_broken_json_file(tmp_path):
    h = standard_home(tmp_path / "home")
    h.credentials('["AIzaWrongShape"]')  # valid JSON, but not the map Linggen reads
    store = KIND.open(h.root)
    assert store.counts()["bad_json_files"] == 1
    assert any("expected a JSON object" in p.message for p in store.problems if p.path.endswith("credentials.json"))


def test_mission_agents_are_counted_in_words_that_agree(tmp_path):
    h = standard_home(tmp_path / "home")
    for n in (0, 1, 2):
        h.write(f"projects/-work-app/missions/{T0 + 700 + n}.json", json.dumps({
            "text": f"{n} helpers", "created_at": T0 + 700 + n, "active": False,
            "agents": [{"id": f"a{i}"} for i in range(n)]}))
    rows = {r.values[0]: r for r in _rows(_cols(h.root), "missions")}
    assert [rows[f"{n} helpers"].values[5] for n in (0, 1, 2)] == ["0 agents", "1 agent", "2 agents"]


def test_binary_values_are_shown_by_their_size_in_words():
    from daycare_gui.stores.linggen.readers import plain

    assert plain({"one": b"x", "two": b"xy"}) == {"one": "<1 byte>", "two": "<2 bytes>"}
