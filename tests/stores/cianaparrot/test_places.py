"""A path the kind reads from the bot's config (or beside what it names) that is a folder where a file
belongs, or a file where a folder belongs, is one listed problem naming the setting and what follows: not
"disk I/O error", a traceback on saving, or an empty list without a word."""

from __future__ import annotations

import shutil

import pytest

from daycare_gui.stores.api import Actions, Collections, Conversations, Documents, Tasks, WriteRefused
from daycare_gui.stores.cianaparrot import KIND
from tests.conftest import snapshot_tree


def _into_folder(path):
    path.unlink()
    path.mkdir()


def _into_file(path):
    shutil.rmtree(path)
    path.write_text("not a folder\n")


def _said(store, path):
    return [(p.message, p.severity) for p in store.problems if p.path == str(path)]


def test_folders_where_the_bot_keeps_files_are_said_and_saves_refused(deployment):
    data, ws = deployment / "data", deployment / "workspace"
    (deployment / "config.yaml").write_text(
        "agent:\n  workspace: ./workspace\n  data_dir: ./data\n"
        "scheduler:\n  data_file: ./data/tasks.json\nclaude_code:\n  state_file: ./data/cc.json\n")
    tasks, cc = data / "tasks.json", data / "cc.json"
    counters, memory = data / "session_counters.json", ws / "MEMORY.md"
    for folder in (tasks, cc):
        folder.mkdir()
    _into_folder(counters)
    _into_folder(memory)
    before = snapshot_tree(deployment)
    with KIND.open(deployment) as store:
        assert _said(store, tasks) == [(f"scheduler.data_file names a folder, not a file: {tasks} — the "
                                        "scheduler fails on every poll until it is fixed", "error")]
        assert _said(store, cc) == [(f"claude_code.state_file names a folder, not a file: {cc} — the bot can "
                                     "neither read nor save its Claude Code states there, and none are listed",
                                     "error")]
        assert _said(store, counters) == [(
            f"session_counters.json in agent.data_dir is a folder, not a file: {counters} — the bot can neither "
            "read nor save its session counters there, and none are listed", "error")]
        assert _said(store, memory) == [(f"MEMORY.md in agent.workspace is a folder, not a file: {memory} — "
                                         "it is not listed among the documents", "error")]
        assert store.capability(Tasks).tasks() == []
        assert "MEMORY.md" not in {d.title for d in store.capability(Documents).documents()}
        collections = store.capability(Collections)
        assert collections.rows("claude_code", 0, 10) == []
        assert {r.values[1] for r in collections.rows("counters", 0, 10)} == {None}  # threads, no counters
        assert store.summary().generation != "empty"
        # the counters the threads call for cannot be raised in a folder: said, not a traceback
        with pytest.raises(WriteRefused, match=f"^{counters} is a folder, not a file; nothing was written$"):
            store.capability(Actions).run("counters-repair")
    assert snapshot_tree(deployment) == before


def test_a_database_folder_and_files_where_logs_and_skills_belong_are_said(deployment):
    data, ws = deployment / "data", deployment / "workspace"
    db, sessions, skills = data / "checkpoints.db", ws / "sessions", ws / "skills"
    db.unlink()
    db.mkdir()
    _into_file(sessions)
    _into_file(skills)
    with KIND.open(deployment) as store:
        assert _said(store, db) == [(f"checkpoints.db in agent.data_dir is a folder, not a file: {db} — the bot "
                                     "cannot open its checkpoints there, and no conversation is read from it",
                                     "error")]
        assert _said(store, sessions) == [(f"workspace/sessions is a file, not a folder: {sessions} — "
                                           "no session logs are read from it", "error")]
        assert _said(store, skills) == [(f"skills in agent.workspace is a file, not a folder: {skills} — no "
                                         "skills are listed from it", "error")]
        assert not [p for p in store.problems if "disk I/O" in p.message or "cannot read" in p.message]
        # what is where it belongs still opens: the older log folder, the workspace's Markdown
        threads = [t.id for t in store.capability(Conversations).threads()]
        assert threads == ["telegram_123456"]
        assert {d.title for d in store.capability(Documents).documents()} == {"IDENTITY.md", "AGENT.md",
                                                                                "MEMORY.md"}


def test_a_tasks_file_turned_into_a_folder_after_listing_is_refused_plainly(deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    with KIND.open(deployment) as store:
        tasks = store.capability(Tasks)
        task = tasks.tasks()[0]
        _into_folder(path)
        with pytest.raises(WriteRefused, match=f"^{path} is a folder, not a file; nothing was written$"):
            tasks.update(task, {"prompt": "changed"})
    assert list(path.iterdir()) == [] and not (deployment / "data" / ".daycare-gui-backups").exists()


def test_a_path_that_cannot_be_looked_at_is_not_called_the_wrong_kind(deployment, monkeypatch):
    """A folder on the way the user may not enter (EACCES from stat, which Path.is_dir does not swallow):
    opening still works, and nothing is called a folder or a file that was never seen."""
    from pathlib import Path

    from daycare_gui.stores.cianaparrot.places import wrong_kind

    real_is_dir = Path.is_dir

    def is_dir(self):
        if self.name == "scheduled_tasks.json":
            raise PermissionError(13, "Permission denied", str(self))
        return real_is_dir(self)

    monkeypatch.setattr(Path, "is_dir", is_dir)
    with KIND.open(deployment) as opened:
        assert not any(p.name == "scheduled_tasks.json" for p in wrong_kind(opened.layout))
        assert opened.capability(Tasks) is not None
