"""Daycare's SQLite and legacy generations offer ``Tasks``: what Daycare's own tasks page showed (each
task's file and row, which copy Daycare reads and why, agent and user names), and New…, Delete…, Restore
and row edits with the bytes on disk checked, refused while the engine runs unless forced."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest

from daycare_gui.stores import api
from daycare_gui.stores.common.edit.trash import TRASH_NAME
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.store import open_store as open_core
from daycare_gui.stores.daycare.sqlite.task_overview import cron_entries, heartbeat_entries
from daycare_gui.stores.registry import open_store
from tests.conftest import snapshot_tree


@pytest.fixture(scope="module")
def demo_master(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(root)
    return root


@pytest.fixture
def demo(demo_master, tmp_path):
    root = tmp_path / "daycare"
    shutil.copytree(demo_master, root)
    return root


def tasks_of(opened) -> api.Tasks:
    cap = opened.capability(api.Tasks)
    assert cap is not None
    return cap


def by_id(cap, kind):
    return {t.id: t for t in cap.tasks() if t.schedule_kind == kind}


def test_the_sqlite_demo_lists_every_cron_and_heartbeat_task_as_the_overview_pairs_them(demo_master):
    with open_store(demo_master) as opened, open_core(demo_master) as core:
        cap = tasks_of(opened)
        assert cap.groups() == (("cron", "Cron tasks"), ("heartbeat", "Heartbeat tasks"))
        assert cap.reader == "Daycare"
        for kind, entries in (("cron", cron_entries(core)), ("heartbeat", heartbeat_entries(core))):
            listed = by_id(cap, kind)
            assert list(listed) == [e.id for e in entries]
            for e in entries:
                task = listed[e.id]
                assert task.title == e.name and task.body == (e.get("code") or "")
                wheres = tuple(c.where for c in task.copies)
                assert wheres == {"both": ("file", "database row"), "file": ("file",),
                                  "row": ("database row",)}[e.presence]
                read = [c.where for c in task.copies if c.read]
                assert read == ({"row": ["database row"], "file": ["file"]}.get(e.reads, []))
                assert task.ignored is (e.reads == "nothing")
                assert dict(task.meta)["Why"] == e.reason
        cron = by_id(cap, "cron")
    assert cron["daily-digest"].user == "Alex Rivera" and cron["daily-digest"].agent == "Daily digest"
    assert cron["plant-photos"].ignored and cron["plant-photos"].user == "Sam Okafor"
    assert cron["backup-photos"].enabled is False and cron["daily-digest"].schedule == "0 7 * * *"
    assert [c.file for c in cron["daily-digest"].copies] == [True, False]
    assert [c.fields for c in cron["daily-digest"].copies] == [False, True]


def test_the_legacy_generation_lists_its_task_files_which_daycare_reads(fixture_copy):
    root = fixture_copy("daycare-808af509", with_db=False, as_name="nodb")
    with open_store(root) as opened:
        cap = tasks_of(opened)
        assert type(cap).__name__ == "LegacyTasks"
        tasks = {(t.schedule_kind, t.id): t for t in cap.tasks()}
        assert set(tasks) == {("cron", "dailycleanup"), ("heartbeat", "morning-status")}
        for task in tasks.values():
            (copy,) = task.copies
            assert copy.where == "file" and copy.read and copy.file and not copy.fields
            assert cap.editable(task) == ()  # no row: the file is edited in the document editor
            assert cap.delete_reason(task) is None


def test_the_808af509_fixture_reads_the_imported_row(fixture_copy):
    with open_store(fixture_copy("daycare-808af509")) as opened:
        task = by_id(tasks_of(opened), "cron")["dailycleanup"]
        assert [(c.where, c.read) for c in task.copies] == [("file", False), ("database row", True)]
        assert "reads the database row" in task.copies[1].reason


def test_new_cron_and_heartbeat_tasks_come_from_the_templates_and_nothing_else_changes(demo):
    before = snapshot_tree(demo)
    with open_store(demo) as opened:
        cap = tasks_of(opened)
        assert "20260220_import_tasks" in cap.create_warning("cron")  # the demo reads rows: said first
        assert [f.name for f in cap.create_fields("cron")] == ["name", "schedule"]
        made = cap.create("heartbeat", {"title": "Check the plants"})
        assert made.schedule_kind == "heartbeat" and made.title == "Check the plants"
        assert made.id in by_id(cap, "heartbeat")  # listed at once: the files were read again
        with pytest.raises(api.WriteConflict, match="already exists"):
            cap.create("heartbeat", {"title": "Check the plants"})
        with pytest.raises(ValueError):
            cap.create("cron", {"name": "Bad", "schedule": "61 * * * *"})
    after = snapshot_tree(demo)
    assert {k: v for k, v in after.items() if k not in before} == {
        "heartbeat/check-the-plants.md": b"---\ntitle: Check the plants\n---\nDescribe what to check on each heartbeat.\n"}
    assert {k: v for k, v in after.items() if k in before} == before


def test_delete_moves_the_file_to_the_trash_and_restore_puts_it_back_byte_for_byte(demo):
    before = snapshot_tree(demo)
    with open_store(demo) as opened:
        cap = tasks_of(opened)
        task = by_id(cap, "cron")["daily-digest"]
        assert "Its database row stays" in cap.delete_note(task)
        assert cap.delete_reason(by_id(cap, "cron")["standup-notes"]) is not None  # a row only: nothing to move
        token = cap.delete(task)
        assert not (demo / "cron" / "daily-digest").exists()
        assert [c.where for c in by_id(cap, "cron")["daily-digest"].copies] == ["database row"]
        trash = opened.capability(api.Trash)  # a deleted task is one of the store's deleted items
        (listed,) = trash.deleted()
        assert listed.key == token and listed.title == str((demo / "cron" / "daily-digest").resolve())
        assert trash.restore(listed) == f"Restored {(demo / 'cron' / 'daily-digest').resolve()}."
        assert trash.deleted() == []
        assert [c.where for c in by_id(cap, "cron")["daily-digest"].copies] == ["file", "database row"]
    after = snapshot_tree(demo)
    assert {k: v for k, v in after.items() if not k.startswith(TRASH_NAME)} == before


def test_writes_are_refused_while_the_engine_runs_until_forced(demo):
    (demo / "engine.pid").write_text(f"{os.getpid()}\n")
    before = snapshot_tree(demo)
    with open_store(demo) as opened:
        cap = tasks_of(opened)
        task = by_id(cap, "cron")["daily-digest"]
        for write in (lambda: cap.create("cron", {"name": "X", "schedule": "0 9 * * *"}),
                      lambda: cap.delete(task),
                      lambda: cap.update(task, {"name": "Changed"})):
            with pytest.raises(api.WriteRefused, match="engine is running"):
                write()
        assert snapshot_tree(demo) == before
        cap.update(task, {"name": "Changed"}, force=True)
    conn = sqlite3.connect(demo / "daycare.db")
    try:
        assert conn.execute("SELECT name FROM tasks_cron WHERE id = 'daily-digest'").fetchone() == ("Changed",)
    finally:
        conn.close()


def test_a_row_edit_writes_only_the_changed_fields_and_refuses_a_row_changed_since_it_was_listed(demo):
    with open_store(demo) as opened:
        cap = tasks_of(opened)
        task = by_id(cap, "cron")["daily-digest"]
        assert [f.name for f in cap.editable(task)] == ["name", "schedule", "enabled", "delete_after_run",
                                                         "agent_id", "user_id", "description", "code"]
        assert cap.form_values(task)["enabled"] is True
        fresh = cap.update(task, {"schedule": "0 6 * * *", "enabled": False})
        assert fresh.schedule == "0 6 * * *" and fresh.enabled is False  # read back after the write
        with pytest.raises(api.WriteConflict, match="changed since it was listed"):
            cap.update(task, {"name": "Stale"})  # ``task`` still holds the old schedule
        with pytest.raises(ValueError, match="minute: 61"):
            cap.update(fresh, {"schedule": "61 * * * *"})
    conn = sqlite3.connect(demo / "daycare.db")
    try:
        assert conn.execute("SELECT name, schedule, enabled FROM tasks_cron WHERE id = 'daily-digest'"
                            ).fetchone() == ("Daily digest", "0 6 * * *", 0)
    finally:
        conn.close()


def test_other_kinds_keep_the_defaults():
    class Plain(api.Tasks):
        def tasks(self):
            return []

    cap = Plain()
    assert cap.groups() == () and cap.create_fields("cron") == ()
    assert cap.delete_reason(None) and cap.create_warning("cron") is None
    with pytest.raises(api.WriteRefused):
        cap.create("cron", {})
    with pytest.raises(api.WriteRefused):
        cap.delete(None)
