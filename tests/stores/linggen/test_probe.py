"""Which folders are Linggen homes, how sure, and why; other systems' folders are not claimed."""

import os
import sqlite3

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.linggen import KIND
from tests.stores.linggen.builder import T0, Home, line, standard_home


def test_per_project_home_is_certain(tmp_path):
    standard_home(tmp_path / "home")
    c = KIND.probe(tmp_path / "home")
    assert c.confidence == 1.0
    assert "project.json" in c.reason


def test_flat_home_is_certain(tmp_path):
    h = Home(tmp_path / "home")
    h.flat_session("sess-1", lines=line("user", "ling", "hi"))
    assert KIND.probe(h.root).confidence == 1.0
    h2 = Home(tmp_path / "home2")
    h2.flat_mission("daily")
    assert KIND.probe(h2.root).confidence == 1.0


def test_config_or_logs_alone_are_enough(tmp_path):
    Home(tmp_path / "a").write("config/linggen-agent.runtime.toml", "")
    Home(tmp_path / "b").write("logs/linggen.2026-05-01", "log\n")
    assert KIND.probe(tmp_path / "a").confidence == 1.0
    assert KIND.probe(tmp_path / "b").confidence == 1.0


def test_an_empty_dot_linggen_or_linggen_home_is_likely(tmp_path, monkeypatch):
    (tmp_path / ".linggen").mkdir()
    assert KIND.probe(tmp_path / ".linggen").confidence == 0.9
    other = tmp_path / "custom"
    other.mkdir()
    assert KIND.probe(other).confidence == 0
    monkeypatch.setenv("LINGGEN_HOME", str(other))
    assert KIND.probe(other).confidence == 0.9


def test_a_user_home_holding_dot_linggen_opens_it(tmp_path):
    standard_home(tmp_path / "user" / ".linggen")
    c = KIND.probe(tmp_path / "user")
    assert 0.5 < c.confidence < 1.0 and ".linggen" in c.reason
    with KIND.open(tmp_path / "user") as store:
        assert store.home.root == tmp_path / "user" / ".linggen"
        assert store.counts()["projects"] == 1


def test_ling_pid_file_path_means_its_folder(tmp_path):
    h = standard_home(tmp_path / "home")
    pid = h.pid(99999999)
    assert KIND.probe(pid).confidence == 1.0
    assert KIND.probe(h.root / "agents" / "ling.md").confidence == 0


def test_workspace_dot_linggen_is_not_a_home(tmp_path):
    ws = tmp_path / "repo" / ".linggen"
    ws.mkdir(parents=True)
    (ws / "permissions.json").write_text('{"tool_allows": []}')
    c = KIND.probe(ws)
    assert c.confidence == 0 and "permissions" in c.reason


def test_folders_other_tools_share_are_weak(tmp_path):
    # ~/.claude has agents/, skills/, plans/ and projects/<encoded>/<uuid>.jsonl, but no project.json
    h = Home(tmp_path / "claude")
    h.write("agents/x.md", "---\nname: x\n---\n")
    h.write("plans/p.md", "# plan\n")
    h.write("projects/-home-me-repo/0b1c.jsonl", "{}\n")
    c = KIND.probe(h.root)
    assert c.confidence == 0 and "other tools" in c.reason


def test_missing_path_and_garbage_never_raise(tmp_path):
    assert KIND.probe(tmp_path / "nope").confidence == 0
    (tmp_path / "file.txt").write_text("x")
    assert KIND.probe(tmp_path / "file.txt").confidence == 0
    assert KIND.probe("\0bad").confidence == 0


def test_daycare_store_is_not_claimed(tmp_path):
    from daycare_gui.stores.daycare.demo import write_demo

    write_demo(tmp_path / "daycare")
    assert KIND.probe(tmp_path / "daycare").confidence == 0
    assert registry.choose(tmp_path / "daycare").name == "daycare"


def test_agentstack_and_cianaparrot_folders_are_not_claimed(tmp_path):
    aistack = tmp_path / "aistack"
    (aistack / "data").mkdir(parents=True)
    sqlite3.connect(aistack / "data" / "aistack.db").close()
    (aistack / "aistack.config.json").write_text("{}")
    assert KIND.probe(aistack).confidence == 0
    ciana = Home(tmp_path / "ciana")
    ciana.write("config.yaml", "agent: {}\n")
    ciana.write("data/scheduled_tasks.json", "[]")
    ciana.write("workspace/sessions/telegram_1.jsonl", '{"role": "user", "content": "hi"}\n')
    ciana.write("workspace/skills/x/SKILL.md", "---\nname: x\n---\n")
    assert KIND.probe(ciana.root).confidence == 0


@pytest.mark.parametrize("layout", ["per-project", "flat"])
def test_registry_picks_linggen_for_its_homes(tmp_path, layout):
    h = Home(tmp_path / "home")
    if layout == "flat":
        h.flat_session("s", lines=line("user", "ling", "hi", T0))
    else:
        h.session(h.project("/p"), "s")
    h.agent("ling")  # an agents/ folder must not tempt the Daycare kind
    assert registry.choose(h.root).name == "linggen"


def test_what_ling_pid_says_about_the_daemon(tmp_path):
    """Alive, gone, or a pid that names no process (a damaged file): each said as it is, never "gone" for
    what could not be checked."""
    from daycare_gui.stores.linggen.readers import pid_status

    h = standard_home(tmp_path / "home")
    assert pid_status(h.pid())[1:] == (True, f"process {os.getpid()} from ling.pid is alive")
    assert pid_status(h.pid(2**22 + 12345))[1:] == (False, f"stale ling.pid (process {2**22 + 12345} is gone)")
    running, detail = pid_status(h.pid(0))[1:]
    assert not running and detail == "ling.pid names process 0, which cannot be checked here"
