"""Linggen, AgentStack and CianaParrot: leftovers of interrupted writes (a save's temporary file beside the
file it replaces, in CianaParrot's backup folder too) and private snapshot copies of killed processes are
reported when the store opens (Problems, ``inspect --json``); the next save in that folder removes the dead
temporary files and leaves a live writer's alone; dead snapshot copies go at the next start (any command, the
window) or opening."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.api import Collections, Documents, Tasks
from tests.crash.helpers import dead_pid

DEAD, LIVE = dead_pid(), os.getpid()


def _tmp(target: str, pid: int) -> str:
    return f".{target}.{pid}-abcd1234.tmp"


def _leftover_problems(store) -> dict[str, str]:
    return {os.path.basename(p.path): p.message for p in store.problems if "leftover" in p.message}


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    folder = tmp_path / "systmp"
    folder.mkdir()
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(folder))
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    return folder


def _plant_snapshots(folder):
    names = {"dead": f"daycare-gui-agentstack-{DEAD}-x1", "live": f"daycare-gui-cianaparrot-{LIVE}-x2",
             "fts": f"daycare-gui-fts-check-{DEAD}-x3", "other": "daycare-gui-agentstack-nopid"}
    for name in names.values():
        (folder / name).mkdir()
        (folder / name / "aistack.db").write_bytes(b"copy")
    return names


def test_linggen_temp_files_beside_documents_and_permissions(tmp_path):
    from tests.stores.linggen.builder import permissions_file, standard_home

    ws = tmp_path / "repo"
    ws.mkdir()
    home = standard_home(tmp_path / "home", ws)
    perms = permissions_file(ws, '{"tool_allows": ["Read"]}\n')
    agent = home.root / "agents" / "ling.md"
    assert agent.is_file()
    for folder, target, pid in [(agent.parent, "ling.md", DEAD), (agent.parent, "ling.md", LIVE),
                                (perms.parent, "permissions.json", DEAD)]:
        (folder / _tmp(target, pid)).write_bytes(b"half")
    with registry.open_store(home.root, kind="linggen") as store:
        found = _leftover_problems(store)
        assert set(found) == {_tmp("ling.md", DEAD), _tmp("ling.md", LIVE), _tmp("permissions.json", DEAD)}
        assert "the next save in this folder removes it" in found[_tmp("ling.md", DEAD)]
        assert "still running" in found[_tmp("ling.md", LIVE)]
        docs = store.capability(Documents)
        ref = next(d for d in docs.documents() if d.id == "agent:ling")
        old = docs.read(ref)
        docs.save(ref, old + b"more\n", hashlib.sha256(old).hexdigest())
        cols = store.capability(Collections)
        cols.update("permissions", cols.rows("permissions", 0, 10)[0], {"tool_allows": ["Read", "Write"]})
    assert sorted(p.name for p in agent.parent.iterdir() if p.name.endswith(".tmp")) == [_tmp("ling.md", LIVE)]
    assert sorted(p.name for p in perms.parent.iterdir()) == ["permissions.json"]
    main(["inspect", "--json", str(home.root)])


def test_cianaparrot_temp_files_and_backup_folder_and_snapshots(tmp_path, private_tmp, capsys):
    from tests.stores.cianaparrot.builder import make_deployment

    root = make_deployment(tmp_path / "ciana")
    data = root / "data"
    backups = data / ".daycare-gui-backups"
    backups.mkdir()
    (data / _tmp("scheduled_tasks.json", DEAD)).write_bytes(b"[")
    (backups / _tmp("data__scheduled_tasks.json.20260101-000000.bak", DEAD)).write_bytes(b"[")
    (root / "workspace" / _tmp("MEMORY.md", LIVE)).write_bytes(b"# Mem")
    snaps = _plant_snapshots(private_tmp)
    assert main(["inspect", "--json", str(root)]) in (0, 1)
    reported = {os.path.basename(p["path"]): p["message"] for p in json.loads(capsys.readouterr().out)["problems"]
                if "leftover" in p["message"]}
    assert {_tmp("scheduled_tasks.json", DEAD), _tmp("MEMORY.md", LIVE),
            _tmp("data__scheduled_tasks.json.20260101-000000.bak", DEAD)} <= set(reported)
    # the command's start swept the killed processes' copies before the store opened: gone, and no problem
    # of this store; a running process's copy is in use, not a leftover
    assert not {snaps["dead"], snaps["fts"], snaps["live"]} & set(reported)
    assert sorted(p.name for p in private_tmp.iterdir() if p.name.startswith("daycare-gui-")) == sorted(
        [snaps["live"], snaps["other"]])
    with registry.open_store(root, kind="cianaparrot") as store:
        tasks = store.capability(Tasks)
        task = tasks.tasks()[0]
        tasks.update(task, {"active": not task.enabled})
    assert not (data / _tmp("scheduled_tasks.json", DEAD)).exists()
    assert [p.name for p in backups.iterdir() if p.name.endswith(".tmp")] == []  # the backup's save cleaned it
    assert (root / "workspace" / _tmp("MEMORY.md", LIVE)).exists()


def test_agentstack_temp_files_and_snapshots(tmp_path, private_tmp):
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.memory("k", "some words")
    path = b.close()
    (path.parent / _tmp("aistack.db", DEAD)).write_bytes(b"x")
    snaps = _plant_snapshots(private_tmp)
    with registry.open_store(path, kind="agentstack") as store:
        found = _leftover_problems(store)
        assert _tmp("aistack.db", DEAD) in found and found[snaps["dead"]].endswith("removed")
        assert snaps["live"] not in found  # a live process's copy is in use, not a leftover
    assert sorted(p.name for p in private_tmp.iterdir() if p.name.startswith("daycare-gui-")) == sorted(
        [snaps["live"], snaps["other"]])


def test_snapshot_folders_carry_the_pid(tmp_path, private_tmp):
    """A copy made now is attributable: a kill of this process leaves a folder the next opening removes."""
    from daycare_gui.stores.agentstack.database import Database
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.memory("k", "v")
    path = b.close()
    db = Database(path)
    try:
        db._snapshot("a test asked for one")
        [folder] = list(private_tmp.iterdir())
        assert folder.name.startswith(f"daycare-gui-agentstack-{LIVE}-")
    finally:
        db.close()
    assert list(private_tmp.iterdir()) == []
