"""New…, Delete… and Trash… on the task, app and skill pages, driven through their buttons and dialogs as a
user would, with the exact bytes on disk checked after each step. The task pages are the shared tasks page
(over Daycare's ``Tasks`` capability); its Trash… is the store's one Deleted Items dialog (``Trash``)."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox, QPushButton

from daycare_gui.stores.common.edit.trash import TRASH_NAME
from daycare_gui.ui.dialogs.trash import TrashDialog
from daycare_gui.ui.panes.generic.task_dialogs import NewTaskDialog
from tests.conftest import snapshot_tree
from tests.ui.conftest import open_and_wait
from tests.ui.test_people_panes import texts


@pytest.fixture
def store(tmp_path, demo_store):
    root = tmp_path / "daycare"
    shutil.copytree(demo_store, root)
    return root


def on_next_dialog(act, *, kind=None, tries=500):
    """Run ``act(dialog)`` once a modal dialog (of ``kind``) is open: its exec() blocks the click that opened
    it, so the answer has to come from the event loop it runs."""
    def poll(left=tries):
        dialog = QApplication.activeModalWidget()
        if dialog is not None and (kind is None or isinstance(dialog, kind)):
            act(dialog)
        elif left:
            QTimer.singleShot(10, lambda: poll(left - 1))

    QTimer.singleShot(0, poll)


def fill_and_create(values: dict):
    def act(dialog: NewTaskDialog):
        for key, text in values.items():
            dialog.inputs[key].setText(text)
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    return act


def create_file_anyway(told: list | None = None):
    """Answer the question New cron/heartbeat task… asks first on a store that reads its tasks from the
    database (the demo store imported its task files): create the file anyway."""
    def act(box: QMessageBox):
        if told is not None:
            told.append(box.text())
        next(b for b in box.buttons() if b.text() == "Create file anyway").click()
    return act


def show_fresh(qtbot, window, section, old=None, rows=None):
    """The section's pane once it is (re)built after a refresh and lists ``rows`` records."""
    window.show_section(section)
    qtbot.waitUntil(lambda: window.panes.get(section) is not None and window.panes[section] is not old, timeout=10000)
    pane = window.panes[section]
    if rows is not None:
        qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == rows, timeout=10000)
    return pane


def listed(qtbot, pane, rows):
    """The shared tasks page reads its list again in place after its own write: ``rows`` tasks listed."""
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == rows, timeout=10000)
    return pane


def id_column(pane) -> int:
    from PySide6.QtCore import Qt

    model = pane.records.proxy
    return next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Id")


def trash_button(pane) -> QPushButton:
    return next(b for b in pane.findChildren(QPushButton) if b.text() == "Trash…")


def without(tree: dict, prefix: str) -> dict:
    return {k: v for k, v in tree.items() if not k.startswith(prefix)}


def test_new_cron_task_then_delete_it_then_restore_it(qtbot, window, store):
    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, "cron", rows=6)
    before = snapshot_tree(store)

    # New cron task…: the dialog explains the schedule and creates the file from the template
    on_next_dialog(create_file_anyway(), kind=QMessageBox)
    said = []

    def fill(dialog: NewTaskDialog):
        dialog.inputs["schedule"].setText("30 7 * * 1")
        said.append(dialog.hint.text())
        fill_and_create({"name": "Water the plants", "schedule": "30 7 * * 1"})(dialog)

    on_next_dialog(fill, kind=NewTaskDialog)
    pane.new_button.click()
    assert said == ["At 07:30 AM, only on Monday"]
    task = store / "cron" / "water-the-plants" / "TASK.md"
    assert task.is_file()
    task_id = re.search(rb"^taskId: ([a-z0-9]{24})$", task.read_bytes(), re.M).group(1).decode()
    assert task.read_bytes() == (b"---\nname: Water the plants\nschedule: 30 7 * * 1\nenabled: true\n"
                                 b"taskId: " + task_id.encode() + b"\n---\nDescribe what the task should do.\n")
    created = snapshot_tree(store)
    assert without(created, "cron/water-the-plants") == before  # nothing else was touched
    listed(qtbot, pane, 7)  # the page read its tasks again, and selected the new one
    assert "Water the plants" in texts(pane.records.proxy, 0)
    assert pane.current_record().task.title == "Water the plants"

    # Delete…: confirmed, the folder moves into the store's trash with a manifest saying where it was
    pane.table.selectRow(texts(pane.records.proxy, 0).index("Water the plants"))
    assert pane.delete_button.isEnabled()
    on_next_dialog(lambda box: box.button(QMessageBox.StandardButton.Yes).click(), kind=QMessageBox)
    pane.delete_button.click()
    assert not task.parent.exists()
    trashed = without(snapshot_tree(store), "cron/")
    entries = {k: v for k, v in trashed.items() if k.startswith(TRASH_NAME)}
    (stamp,) = {k.split("/")[1] for k in entries}
    assert entries[f"{TRASH_NAME}/{stamp}/cron/water-the-plants/TASK.md"] == created["cron/water-the-plants/TASK.md"]
    manifest = json.loads(entries[f"{TRASH_NAME}/{stamp}/.trash-manifest.json"])
    assert manifest["original"] == str(task.parent.resolve()) and manifest["kind"] == "folder"
    assert len(entries) == 2 and snapshot_tree(store).keys() - entries.keys() == before.keys()
    listed(qtbot, pane, 6)

    # Trash…: the entry is listed newest first; Restore puts the folder back byte for byte
    def restore(dialog: TrashDialog):
        assert dialog.list.count() == 1 and str(task.parent.resolve()) in dialog.list.item(0).text()
        dialog.restore_button.click()
        assert [dialog.list.item(i).text() for i in range(dialog.list.count())] == [
            "Nothing deleted from daycare-gui is kept here."] and not dialog.restore_button.isEnabled()
        dialog.reject()

    on_next_dialog(restore, kind=TrashDialog)
    trash_button(pane).click()
    assert snapshot_tree(store) == created  # exactly as before the delete; the trash holds nothing
    listed(qtbot, pane, 7)
    assert "Water the plants" in texts(pane.records.proxy, 0)
    qtbot.wait(1500)  # longer than the watcher's debounce: the page's own writes raise no banner
    assert not window.banner.isVisible()


@pytest.mark.parametrize("section, values, files", [
    ("heartbeat", {"title": "Check the plants"},
     {"heartbeat/check-the-plants.md": b"---\ntitle: Check the plants\n---\nDescribe what to check on each heartbeat.\n"}),
])
def test_new_items_come_from_the_templates(qtbot, window, store, section, values, files):
    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, section)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() > 0, timeout=10000)
    count = pane.records.proxy.rowCount()
    before = snapshot_tree(store)
    on_next_dialog(create_file_anyway(), kind=QMessageBox)
    on_next_dialog(fill_and_create(values), kind=NewTaskDialog)
    pane.new_button.click()
    after = snapshot_tree(store)
    assert {k: v for k, v in after.items() if k not in before} == files  # first location: workspace / config
    assert {k: v for k, v in after.items() if k in before} == before
    listed(qtbot, pane, count + 1)


APP_FILES = {"workspace/apps/garden/APP.md": b"---\nname: garden\ntitle: Garden\ndescription: Keeps the garden log\n"
                                          b"---\nYou are a helpful assistant for this app.\n",
             "workspace/apps/garden/PERMISSIONS.md": b"## Source Intent\n\nDescribe what this app needs access to and "
                                                     b"why.\n\n## Rules\n\n### Allow\n\n### Deny\n"}


def _apps_view(qtbot, window, old=None, rows=None):
    window.show_section("apps")
    qtbot.waitUntil(lambda: window.panes.get("apps") is not None and window.panes["apps"] is not old, timeout=10000)
    view = window.panes["apps"].views["apps"]
    qtbot.waitUntil(lambda: view.model.rowCount() > 0 and view.new_button.isVisible() if rows is None
                    else view.model.rowCount() == rows, timeout=10000)
    return view


def test_new_app_comes_from_the_template_in_the_first_place(qtbot, window, store):
    """The shared list pane's New… (the store's create_fields): the app from Daycare's template, nothing else
    touched."""
    from daycare_gui.ui.panes.generic.edit_form import EditDialog

    open_and_wait(qtbot, window, store)
    view = _apps_view(qtbot, window)
    count = view.model.rowCount()
    before = snapshot_tree(store)

    def fill(dialog: EditDialog):
        for name, text in {"name": "garden", "title": "Garden", "description": "Keeps the garden log"}.items():
            dialog._getters[name].__self__.setText(text)
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save).click()

    on_next_dialog(fill, kind=EditDialog)
    old = window.panes["apps"]
    view.new_button.click()
    qtbot.waitUntil(lambda: (store / "workspace/apps/garden/PERMISSIONS.md").is_file(), timeout=10000)
    after = snapshot_tree(store)
    assert {k: v for k, v in after.items() if k not in before} == APP_FILES
    assert {k: v for k, v in after.items() if k in before} == before
    _apps_view(qtbot, window, old=old, rows=count + 1)


def test_new_item_never_replaces_an_existing_one(qtbot, window, store):
    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, "heartbeat", rows=4)
    existing = store / "heartbeat" / "check-inbox.md"
    before = snapshot_tree(store)
    seen = []

    def try_existing(dialog: NewTaskDialog):
        dialog.inputs["title"].setText("Check inbox")  # slugs to check-inbox.md, which exists
        dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
        seen.append((dialog.isVisible(), dialog.error.text()))
        dialog.reject()

    on_next_dialog(create_file_anyway(), kind=QMessageBox)
    on_next_dialog(try_existing, kind=NewTaskDialog)
    pane.new_button.click()
    (still_open, message), = seen
    assert still_open and "already exists" in message and str(existing) in message
    assert snapshot_tree(store) == before


def test_restore_refuses_when_the_place_is_taken_again(qtbot, window, store):
    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, "heartbeat", rows=4)
    target = store / "heartbeat" / "budget-watch.md"
    original = target.read_bytes()
    pane.table.selectRow(texts(pane.records.proxy, id_column(pane)).index("budget-watch"))
    on_next_dialog(lambda box: box.button(QMessageBox.StandardButton.Yes).click(), kind=QMessageBox)
    pane.delete_button.click()
    assert not target.exists()
    target.write_bytes(b"---\ntitle: Written meanwhile\n---\nNew.\n")  # something new took its place
    warnings = []

    def restore(dialog: TrashDialog):
        def refuse(box: QMessageBox):
            warnings.append((box.windowTitle(), box.text()))
            box.accept()

        on_next_dialog(refuse, kind=QMessageBox)
        dialog.restore_button.click()
        assert dialog.list.count() == 1  # still in the trash
        dialog.reject()

    on_next_dialog(restore, kind=TrashDialog)
    trash_button(pane).click()
    (title, text), = warnings
    assert title == "Not restored" and "exists again" in text and "nothing was restored" in text
    assert target.read_bytes() == b"---\ntitle: Written meanwhile\n---\nNew.\n"
    (kept,) = (store / TRASH_NAME).glob("*/heartbeat/budget-watch.md")
    assert kept.read_bytes() == original


def test_restore_into_a_read_only_folder_is_a_message_not_a_crash(qtbot, window, store):
    from tests.core.edit.test_trash import read_only

    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, "heartbeat", rows=4)
    target = store / "heartbeat" / "budget-watch.md"
    original = target.read_bytes()
    pane.table.selectRow(texts(pane.records.proxy, id_column(pane)).index("budget-watch"))
    on_next_dialog(lambda box: box.button(QMessageBox.StandardButton.Yes).click(), kind=QMessageBox)
    pane.delete_button.click()
    assert not target.exists()
    listed(qtbot, pane, 3)
    warnings = []

    def restore(dialog: TrashDialog):
        def refuse(box: QMessageBox):
            warnings.append((box.windowTitle(), box.text()))
            box.accept()

        with pytest.MonkeyPatch.context() as mp:
            read_only(mp, target.parent)
            on_next_dialog(refuse, kind=QMessageBox)
            dialog.restore_button.click()
        assert dialog.list.count() == 1  # still listed, still restorable
        dialog.reject()

    on_next_dialog(restore, kind=TrashDialog)
    trash_button(pane).click()
    (title, text), = warnings
    assert title == "Not restored" and "Permission denied" in text and "still in the trash" in text
    assert not target.exists()
    (kept,) = (store / TRASH_NAME).glob("*/heartbeat/budget-watch.md")
    assert kept.read_bytes() == original


def test_delete_across_file_systems_that_fails_midway_says_partly_deleted(qtbot, window, store, monkeypatch):
    import errno
    import os

    open_and_wait(qtbot, window, store)
    view = _apps_view(qtbot, window)
    qtbot.waitUntil(lambda: all(view.model.record(r) for r in range(view.model.rowCount())), timeout=10000)
    app = store / "workspace" / "apps" / "deploy-check"
    before = snapshot_tree(app)
    stuck = sorted(before)[-1]  # one file of the original cannot be removed
    view.table.selectRow(texts(view.model, 0).index("deploy-check"))
    qtbot.waitUntil(lambda: any(b.objectName() == "action:delete" for b in view.row_actions()), timeout=5000)
    delete = next(b for b in view.row_actions() if b.objectName() == "action:delete")

    def rename(src, dst, *args, **kwargs):
        raise OSError(errno.EXDEV, "Invalid cross-device link", str(src), None, str(dst))

    real_unlink = os.unlink

    def unlink(path, *args, **kwargs):
        if os.fspath(path) == str(app / stuck):
            raise PermissionError(errno.EPERM, "Operation not permitted", os.fspath(path))
        return real_unlink(path, *args, **kwargs)

    warnings = []

    def answer(box: QMessageBox):
        if box.windowTitle() == "Delete":
            assert "to the trash" in box.text()
            box.button(QMessageBox.StandardButton.Yes).click()

    on_next_dialog(answer, kind=QMessageBox)
    with monkeypatch.context() as mp:
        mp.setattr(os, "rename", rename)
        mp.setattr(os, "unlink", unlink)
        mp.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: warnings.append(a[1:3])))
        delete.click()
        qtbot.waitUntil(lambda: bool(warnings), timeout=10000)
    (title, text), = warnings
    assert title == "Partly done" and str(app / stuck) in text and "full copy is in the Trash" in text
    assert snapshot_tree(app) == {stuck: before[stuck]}  # only what could not be removed is left
    (copy,) = (store / TRASH_NAME).glob("*/workspace/apps/deploy-check")
    assert snapshot_tree(copy) == before  # the whole folder, byte for byte


@pytest.mark.parametrize("section, what", [("cron", "cron task"), ("heartbeat", "heartbeat task")])
def test_new_task_on_a_store_that_reads_the_database_says_so_before_creating(qtbot, window, store, section, what):
    """QA: New cron/heartbeat task… created a file Daycare ignores (its tasks were imported into the
    database), and only a note in the editor said so afterwards."""
    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, section)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() > 0, timeout=10000)
    before = snapshot_tree(store)
    told, dialogs = [], []

    def decline(box):
        if not isinstance(box, QMessageBox):  # (no question was asked: the New… dialog opened at once)
            box.reject()
            return
        told.append((box.windowTitle(), box.text(), box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)))
        box.button(QMessageBox.StandardButton.Cancel).click()

    on_next_dialog(decline)
    pane.new_button.click()
    (title, text, cancel_is_default), = told
    assert title == "Daycare will ignore a new task file" and cancel_is_default
    assert "reads its tasks from the database" in text and "20260220_import_tasks" in text
    assert f"A new {what} file would never run" in text and "cannot create task rows" in text
    QApplication.processEvents()
    assert QApplication.activeModalWidget() is None and snapshot_tree(store) == before  # no dialog, no file

    # Creating it anyway: the dialog keeps the warning in sight while the values are typed
    def look_and_cancel(dialog: NewTaskDialog):
        dialogs.append((dialog.note.isVisibleTo(dialog), dialog.note.text()))
        dialog.reject()

    on_next_dialog(create_file_anyway(), kind=QMessageBox)
    on_next_dialog(look_and_cancel, kind=NewTaskDialog)
    pane.new_button.click()
    (shown, note), = dialogs
    assert shown and note.startswith("Daycare will ignore this task:")
    assert snapshot_tree(store) == before


def test_the_trash_dialog_shows_a_planted_entry_as_not_restorable(qtbot, store, tmp_path):
    """Storage → Deleted items lists what the store's ``Trash`` holds: a planted entry naming a place outside
    the store is shown greyed with its reason, and never restored."""
    from daycare_gui.stores import api
    from daycare_gui.stores.common.edit.trash import MANIFEST_NAME
    from daycare_gui.stores.registry import open_store

    outside = tmp_path / "autostart" / "evil.desktop"
    entry = store / TRASH_NAME / "20260101-000000-000000"
    entry.mkdir(parents=True)
    (entry / "evil.desktop").write_text("[Desktop Entry]\n")
    (entry / MANIFEST_NAME).write_text(json.dumps({"original": str(outside), "relative": "evil.desktop"}))
    with open_store(store) as opened:
        dialog = TrashDialog(opened.capability(api.Trash))
        qtbot.addWidget(dialog)
        (row,) = [dialog.list.item(i) for i in range(dialog.list.count())]
        assert row.text().startswith("Not restorable: 20260101-000000-000000:") and "evil.desktop" in row.text()
        assert not row.flags() and not dialog.restore_button.isEnabled()
        dialog.restore_selected()
    assert not outside.exists()
