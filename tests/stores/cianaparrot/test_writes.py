"""Writes: tasks, the counter repair and documents change exactly the bytes they must, back up first,
refuse while the bot runs (unless forced) or when the file changed, and leave the file whole on failure."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys

import pytest

from daycare_gui.stores.api import Actions, Documents, Tasks, WriteConflict, WriteRefused
from daycare_gui.stores.cianaparrot import KIND
from daycare_gui.stores.common.edit.atomic import sha256_of
from tests.stores.cianaparrot.builder import TASKS

HOLD = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("SELECT count(*) FROM checkpoints").fetchone()
print("ready", flush=True)
sys.stdin.read()
"""


@contextlib.contextmanager
def bot_running(db):
    """A process holding checkpoints.db open the way the bot's aiosqlite connection does."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        yield proc
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def _backups(deployment):
    folder = deployment / "data" / ".daycare-gui-backups"
    return sorted(folder.iterdir()) if folder.exists() else []


def _task(store, tid):
    return next(t for t in store.capability(Tasks).tasks() if t.id == tid)


def test_editing_a_task_splices_only_its_value_and_backs_up_first(opened, deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    before = path.read_text()
    tasks = opened.capability(Tasks)
    assert [f.name for f in tasks.editable(_task(opened, "a1b2c3d4"))] == ["prompt", "type", "value", "active",
                                                                            "model_tier"]
    updated = tasks.update(_task(opened, "a1b2c3d4"), {"value": "30 7 * * 1-5"})
    assert path.read_text() == before.replace('"value": "0 8 * * *"', '"value": "30 7 * * 1-5"', 1)
    assert updated.schedule == "30 7 * * 1-5" and updated.next_run_at is not None
    (backup,) = _backups(deployment)
    assert backup.name.startswith("data__scheduled_tasks.json.") and backup.read_text() == before


def test_model_tier_is_added_and_removed_in_the_file_style(opened, deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    tasks = opened.capability(Tasks)
    tasks.update(_task(opened, "a1b2c3d4"), {"model_tier": "expert", "active": False})
    expected = [dict(t) for t in TASKS]
    expected[0].update(active=False, model_tier="expert")
    assert path.read_text() == json.dumps(expected, indent=2)
    tasks.update(_task(opened, "e5f6a7b8"), {"model_tier": ""})
    del expected[1]["model_tier"]
    assert path.read_text() == json.dumps(expected, indent=2)


def test_an_unchanged_value_leaves_the_file_byte_identical(opened, deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    before = path.read_bytes()
    opened.capability(Tasks).update(_task(opened, "a1b2c3d4"), {"value": "0 8 * * *"})
    assert path.read_bytes() == before and _backups(deployment) == []


def test_invalid_values_are_refused_and_nothing_is_written(opened, deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    before = path.read_bytes()
    tasks = opened.capability(Tasks)
    for task_id, change, words in [
        ("a1b2c3d4", {"value": "every morning"}, "not a valid cron"),
        ("e5f6a7b8", {"value": "-5"}, "positive"),
        ("a1b2c3d4", {"type": "once"}, "not an ISO"),
        ("c9d0e1f2", {"active": True}, "already ran"),
        ("a1b2c3d4", {"prompt": "  "}, "empty"),
        ("a1b2c3d4", {"channel": "x"}, "cannot be edited"),
    ]:
        with pytest.raises(WriteRefused, match=words):
            tasks.update(_task(opened, task_id), change)
    assert path.read_bytes() == before


def test_a_task_changed_since_it_was_read_is_a_conflict(opened, deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    task = _task(opened, "a1b2c3d4")
    changed = path.read_text().replace("2026-02-25T08:00:12+00:00", "2026-02-26T08:00:03+00:00")
    path.write_text(changed)  # the scheduler ran it meanwhile
    with pytest.raises(WriteConflict):
        opened.capability(Tasks).update(task, {"value": "0 9 * * *"})
    assert path.read_text() == changed and _backups(deployment) == []


def test_tasks_sharing_an_id_are_refused_for_that_reason_not_as_changed(deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    path.write_text(json.dumps(TASKS + [{**TASKS[0], "prompt": "A second task with the same id"}], indent=2))
    before = path.read_bytes()
    with KIND.open(deployment) as store:
        tasks = store.capability(Tasks)
        twins = [t for t in tasks.tasks() if t.id == "a1b2c3d4"]
        assert len(twins) == 2
        assert all("the id a1b2c3d4 is shared by 2 tasks" in t.problem for t in twins)
        for twin in twins:
            with pytest.raises(WriteRefused) as refused:
                tasks.update(twin, {"value": "0 9 * * *"})
            said = str(refused.value)
            assert "the id a1b2c3d4 is shared by 2 tasks" in said and "cannot tell which one" in said
            assert "changed since" not in said
    assert path.read_bytes() == before and _backups(deployment) == []


def test_writes_are_refused_while_the_bot_runs_unless_forced(opened, deployment):
    path = deployment / "data" / "scheduled_tasks.json"
    before = path.read_bytes()
    with bot_running(deployment / "data" / "checkpoints.db"):
        assert "bot is running" in opened.writes_blocked()
        with pytest.raises(WriteRefused, match="Stop the bot first"):
            opened.capability(Tasks).update(_task(opened, "a1b2c3d4"), {"active": False})
        assert path.read_bytes() == before
        opened.capability(Tasks).update(_task(opened, "a1b2c3d4"), {"active": False}, force=True)
        assert json.loads(path.read_text())[0]["active"] is False
    assert opened.writes_blocked() is None


def test_a_failed_rename_leaves_the_old_file_whole(opened, deployment, monkeypatch):
    path = deployment / "data" / "scheduled_tasks.json"
    before = path.read_bytes()

    real_replace = os.replace
    fail = {"name": "scheduled_tasks.json"}

    def crash(src, dst, *a, **k):
        if os.path.basename(dst).startswith(fail["name"]):
            raise OSError(28, "No space left on device")
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(WriteRefused, match="it is unchanged"):
        opened.capability(Tasks).update(_task(opened, "a1b2c3d4"), {"value": "0 9 * * *"})
    assert path.read_bytes() == before and len(_backups(deployment)) == 1
    fail["name"] = "data__scheduled_tasks"  # now the backup itself cannot be written
    with pytest.raises(WriteRefused, match="could not back up"):
        opened.capability(Tasks).update(_task(opened, "a1b2c3d4"), {"value": "0 9 * * *"})
    assert path.read_bytes() == before
    assert not [p for p in path.parent.rglob("*.tmp")]


# -- session counters ---------------------------------------------------------------------------------


def test_a_low_counter_is_shown_and_raised_like_the_bot_does(deployment):
    path = deployment / "data" / "session_counters.json"
    path.write_text(json.dumps({"telegram_789012": 0, "telegram_123456": 1}, indent=2))
    with KIND.open(deployment) as store:
        assert store.counter_findings() == [("telegram_123456", 1, 2)]
        chat = next(t for t in store.capability(__import__("daycare_gui.stores.api").stores.api.Conversations)
                    .threads() if t.id == "telegram_123456")
        assert "/new would reuse an old conversation" in chat.problem
        actions = store.capability(Actions)
        assert "telegram_123456 is 1, thread telegram_123456_s2 exists" in actions.run("counters-check")
        with bot_running(deployment / "data" / "checkpoints.db"):
            with pytest.raises(WriteRefused):
                actions.run("counters-repair")
        said = actions.run("counters-repair")
        assert "telegram_123456 1→2" in said and "Backup:" in said
        assert path.read_text() == json.dumps({"telegram_789012": 0, "telegram_123456": 2}, indent=2)
        assert store.counter_findings() == []
        assert actions.run("counters-repair").startswith("Nothing to repair")


def test_missing_counters_are_added_and_an_unreadable_file_is_not_overwritten(deployment):
    path = deployment / "data" / "session_counters.json"
    path.write_text(json.dumps({"telegram_789012": 0}, indent=2))
    with KIND.open(deployment) as store:
        store.capability(Actions).run("counters-repair")
    assert path.read_text() == json.dumps({"telegram_789012": 0, "telegram_123456": 2}, indent=2)
    path.write_text('{"telegram_789012": 0, "tele')
    with KIND.open(deployment) as store:
        with pytest.raises(WriteRefused, match="by hand"):
            store.capability(Actions).run("counters-repair")
    assert path.read_text() == '{"telegram_789012": 0, "tele'


# -- documents ----------------------------------------------------------------------------------------


def test_documents_save_atomically_with_a_backup_and_conflict_check(opened, deployment):
    docs = opened.capability(Documents)
    memory = next(d for d in docs.documents() if d.title == "MEMORY.md")
    old = docs.read(memory)
    docs.save(memory, old + b"- hates coffee\n", sha256_of(old))
    assert (deployment / "workspace" / "MEMORY.md").read_bytes() == old + b"- hates coffee\n"
    (backup,) = _backups(deployment)
    assert backup.name.startswith("workspace__MEMORY.md.") and backup.read_bytes() == old
    with pytest.raises(WriteConflict):
        docs.save(memory, b"stale edit", sha256_of(old))
    skill = next(d for d in docs.documents() if d.group == "Skills")
    with bot_running(deployment / "data" / "checkpoints.db"):
        with pytest.raises(WriteRefused, match="may overwrite or be confused by this change"):
            docs.save(skill, b"x", sha256_of(docs.read(skill)))
    assert docs.read(skill).startswith(b"---\nname: weather")
