"""A UTF-8 byte-order mark at the start of a Linggen file, file kind by file kind.

Python would read past the mark; Linggen (Rust) reads past it only in YAML (serde_yml). JSON files and
JSONL lines (serde_json) and Markdown frontmatter (``starts_with("---")``) behind a mark are files Linggen
cannot read: each is listed as a problem naming the mark, counted with the other unreadable files, and its
content is still shown. A save that would keep the mark says so.
"""

import hashlib
import json

import pytest

from daycare_gui.stores.api import Collections, Conversations, Documents, WriteRefused
from daycare_gui.stores.linggen import KIND
from daycare_gui.stores.records import SessionRef
from tests.stores.linggen.builder import T0, Home, line, pretty

BOM = b"\xef\xbb\xbf"


def _with_bom(path) -> bytes:
    data = BOM + path.read_bytes()
    path.write_bytes(data)
    return data


def _rows(store, cid):
    cols = store.capability(Collections)
    return {r.key: r for r in cols.rows(cid, 0, cols.size(cid))}


def _bom_problems(store, name: str) -> list:
    return [p for p in store.problems if p.path.endswith(name) and "byte-order mark" in p.message]


def test_a_run_file_with_a_mark_is_shown_with_why_linggen_skips_it(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    _with_bom(h.run(folder, "run-a", status="completed", repo_path="/p"))
    h.run(folder, "run-b", status="failed", repo_path="/p")
    store = KIND.open(h.root)
    row = _rows(store, "runs")["-p/run-a"]
    assert "byte-order mark" in row.problem and "Linggen skips this run" in row.problem
    assert row.values[3] == "completed" and row.values[0] == "run-a"  # what it holds is still shown
    counts = store.counts()
    assert counts["bad_json_files"] == 1
    assert (counts["runs"], counts["runs_completed"], counts["runs_failed"]) == (2, 0, 1)  # Linggen sees one
    assert _bom_problems(store, "run-a.json")[0].line == 1


def test_project_json_with_a_mark_names_the_project_but_says_linggen_skips_it(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/work/app", "app")
    _with_bom(h.root / "projects" / folder / "project.json")
    h.session(folder, "s1", "Hello", T0, line("user", "ling", "hi", T0))
    store = KIND.open(h.root)
    thread = store.capability(Conversations).threads()[0]
    assert thread.title == "app" and "/work/app" in thread.subtitle
    assert "byte-order mark" in thread.problem and "Linggen skips this project" in thread.problem
    assert store.counts()["bad_json_files"] == 1 and _bom_problems(store, "project.json")


def test_missions_overrides_and_a_legacy_mission_with_a_mark(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    h.mission(folder, T0, "Older, also active", True)
    _with_bom(h.mission(folder, T0 + 10, "Newest active", True))
    _with_bom(h.override(folder, "ling"))
    legacy = h.write(f"projects/{folder}/mission.json",
                     pretty({"text": "legacy text", "created_at": T0 + 20, "active": False, "agents": []}))
    _with_bom(legacy)
    store = KIND.open(h.root)
    missions = _rows(store, "missions")
    newest = missions[f"-p/{T0 + 10}.json"]
    assert newest.values[0] == "Newest active" and newest.values[1] == "unreadable"
    assert "byte-order mark" in newest.problem and "Linggen skips this mission" in newest.problem
    # Linggen does not see the newest file, so the older one is the active mission
    assert missions[f"-p/{T0}.json"].values[1] == "● active"
    assert missions["-p/mission.json"].flag == "lost: deleted unread"
    assert "byte-order mark" in missions["-p/mission.json"].problem
    assert missions["-p/mission.json"].values[0] == "legacy text"
    override = _rows(store, "agent_overrides")["-p/ling"]
    assert override.values[2] == "Custom prompt"
    assert "byte-order mark" in override.problem and "does not apply" in override.problem
    assert store.counts()["bad_json_files"] == 3


def test_credentials_with_a_mark_are_listed_masked_with_why_linggen_has_none(tmp_path):
    h = Home(tmp_path / "home")
    h.session(h.project("/p"), "s")
    _with_bom(h.credentials({"gemini": {"api_key": "AIzaSyA1234567890abcdef"}}))
    store = KIND.open(h.root)
    row = _rows(store, "credentials")["gemini"]
    assert "AIzaSyA1234567890abcdef" not in json.dumps([row.values, row.raw])
    assert "byte-order mark" in row.problem and "treats it as empty" in row.problem
    assert store.counts()["bad_json_files"] == 1
    assert "AIza" not in " ".join(p.message for p in store.problems)


def test_session_yaml_with_a_mark_is_read_as_linggen_reads_it(tmp_path):
    # serde_yml (libyaml) skips a leading mark: nothing to report
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    h.session(folder, "s1", "Marked title", T0, line("user", "ling", "hi", T0))
    _with_bom(h.root / "projects" / folder / "sessions" / "s1" / "session.yaml")
    store = KIND.open(h.root)
    session = store.capability(Conversations).sessions(f"per-project:{folder}")[0]
    assert session.title == "Marked title" and session.problem is None
    assert list(store.problems) == [] and store.counts()["bad_yaml_files"] == 0


def test_a_message_line_with_a_mark_is_shown_but_counted_as_one_linggen_skips(tmp_path):
    h = Home(tmp_path / "home")
    folder = h.project("/p")
    path = h.session(folder, "s1", lines=line("user", "ling", "first words", T0) + line("ling", "user", "reply"))
    _with_bom(path)
    store = KIND.open(h.root)
    conv = store.capability(Conversations)
    ref = SessionRef(f"per-project:{folder}", "s1")
    first, second = conv.messages(ref, 0, 10)
    assert first.text == "first words" and "byte-order mark" in first.problem and "skips this line" in first.problem
    assert second.text == "reply" and second.problem is None
    counts = store.counts()
    assert (counts["messages"], counts["bad_jsonl_lines"]) == (1, 1)
    assert conv.sessions(ref.thread_id)[0].message_count == 2  # both entries are listed
    assert any(p.line == 1 and "byte-order mark" in p.message for p in store.problems)


@pytest.mark.parametrize("kind", ["agent", "skill"])
def test_an_agent_or_skill_with_a_mark_is_listed_as_not_loaded_and_a_save_says_the_mark_stays(tmp_path, kind):
    h = Home(tmp_path / "home")
    h.session(h.project("/p"), "s")
    path = h.agent("ling") if kind == "agent" else h.skill("commit")
    data = _with_bom(path)
    store = KIND.open(h.root)
    problem = _bom_problems(store, path.name)[0]
    assert "does not load this file" in problem.message and problem.line == 1
    assert store.counts()["bad_yaml_files"] == 1
    docs = store.capability(Documents)
    doc = docs.documents()[0]
    edited = data.replace(b"\n---\n", b"\n---\n\nEdited.\n", 1)
    with pytest.raises(WriteRefused, match="(?s)byte-order mark.*Saving keeps the mark"):
        docs.save(doc, edited, hashlib.sha256(data).hexdigest())
    assert path.read_bytes() == data
    docs.save(doc, edited, hashlib.sha256(data).hexdigest(), force=True)  # "save anyway": kept, as said
    assert path.read_bytes() == edited


def test_a_flat_mission_with_a_mark_is_disabled_for_linggen(tmp_path):
    h = Home(tmp_path / "home")
    path = h.flat_mission("daily", runs=json.dumps(
        {"run_id": "r1", "triggered_at": T0, "status": "completed", "skipped": False}) + "\n" + json.dumps(
        {"run_id": "r2", "triggered_at": T0 + 1, "status": "failed", "skipped": False}) + "\n")
    _with_bom(path)
    _with_bom(path.parent / "runs.jsonl")
    store = KIND.open(h.root)
    mission = _rows(store, "missions")["flat/daily"]
    assert mission.values[1] == "disabled" and mission.values[4] == "0 9 * * *"  # its settings, as written
    assert "byte-order mark" in mission.problem and "without its settings" in mission.problem
    assert mission.values[5] == "1 failed"  # the first run line is one Linggen skips
    runs = _rows(store, "mission_runs")
    assert "byte-order mark" in runs["flat/daily#1"].problem and runs["flat/daily#2"].problem is None
    assert store.counts()["bad_yaml_files"] == 1
    docs = store.capability(Documents)
    doc = next(d for d in docs.documents() if d.group == "Missions")
    data = path.read_bytes()
    with pytest.raises(WriteRefused, match="(?s)without its settings.*Saving keeps the mark"):
        docs.save(doc, data + b"more\n", hashlib.sha256(data).hexdigest())


def test_a_plan_with_a_mark_is_a_warning_only(tmp_path):
    from tests.stores.linggen.builder import SAMPLE_PLAN

    h = Home(tmp_path / "home")
    h.session(h.project("/p"), "s")
    _with_bom(h.plan("p1", SAMPLE_PLAN))
    store = KIND.open(h.root)
    row = _rows(store, "plans")["p1.md"]
    assert row.values[0] == "Refactor auth module" and "title unseen by Linggen" in row.flag
    problem = _bom_problems(store, "p1.md")[0]
    assert problem.severity == "warning"
    assert store.counts()["bad_yaml_files"] == 0 and store.counts()["bad_json_files"] == 0
