"""One list of deleted items: a task deleted on the Tasks page and a skill deleted beside it are both in the
store's Deleted Items (Storage → Deleted Items, and the Tasks page's Trash… opens the same dialog), and each
is restored from there, byte for byte — on the Daycare SQLite demo and on the PGlite demo."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from daycare_gui.stores import api
from daycare_gui.stores.common.edit.trash import TRASH_NAME, move_to_trash
from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.ui.dialogs.trash import TrashDialog
from tests.conftest import snapshot_tree
from tests.pg_helpers import use_test_pglite
from tests.ui.conftest import open_and_wait
from tests.ui.test_new_delete_restore import listed, on_next_dialog, show_fresh, trash_button
from tests.ui.test_people_panes import texts


def _without_trash(tree: dict) -> dict:
    return {k: v for k, v in tree.items() if not k.startswith(TRASH_NAME)}


def _restore_all(seen: list):
    """In the dialog: note what it lists, then restore every entry, newest first, through its button."""
    def act(dialog: TrashDialog):
        seen.append([dialog.list.item(i).text() for i in range(dialog.list.count())])
        while dialog.restore_button.isEnabled():
            dialog.restore_button.click()
        seen.append([dialog.list.item(i).text() for i in range(dialog.list.count())])
        dialog.reject()
    return act


def test_a_task_and_a_skill_deleted_on_the_sqlite_demo_come_back_through_the_one_dialog(
        qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    before = snapshot_tree(store)
    open_and_wait(qtbot, window, store)
    pane = show_fresh(qtbot, window, "cron", rows=6)
    task = store / "cron" / "daily-digest"

    # the Tasks page deletes a task; a skill is deleted beside it (as the skill shelf's Delete… does)
    pane.table.selectRow(texts(pane.records.proxy, 0).index("Daily digest"))
    on_next_dialog(lambda box: box.button(QMessageBox.StandardButton.Yes).click(), kind=QMessageBox)
    pane.delete_button.click()
    skill = next(p for p in sorted((store / "skills").iterdir()) if (p / "SKILL.md").is_file())
    move_to_trash(resolve_paths(store), skill)
    assert not task.exists() and not skill.exists()

    # the Tasks page's Trash… is the store's one dialog: both deleted things are listed there
    seen: list = []
    on_next_dialog(lambda dialog: (seen.append(type(dialog)), dialog.reject()))
    trash_button(pane).click()
    assert seen == [TrashDialog]

    # Storage → Deleted Items: the same list; Restore puts both back
    seen = []
    on_next_dialog(_restore_all(seen), kind=TrashDialog)
    window.actions_.actions["trash"].trigger()
    listing, after = seen
    assert len(listing) == 2
    assert any(str(task.resolve()) in row for row in listing) and any(str(skill.resolve()) in row for row in listing)
    assert after == ["Nothing deleted from daycare-gui is kept here."]
    assert snapshot_tree(store) == before  # byte for byte, and the trash keeps nothing
    pane = show_fresh(qtbot, window, "cron")
    listed(qtbot, pane, 6)
    digest = pane.cap.tasks()
    assert [c.where for t in digest if t.id == "daily-digest" for c in t.copies] == ["file", "database row"]


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite-trash") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=1_795_000_000_000)
    return folder


def test_a_skill_deleted_beside_the_pglite_demo_comes_back_through_the_same_dialog(qtbot, window, pglite_demo):
    # Today's Daycare keeps its tasks as versioned rows, which this app does not delete (the Tasks page offers
    # no Delete… there); what it deletes beside the store — a skill — is in the same one list.
    skill = sorted((pglite_demo / "skills").rglob("SKILL.md"))[0].parent
    before = snapshot_tree(skill)
    move_to_trash(resolve_paths(pglite_demo), skill)
    open_and_wait(qtbot, window, pglite_demo, timeout=60000)
    assert window.opened.capability(api.Trash) is not None and window.actions_.actions["trash"].isEnabled()
    pane = show_fresh(qtbot, window, "tasks")  # (the SQLite generation names its groups; this one has one page)
    assert not pane.delete_button.isVisibleTo(pane) and not trash_button(pane).isVisibleTo(pane)
    seen: list = []
    on_next_dialog(_restore_all(seen), kind=TrashDialog)
    window.actions_.actions["trash"].trigger()
    listing, after = seen
    assert len(listing) == 1 and str(skill.resolve()) in listing[0]
    assert after == ["Nothing deleted from daycare-gui is kept here."]
    assert snapshot_tree(skill) == before
