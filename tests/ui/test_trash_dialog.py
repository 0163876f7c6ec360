"""Storage → Deleted Items: offered by a store that keeps a trash, whatever its kind, and restoring through
the dialog puts the item back; a store without a trash has the action disabled."""

from __future__ import annotations

import shutil

from daycare_gui.stores.api import Trash
from daycare_gui.stores.common.edit.trash import move_to_trash
from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.ui.dialogs.trash import TrashDialog
from tests.ui.conftest import open_and_wait


def test_deleted_items_are_offered_and_restored_from_the_window(qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    skill = next((store / "skills").iterdir())
    move_to_trash(resolve_paths(store), skill)
    open_and_wait(qtbot, window, store)
    assert window.actions_.actions["trash"].isEnabled()
    dialog = TrashDialog(window.opened.capability(Trash), window)
    qtbot.addWidget(dialog)
    assert dialog.list.count() == 1 and str(skill) in dialog.list.item(0).text()
    dialog.restore_selected()
    assert (skill / "SKILL.md").is_file()
    assert "Nothing deleted" in dialog.list.item(0).text() and not dialog.restore_button.isEnabled()


def test_a_store_that_keeps_no_trash_has_deleted_items_disabled(qtbot, window, tmp_path):
    from daycare_gui.stores.demos import write_kind_demo

    root = tmp_path / "cp"
    write_kind_demo("cianaparrot", root, 1_790_000_000_000)
    open_and_wait(qtbot, window, root)
    assert not window.actions_.actions["trash"].isEnabled()
    assert window.actions_.actions["search"].isEnabled() == ("search" in window._sections)
