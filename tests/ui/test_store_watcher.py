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


class _Listed:
    """A store that names these paths (the watcher asks only ``watch_paths()``)."""

    def __init__(self, *paths) -> None:
        self.paths = paths

    def watch_paths(self):
        return self.paths


def test_a_pipe_or_device_among_the_paths_is_never_watched(qtbot, tmp_path):
    import os

    real = tmp_path / "tasks.json"
    real.write_text("[]")
    fifo = tmp_path / "messages.jsonl"
    os.mkfifo(fifo)  # a hostile store: a pipe where a log should be (a watch must not follow it)
    link = tmp_path / "checkpoints.db"
    link.symlink_to("/dev/null")  # a link to a device
    w = StoreWatcher()
    w.watch(_Listed(real, fifo, link, tmp_path))
    try:
        assert w._watcher.files() == [str(real)] and w._watcher.directories() == [str(tmp_path)]
    finally:
        w.watch(None)


def test_a_file_replaced_by_an_atomic_rename_is_watched_again(qtbot, tmp_path):
    import os

    tasks = tmp_path / "data" / "tasks.json"
    tasks.parent.mkdir()
    tasks.write_text("[]")
    w = StoreWatcher()
    w.watch(_Listed(tasks))  # the file alone, not its folder: only re-adding it sees the second save
    try:
        for n in range(2):
            with qtbot.waitSignal(w.changed, timeout=5000) as blocker:
                tmp = tasks.with_name(f".tasks.{n}.tmp")
                tmp.write_text(f"[{n}]")
                os.replace(tmp, tasks)
            assert blocker.args == ["tasks.json changed on disk."]
            assert w._watcher.files() == [str(tasks)]
    finally:
        w.watch(None)


def test_a_folder_swapped_in_by_the_windows_own_save_is_watched_afresh(qtbot, tmp_path):
    """A PGlite edit renames the store's folder to a backup and renames the edited copy in: its own events are
    no news, and a write into the new folder afterwards is (the watch must not stay on the backup)."""
    import os

    def pglite(folder):
        (folder / "pg_wal").mkdir(parents=True)
        (folder / "pg_wal" / "000000010000000000000001").write_bytes(b"\0" * 64)
        return folder

    data = pglite(tmp_path / "daycare.pglite")
    segment = data / "pg_wal" / "000000010000000000000001"
    w = StoreWatcher()
    w.watch(_Listed(data, data / "pg_wal", segment))
    try:
        w.own_write_started()
        work = pglite(tmp_path / "work.pglite")
        (work / "pg_wal" / "000000010000000000000001").write_bytes(b"\1" * 64)
        os.rename(data, tmp_path / "backup.pglite")
        os.rename(work, data)
        w.own_write_done()
        qtbot.assertNotEmitted(w.changed, wait=DEBOUNCE_MS + 300)
        with qtbot.waitSignal(w.changed, timeout=5000) as blocker:
            os.utime(segment)  # the engine writes into the new folder's WAL
        assert blocker.args == ["000000010000000000000001 changed on disk."]
    finally:
        w.watch(None)


def test_a_wal_gone_between_two_looks_is_no_error(qtbot, watcher, store, monkeypatch):
    """A WAL seen a moment ago and gone now (its last connection closed: the bot's, or a prune's) is no
    change with data, and no exception in the watcher's slot."""
    from daycare_gui.ui import store_watcher

    gone = store / "daycare.db-wal"
    assert not gone.exists()
    monkeypatch.setattr(store_watcher, "_watchable", lambda _path: True)  # it was there when looked at
    monkeypatch.setattr(watcher, "_database", frozenset({gone}))
    assert watcher._watch_database_files() is False
