"""``inspect --json`` on Linggen homes: counts, layouts, and every hazard of the reference listed."""

import json

from daycare_gui.cli import main
from daycare_gui.stores.registry import open_store
from tests.conftest import snapshot_tree
from tests.stores.linggen.builder import T0, Home, line, pretty, standard_home


def _inspect(path, capsys) -> dict:
    assert main(["inspect", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _problems(report: dict, needle: str) -> list[dict]:
    return [p for p in report["problems"] if needle in p["message"]]


def test_counts_of_a_standard_home(tmp_path, capsys):
    standard_home(tmp_path / "home")
    r = _inspect(tmp_path / "home", capsys)
    assert r["kind"] == "linggen"
    assert r["generation"] == "per-project"
    c = r["counts"]
    assert (c["projects"], c["sessions"], c["messages"], c["observations"]) == (1, 2, 4, 1)
    assert (c["runs"], c["runs_completed"], c["runs_failed"], c["runs_cancelled"], c["runs_running"]) == (3, 1, 1, 1, 0)
    assert (c["missions"], c["missions_active"], c["plans"], c["agents"], c["skills"]) == (2, 1, 1, 1, 2)
    assert c["agent_overrides"] == 1
    assert r["problems"] == []
    assert r["engine"]["running"] is False
    assert r["projects"][0]["path"] == "/work/app"


def test_human_output_names_linggen(tmp_path, capsys):
    standard_home(tmp_path / "home")
    assert main(["inspect", str(tmp_path / "home")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Linggen store:") and "runs_failed" in out


def _hazard_home(root) -> Home:
    h = standard_home(root)
    # 1. a path-encoding collision: /a/b/c and /a-b/c share the folder -a-b-c; project.json names only one
    folder = h.project("/a/b/c", "abc")
    h.run(folder, "run-x-1", repo_path="/a-b/c")
    h.run(folder, "run-x-2", repo_path="/a/b/c")
    # a folder without project.json, and one whose name is not the encoding of its path
    h.session(h.project("/lost", info=False), "sess-lost", "Lost", T0, line("user", "ling", "hello?", T0))
    h.project("/elsewhere", folder="-moved-here")
    # 2. truncated JSON / YAML and bad JSONL lines
    h.write("projects/-work-app/runs/run-broken.json", '{\n  "run_id": "run-broken",\n  "status": "runn')
    h.write("projects/-trunc/project.json", '{\n  "path": "/tr')
    h.session("-work-app", "sess-trunc-yaml", yaml_text='id: sess-trunc-yaml\ntitle: "Half writ')
    h.session("-work-app", "sess-bad-lines", "Bad lines", T0 + 5, "".join([
        line("user", "ling", "first", T0 + 5),
        "this is not json\n",
        line("ling", "user", "second", T0 + 6),
    ]).encode() + b'{"agent_id":"ling","from_id":"ling","content":"\xff\xfe"}\n' + b'{"agent_id":"ling","from_id":"li')
    # 3. both layouts side by side
    h.flat_session("sess-flat-1", "Flat one", T0 + 1000, line("user", "ling", "flat hello", T0 + 1000),
                   project="/work/app", project_name="app")
    h.flat_mission("daily-review", runs=json.dumps({"run_id": "m1", "triggered_at": T0, "status": "completed",
                                                    "skipped": False}) + "\n")
    # 4. missions: legacy mission.json of a second that already has a file; another one unparseable
    h.write("projects/-work-app/mission.json", pretty({"text": "legacy", "created_at": T0 + 500, "active": False}))
    h.write(f"projects/{folder}/mission.json", "{not json")
    # 5. the daemon runs
    h.pid()
    return h


def test_every_hazard_is_listed_with_path_and_line(tmp_path, capsys):
    h = _hazard_home(tmp_path / "home")
    r = _inspect(h.root, capsys)
    c = r["counts"]
    assert r["generation"] == "per-project+flat"
    assert r["engine"]["running"] is True and r["engine_running"] is True
    assert c["projects"] == 5 and c["sessions_flat_layout"] == 1
    assert c["bad_json_files"] == 3  # run-broken.json, -trunc/project.json, the unparseable mission.json
    assert c["bad_yaml_files"] == 1
    assert c["bad_jsonl_lines"] == 3  # "this is not json", the non-UTF-8 line, the truncated last line
    assert c["messages"] == 4 + 2 + 1 + 1  # standard + good lines of sess-bad-lines + lost + flat

    collision = _problems(r, "path-encoding collision")
    assert len(collision) == 1 and "/a-b/c" in collision[0]["message"]
    assert collision[0]["path"].endswith("projects/-a-b-c")
    assert _problems(r, "no project.json")[0]["path"].endswith("projects/-lost")
    assert _problems(r, "not Linggen's encoding")[0]["path"].endswith("projects/-moved-here")

    truncated_run = [p for p in _problems(r, "truncated JSON") if p["path"].endswith("run-broken.json")]
    assert truncated_run and truncated_run[0]["line"] == 3
    yaml_problem = _problems(r, "truncated YAML")
    assert yaml_problem and yaml_problem[0]["path"].endswith("sess-trunc-yaml/session.yaml")
    bad = {p["line"]: p["message"] for p in r["problems"] if p["path"].endswith("sess-bad-lines/messages.jsonl")}
    assert set(bad) == {2, 4, 5}
    assert "not JSON" in bad[2] and "UTF-8" in bad[4] and "truncated" in bad[5]

    assert _problems(r, "same second")  # the legacy mission.json would be dropped by the migration
    assert _problems(r, "deletes it unread")
    assert r["flagged_missions"]["-work-app/mission.json"] == ["lost: same second"]


def test_inspect_writes_nothing(tmp_path, capsys):
    h = _hazard_home(tmp_path / "home")
    before = snapshot_tree(h.root)
    _inspect(h.root, capsys)
    with open_store(h.root) as store:
        store.report()
        store.summary()
    assert snapshot_tree(h.root) == before


def test_empty_home(tmp_path, capsys):
    (tmp_path / ".linggen").mkdir()
    r = _inspect(tmp_path / ".linggen", capsys)
    assert r["kind"] == "linggen" and r["generation"] == "empty"
    assert r["counts"]["sessions"] == 0 and r["problems"] == []


def test_a_foreign_folder_is_refused_with_reasons(tmp_path, capsys):
    (tmp_path / "x").mkdir()
    assert main(["inspect", str(tmp_path / "x"), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    reasons = {t["kind"]: t["reason"] for t in out["kinds_tried"]}
    assert "project.json" in reasons["linggen"]
