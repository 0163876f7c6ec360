"""The shared Documents page (Linggen's agent files here) edits a document as carefully as the Daycare
editors do: a file left alone stays as it is, edits are never dropped without asking, and a file changed
by another program is never written over unseen."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QMessageBox

from daycare_gui.ui.widgets.plain_text import text_of
from tests.stores.linggen.builder import standard_home
from tests.ui.conftest import open_and_wait

MIXED = b"---\r\nname: ling\r\ndescription: main\r\n---\n\nYou are Ling.\r\nLine two\n"


@pytest.fixture
def home(tmp_path):
    h = standard_home(tmp_path / "home")
    h.agent("coder", "You write code.")
    h.agent("ling").write_bytes(MIXED)
    return h.root


def _page(qtbot, window, home):
    open_and_wait(qtbot, window, home)
    window.show_section("documents")
    pane = window.pane("documents")
    qtbot.waitUntil(lambda: pane.list.records.model.rowCount() >= 2, timeout=5000)
    return pane


def _choose(qtbot, pane, title):
    pane.list.select_key(next(d.id for d in pane.list.records.visible_records() if d.title == title))
    qtbot.waitUntil(lambda: pane.ref is not None and pane.ref.title == title, timeout=5000)


def _answer(monkeypatch, button):
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: (asked.append(a[2]), button)[1])
    return asked


def test_typing_and_undoing_leaves_save_off_and_the_file_alone(qtbot, window, home):
    pane = _page(qtbot, window, home)
    _choose(qtbot, pane, "ling")
    pane.edit_button.click()
    pane.editor.insertPlainText("x")
    assert pane.save_button.isEnabled()
    pane.editor.undo()
    assert not pane.save_button.isEnabled() and not pane.is_dirty()
    assert (home / "agents" / "ling.md").read_bytes() == MIXED


def test_choosing_another_document_with_unsaved_edits_asks_first(qtbot, window, home, monkeypatch):
    pane = _page(qtbot, window, home)
    _choose(qtbot, pane, "ling")
    pane.edit_button.click()
    pane.editor.appendPlainText("More.")
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    pane.list.select_key(next(d.id for d in pane.list.records.visible_records() if d.title == "coder"))
    qtbot.wait(200)
    assert asked and "ling has unsaved changes" in asked[0]
    assert pane.ref.title == "ling" and pane.list.current().title == "ling" and "More." in text_of(pane.editor)
    assert window.pane("documents").unsaved_work() == "ling"
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    window.close()  # the window asks too, and stays open
    assert asked and "ling" in asked[0] and window.isVisible()
    _answer(monkeypatch, QMessageBox.StandardButton.Discard)
    pane.list.select_key(next(d.id for d in pane.list.records.visible_records() if d.title == "coder"))
    qtbot.waitUntil(lambda: pane.ref.title == "coder", timeout=5000)
    assert (home / "agents" / "ling.md").read_bytes() == MIXED


def test_a_file_changed_meanwhile_offers_reload_or_overwrite_and_revert_reads_the_disk(qtbot, window, home,
                                                                                     monkeypatch):
    from daycare_gui.ui.editors import conflict

    path = home / "agents" / "ling.md"
    pane = _page(qtbot, window, home)
    _choose(qtbot, pane, "ling")
    pane.edit_button.click()
    pane.editor.appendPlainText("Mine.")
    theirs = MIXED + b"Theirs.\n"
    tmp = path.with_name("ling.md.other")
    tmp.write_bytes(theirs)
    os.replace(tmp, path)  # another program's atomic save
    choices = iter(["cancel", "overwrite"])
    shown = []

    def exec_(dialog):
        shown.append(dialog.diff_view.toPlainText())
        dialog.choice = next(choices)
        return 0

    monkeypatch.setattr(conflict.ConflictDialog, "exec", exec_)
    pane.save_button.click()
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=5000)
    assert "+Mine." in shown[0] and "-Theirs." in shown[0]
    assert path.read_bytes() == theirs and pane.is_dirty()  # cancel: nothing written, the edits kept
    pane.save_button.click()
    qtbot.waitUntil(lambda: len(shown) == 2 and not pane.is_dirty(), timeout=5000)
    assert path.read_bytes() == MIXED + b"\nMine."  # written over the version shown in the dialog
    # Revert shows what is on disk now, not what was loaded before
    pane.edit_button.click()
    pane.editor.appendPlainText("scratch")
    path.write_bytes(b"---\nname: ling\n---\nfresh from disk\n")
    pane.revert_button.click()
    qtbot.waitUntil(lambda: pane.loaded is not None and "fresh from disk" in pane.loaded.text, timeout=5000)
    assert not pane.is_dirty()
