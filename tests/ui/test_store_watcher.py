"""The store watcher says when the store changed on disk, once per burst, without re-scanning the store per
event and without taking SQLite's side files (-shm, -journal, a WAL coming and going) for a change."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from daycare_gui.stores import registry
from daycare_gui.ui.store_watcher import DEBOUNCE_MS, StoreWatcher


@pytest.fixture
def store(tmp_path, demo_store):
    root = tmp_path / "daycare"
    shutil.copytree(demo_store, root)
    return root


@pytest.fixture
def watcher(qtbot, store):
    opened = registry.open_store(store, kind="daycare")  # the watcher follows what the store names
    w = StoreWatcher()
    w.watch(opened)
    yield w
    w.watch(None)
    opened.close()


def test_a_burst_of_changes_is_one_message_and_one_scan(qtbot, watcher, store):
    task = store / "cron" / "daily-digest" / "TASK.md"
    scans = watcher.scans
    with qtbot.waitSignal(watcher.changed, timeout=5000) as blocker:
        for i in range(30):
            task.write_text(task.read_text() + f"\nline {i}\n")
    assert blocker.args == ["TASK.md changed on disk."]
    assert watcher.scans == scans + 1  # re-globbed once for the burst, not per event


def test_sqlite_side_files_are_not_a_change(qtbot, watcher, store):
    shm = store / "daycare.db-shm"
    journal = store / "daycare.db-journal"
    shm.write_bytes(b"\0" * 64)  # a reader's shared-memory index appears
    journal.write_bytes(b"x")  # a rollback journal comes and goes
    journal.unlink()
    qtbot.waitUntil(lambda: watcher.ignored >= 1, timeout=5000)  # seen, and classed as churn
    qtbot.assertNotEmitted(watcher.changed, wait=DEBOUNCE_MS + 300)


def test_a_commit_into_the_wal_is_a_database_change(qtbot, watcher, store):
    conn = sqlite3.connect(store / "daycare.db")
    try:
        conn.execute("PRAGMA journal_mode=wal")
        conn.execute("PRAGMA wal_autocheckpoint=0")
        with qtbot.waitSignal(watcher.changed, timeout=5000) as blocker:
            conn.execute("CREATE TABLE IF NOT EXISTS watcher_probe (x)")
            conn.execute("INSERT INTO watcher_probe VALUES (1)")
            conn.commit()
        assert blocker.args == ["The database changed on disk."]
        scans = watcher.scans
        with qtbot.waitSignal(watcher.changed, timeout=5000) as blocker:  # later commits are seen as well
            for i in range(20):
                conn.execute("INSERT INTO watcher_probe VALUES (?)", (i,))
                conn.commit()
        assert blocker.args == ["The database changed on disk."]
        assert watcher.scans == scans  # a database write never re-globs the store
    finally:
        conn.close()


def test_a_new_task_folder_is_noticed_and_then_watched(qtbot, watcher, store):
    folder = store / "cron" / "brand-new"
    with qtbot.waitSignal(watcher.changed, timeout=5000) as blocker:
        folder.mkdir()
        (folder / "TASK.md").write_text("---\nname: New\nschedule: 0 9 * * *\n---\nHi\n")
    assert blocker.args == ["cron changed on disk."]
    with qtbot.waitSignal(watcher.changed, timeout=5000) as blocker:  # the new file is watched now
        (folder / "TASK.md").write_text("---\nname: Newer\nschedule: 0 9 * * *\n---\nHi\n")
    assert blocker.args == ["TASK.md changed on disk."]
