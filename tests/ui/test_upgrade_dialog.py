"""Storage → Upgrade storage…: plan, run with progress, result, refusals; driven like a user would."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sqlite3
import threading
from functools import partial

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QDesktopServices

from daycare_gui.stores.daycare.sqlite import storage as upgrade_module  # where the dialog's upgrade runs
from daycare_gui.stores.daycare.sqlite.migrations.base import MigrationError
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509
from daycare_gui.stores.daycare.sqlite.storage import DaycareStorage
from daycare_gui.stores.daycare.sqlite.store import open_store
from daycare_gui.ui.dialogs.upgrade import UpgradeDialog
from tests.conftest import snapshot_tree


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def make_dialog(qtbot):
    made = []

    def make(store):
        dialog = UpgradeDialog(DaycareStorage(store) if store is not None else None)
        qtbot.addWidget(dialog)
        dialog.show()
        made.append(dialog)
        return dialog

    yield make
    for dialog in made:
        dialog.worker.shutdown()


def wait_for_page(qtbot, dialog, page, timeout=15000):
    qtbot.waitUntil(lambda: dialog.stack.currentWidget() is page, timeout=timeout)


def wait_planned(qtbot, dialog):
    qtbot.waitUntil(lambda: dialog.stack.currentWidget() is not dialog.busy_page, timeout=15000)


def run_and_wait(qtbot, dialog):
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    wait_for_page(qtbot, dialog, dialog.result_page)


def table_column(dialog, col):
    table = dialog.plan_page.table
    return [table.item(r, col).text() for r in range(table.rowCount())]


def partial_store(fixture_copy, count=10):
    """The legacy fixture with a database that has the first ``count`` migrations."""
    folder = fixture_copy("daycare-808af509", with_db=False)
    result = run_upgrade(folder / "daycare.db", migrations=MIGRATIONS[:count], backup=False)
    assert result.ok
    return folder


def test_legacy_store_plan_run_result_and_second_open(qtbot, fixture_copy, make_dialog):
    folder = fixture_copy("daycare-808af509", with_db=False)
    store = open_store(folder)
    dialog = make_dialog(store)
    assert dialog.stack.currentWidget() is dialog.busy_page  # the dry run is computed in the background
    wait_planned(qtbot, dialog)
    page = dialog.plan_page
    assert dialog.stack.currentWidget() is page
    assert page.headline.text() == "26 pending migrations"
    assert table_column(dialog, 0) == list(MIGRATIONS_808AF509)
    assert table_column(dialog, 1)[0] == "creates agents, sessions, session_history"
    assert table_column(dialog, 2)[1] == "2 agents, 3 sessions, 3 records; skips 1 line"
    assert "agents +2" in table_column(dialog, 3)[1]
    skipped = page.skipped.toPlainText()
    assert f"{folder / 'agents' / 'agentusr1' / 'history.jsonl'}:6" in skipped
    assert "nothing to back up" in page.backup.path_label.text()
    assert not page.backup.skip.isVisible() and not page.backup.change_button.isVisible()
    assert dialog.run_button.isVisible() and dialog.run_button.isEnabled()
    assert dialog.run_button.isDefault()

    steps = []
    dialog.running_page.bar.valueChanged.connect(steps.append)
    run_and_wait(qtbot, dialog)
    result = dialog.result_page
    assert result.headline.text() == "Upgrade complete: 26 migrations applied"
    assert [result.applied.item(i).text() for i in range(result.applied.count())] == list(MIGRATIONS_808AF509)
    assert dialog.running_page.bar.value() == dialog.running_page.bar.maximum() == 26
    assert 25 in steps  # the bar moved through the migrations, not only to the end
    assert result.backup_label.text() == "Backup: none — no database yet, nothing to back up."
    assert not result.folder_button.isVisible()
    assert "Integrity check: ok" in result.checks.text()
    assert "Foreign key check: ok" in result.checks.text()
    assert dialog.changed
    assert dialog.close_button.isVisible() and not dialog.run_button.isVisible()
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == UpgradeDialog.DialogCode.Accepted

    again = make_dialog(open_store(folder))
    wait_planned(qtbot, again)
    assert again.stack.currentWidget() is again.message_page
    assert again.message_page.headline.text() == "Storage already up to date."
    assert not again.run_button.isVisible() and again.close_button.isVisible()
    assert not again.changed


def test_backup_is_named_and_shown_in_folder(qtbot, fixture_copy, make_dialog, monkeypatch):
    folder = partial_store(fixture_copy)
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: opened.append(url) or True))
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)
    assert dialog.plan_page.headline.text() == "16 pending migrations"
    shown = dialog.plan_page.backup.path_label.text()
    assert shown.startswith(str(folder / "daycare.db.backup-")) and "default" in shown
    run_and_wait(qtbot, dialog)
    backup = dialog.upgrade_result.backup_path
    assert backup.parent == folder and backup.exists()
    assert dialog.result_page.backup_label.text() == f"Backup: {backup}"
    qtbot.mouseClick(dialog.result_page.folder_button, Qt.MouseButton.LeftButton)
    assert len(opened) == 1 and opened[0].isLocalFile() and opened[0].toLocalFile() == str(folder)
    assert sqlite3.connect(backup).execute("SELECT COUNT(*) FROM _migrations").fetchone()[0] == 10


def test_chosen_backup_path_and_no_backup(qtbot, fixture_copy, make_dialog, tmp_path):
    folder = partial_store(fixture_copy)
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)
    box = dialog.plan_page.backup
    mine = tmp_path / "mine.db"
    assert box.set_chosen(mine)
    assert box.path_label.text() == str(mine)
    box.skip.setChecked(True)
    assert box.warning.isVisible() and "no way back" in box.warning.text()
    assert not box.change_button.isEnabled()
    box.skip.setChecked(False)
    run_and_wait(qtbot, dialog)
    assert dialog.upgrade_result.backup_path == mine and mine.exists()

    other = partial_store(lambda *a, **k: fixture_copy(*a, **k, as_name="second"))
    dialog = make_dialog(open_store(other))
    wait_planned(qtbot, dialog)
    dialog.plan_page.backup.skip.setChecked(True)
    run_and_wait(qtbot, dialog)
    assert dialog.upgrade_result.ok and dialog.upgrade_result.backup_path is None
    assert dialog.result_page.backup_label.text() == "Backup: none (you chose not to make one)."
    assert not list(other.glob("*.backup-*"))


@pytest.mark.parametrize("name, expected", [
    ("daycare-newer", "20260301_add_token_stats"),
    ("daycare-stuck", "Cannot require tasks_cron.task_id; trigger dailycleanup has no task_id."),
])
def test_unknown_stores_are_refused_with_only_close(qtbot, fixture_copy, make_dialog, name, expected):
    folder = fixture_copy(name)
    before = snapshot_tree(folder)
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)
    assert dialog.stack.currentWidget() is dialog.message_page
    assert dialog.message_page.headline.text() == "This store will not be upgraded"
    assert expected in dialog.message_page.body.text()
    assert not dialog.run_button.isVisible() and not dialog.cancel_button.isVisible()
    assert dialog.close_button.isVisible()
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.changed and dialog.result() == UpgradeDialog.DialogCode.Rejected
    assert snapshot_tree(folder) == before


def test_running_engine_is_refused(qtbot, fixture_copy, make_dialog):
    folder = fixture_copy("daycare-808af509", with_db=False)
    (folder / "engine.pid").write_text(f"{os.getpid()}\n")
    store = open_store(folder)
    assert store.engine.running
    dialog = make_dialog(store)
    wait_planned(qtbot, dialog)
    assert "engine is running" in dialog.message_page.body.text()
    assert store.engine.detail in dialog.message_page.body.text()
    assert not dialog.run_button.isVisible()
    assert not (folder / "daycare.db").exists()


def test_pglite_store_is_refused(qtbot, tmp_path, make_dialog):
    root = tmp_path / "pg"
    (root / "daycare.pglite").mkdir(parents=True)
    (root / "daycare.pglite" / "PG_VERSION").write_text("16\n")
    (root / "settings.json").write_text("{}")
    dialog = make_dialog(open_store(root))
    wait_planned(qtbot, dialog)
    assert "PGlite" in dialog.message_page.body.text()
    assert not dialog.run_button.isVisible()


def test_failing_migration_is_named_and_store_left_unchanged(qtbot, fixture_copy, make_dialog, monkeypatch):
    folder = partial_store(fixture_copy)
    db = folder / "daycare.db"
    before = sha(db)

    def fail(ctx):
        ctx.conn.execute("DELETE FROM agents")
        raise MigrationError("injected failure")

    broken = tuple(dataclasses.replace(m, apply=fail) if m.name == "20260222_import_channels" else m
                   for m in MIGRATIONS)
    # Only the run is broken: the dry run still shows a plan with Run enabled.
    monkeypatch.setattr(upgrade_module, "run_upgrade", partial(run_upgrade, migrations=broken))
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)
    run_and_wait(qtbot, dialog)
    page = dialog.result_page
    assert page.headline.text() == "Migration 20260222_import_channels failed"
    assert "injected failure" in page.detail.text()
    assert f"The store was left unchanged: {db} is exactly as it was before." in page.detail.text()
    assert sha(db) == before
    assert not dialog.changed
    assert not [p for p in folder.iterdir() if ".upgrade-" in p.name]  # the working copy is gone


def test_a_write_during_the_run_is_kept_and_said(qtbot, fixture_copy, make_dialog, monkeypatch):
    """QA: a table written into daycare.db while the upgrade ran was gone afterwards."""
    folder = partial_store(fixture_copy)
    db = folder / "daycare.db"

    def run_with_a_writer(*args, progress, **kwargs):
        def step(index, total, migration):
            if index == 2:
                conn = sqlite3.connect(db)
                conn.execute("CREATE TABLE written_meanwhile(x)")
                conn.commit()
                conn.close()
            progress(index, total, migration)
        return run_upgrade(*args, progress=step, **kwargs)

    monkeypatch.setattr(upgrade_module, "run_upgrade", run_with_a_writer)
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)
    run_and_wait(qtbot, dialog)
    page = dialog.result_page
    assert page.headline.text() == "The database was written to while the upgrade ran"
    assert page.detail.text().startswith("daycare.db (or its -wal or -journal) changed after the copy was taken")
    assert f"The store was left unchanged: {db} is exactly as it was before." in page.detail.text()
    assert not dialog.changed
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'written_meanwhile'").fetchone() == (1,)
    conn.close()


def test_predicted_failure_disables_run(qtbot, fixture_copy, make_dialog):
    folder = partial_store(fixture_copy, 17)
    conn = sqlite3.connect(folder / "daycare.db")
    conn.execute("DELETE FROM users")
    conn.execute("DELETE FROM tasks_heartbeat")
    conn.execute("INSERT INTO tasks_heartbeat (id, title, prompt, created_at, updated_at) VALUES ('h', 't', 'c', 1, 1)")
    conn.commit()
    conn.close()
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)
    failure = dialog.plan_page.failure
    assert failure.isVisible() and "20260223_add_heartbeat_users" in failure.text()
    assert dialog.run_button.isVisible() and not dialog.run_button.isEnabled()


def test_cancel_between_migrations_leaves_store_unchanged(qtbot, fixture_copy, make_dialog, monkeypatch):
    folder = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(folder)
    dialog = make_dialog(open_store(folder))
    wait_planned(qtbot, dialog)

    cancel_at = 2

    def cancel_when_started(i, _n, _name):
        if i == cancel_at:
            qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)

    dialog.running_page.bar.valueChanged.connect(lambda v: cancel_when_started(v, 0, ""))
    gate = threading.Event()

    def gated_run(db_path, **kwargs):
        progress = kwargs.pop("progress")

        def step(i, n, m):
            progress(i, n, m)
            if i == cancel_at:
                gate.wait(5)  # hold the worker until the click has been made
        return run_upgrade(db_path, progress=step, **kwargs)

    monkeypatch.setattr(upgrade_module, "run_upgrade", gated_run)
    dialog.cancel_button.clicked.connect(gate.set)
    qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    wait_for_page(qtbot, dialog, dialog.result_page)
    assert dialog.upgrade_result.cancelled
    assert dialog.result_page.headline.text() == "Upgrade cancelled"
    assert "exactly as it was" in dialog.result_page.detail.text()
    assert not dialog.changed
    assert snapshot_tree(folder) == before


def test_window_read_connection_survives_the_swap(qtbot, fixture_copy, make_dialog):
    """The window keeps its read-only connection open during the upgrade; reopening sees the new migrations."""
    folder = partial_store(fixture_copy)
    old = open_store(folder)
    assert old.db is not None and len(old.migrations.pending) == 16
    first = old.db.rows("SELECT COUNT(*) FROM _migrations")[0][0]
    dialog = make_dialog(old)
    wait_planned(qtbot, dialog)
    run_and_wait(qtbot, dialog)
    assert dialog.changed
    assert old.db.rows("SELECT COUNT(*) FROM _migrations")[0][0] == first  # still the old file, still readable
    old.close()
    new = open_store(folder)
    try:
        assert new.migrations.pending == () and len(new.migrations.applied) == 26
    finally:
        new.close()


def test_window_read_connection_through_a_wal_survives_the_swap(qtbot, fixture_copy, make_dialog):
    """With a -wal file the window reads with mode=ro; the swap must neither break it nor lose WAL content."""
    folder = partial_store(fixture_copy)
    writer = sqlite3.connect(folder / "daycare.db", isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE wal_marker (x)")  # lives only in the -wal until a checkpoint
    assert (folder / "daycare.db-wal").exists()
    old = open_store(folder)
    assert old.db.mode.name == "read-only"
    writer.close()
    dialog = make_dialog(old)
    wait_planned(qtbot, dialog)
    run_and_wait(qtbot, dialog)
    assert dialog.changed, dialog.upgrade_result.summary()
    old.db.rows("SELECT COUNT(*) FROM sqlite_master")  # does not raise
    old.close()
    new = open_store(folder)
    try:
        assert new.migrations.pending == ()
        assert new.db.rows("SELECT COUNT(*) FROM sqlite_master WHERE name = 'wal_marker'")[0][0] == 1
    finally:
        new.close()


def test_no_store(qtbot, make_dialog):
    dialog = make_dialog(None)
    assert dialog.message_page.headline.text() == "No store is open."
    assert dialog.close_button.isVisible() and not dialog.run_button.isVisible()


def test_storage_menu_upgrade_reloads_the_window(qtbot, window, fixture_copy):
    """Storage → Upgrade storage… end to end: the modal dialog runs, closes, and the window reopens the store."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from tests.ui.conftest import open_and_wait

    folder = partial_store(fixture_copy)
    open_and_wait(qtbot, window, folder)
    old_store = window.store
    assert len(old_store.core.migrations.pending) == 16
    seen = {}

    def drive():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, UpgradeDialog)
        wait_planned(qtbot, dialog)
        run_and_wait(qtbot, dialog)
        seen["headline"] = dialog.result_page.headline.text()
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, drive)
    window.open_upgrade()  # modal: returns when drive() pressed Close
    assert seen["headline"] == "Upgrade complete: 16 migrations applied"
    qtbot.waitUntil(lambda: window.store is not old_store and window.store is not None, timeout=10000)
    assert window.opened.core.migrations.pending == ()
    # the upgrade's own changes on disk are what was just reloaded: no "changed on disk" banner follows
    with qtbot.assertNotEmitted(window.watcher.changed, wait=1500):
        pass
    assert not window.banner.isVisible()
