"""Every file write of the window asks once while Daycare's engine runs on the store (QA: the file editors,
New…, Delete…, Trash restore and Revoke grant wrote without a word; only the row editor asked).

The engine "runs" here because engine.pid names this test process. The question is answered through each
widget's ``confirm_engine_running`` (the file editor's ``confirm_refused``: the store's own refusal; the message
box itself is tested last); the bytes on disk say whether anything was written.
"""

from __future__ import annotations

import os
import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from daycare_gui.stores import api
from daycare_gui.stores.common.edit.trash import list_trash, move_to_trash
from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.ui.dialogs.trash import TrashDialog
from daycare_gui.ui.editors import DocumentEditor
from tests.conftest import snapshot_tree
from tests.ui.test_new_delete_restore import on_next_dialog
from tests.ui.test_people_panes import open_at, texts


@pytest.fixture
def store(tmp_path, demo_store):
    root = tmp_path / "daycare"
    shutil.copytree(demo_store, root)
    return root


@pytest.fixture
def opened(request):
    """Opens a store the way the window does; closed after the test."""
    from daycare_gui.stores.registry import open_store

    def open_at(root):
        found = open_store(root)
        request.addfinalizer(found.close)
        return found

    return open_at


def start_engine(root) -> None:
    (root / "engine.pid").write_text(f"{os.getpid()}\n")


class Answers:
    """Stands in for the question: records each reason and gives the next answer."""

    def __init__(self, *answers: bool) -> None:
        self.answers = list(answers)
        self.asked: list[tuple] = []

    def __call__(self, reason, *rest):
        self.asked.append((reason, *rest))
        return self.answers.pop(0)


def test_file_editor_asks_once_and_saves_only_when_told_to(qtbot, store, opened):
    path = store / "skills" / "weekly-review" / "SKILL.md"
    before = path.read_bytes()
    editor = DocumentEditor(path, store=opened(store))  # the store is asked: its Documents.save refuses
    qtbot.addWidget(editor)
    editor.set_field("description", "Changed while the engine runs")
    editor.confirm_refused = Answers()  # no engine: no question (an answer asked for would fail)
    assert editor.save()
    path.write_bytes(before)
    editor.reload_from_disk()
    start_engine(store)
    editor.set_field("description", "Changed while the engine runs")
    editor.confirm_refused = answers = Answers(False)
    assert editor.save() is False
    assert path.read_bytes() == before and editor.is_dirty()
    assert "engine is running" in editor.status.text()
    (reason,) = answers.asked[0]
    assert reason.startswith(f"Daycare's engine is running (process {os.getpid()} from ")
    assert reason.endswith("it may overwrite or miss this change")
    editor.confirm_refused = answers = Answers(True)
    assert editor.save() is True
    assert b"description: Changed while the engine runs" in path.read_bytes() and len(answers.asked) == 1


def test_file_editor_overwriting_a_conflict_does_not_ask_about_the_engine_twice(qtbot, store, opened):
    path = store / "skills" / "weekly-review" / "SKILL.md"
    editor = DocumentEditor(path, store=opened(store))
    qtbot.addWidget(editor)
    start_engine(store)
    editor.set_field("description", "Mine")
    path.write_bytes(path.read_bytes() + b"\nTheirs\n")
    editor.confirm_refused = answers = Answers(True)
    editor.ask_conflict = lambda exc: "overwrite"
    assert editor.save() is True
    assert len(answers.asked) == 1 and b"description: Mine" in path.read_bytes()


def test_delete_create_and_restore_each_ask_before_writing(qtbot, window, store):
    from daycare_gui.ui.panes.generic.task_dialogs import NewTaskDialog

    pane = open_at(qtbot, window, store, "cron")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 6, timeout=5000)
    start_engine(store)
    before = snapshot_tree(store)

    # the shared tasks page: Delete…, New… and the trash's Restore each ask, and write only when told
    pane.table.selectRow(texts(pane.records.proxy, 0).index("Daily digest"))
    pane.confirm_engine_running = answers = Answers(False)
    assert pane.delete(confirm=lambda task: True) is None
    assert snapshot_tree(store) == before
    assert answers.asked[0][1] == "Delete" and "engine is running" in answers.asked[0][0]
    pane.confirm_engine_running = answers = Answers(False, True)
    pane.confirm_ignored = lambda warning: True  # (the demo reads its tasks from the database)
    made = []

    def new_task_twice(dialog: NewTaskDialog):
        dialog.inputs["name"].setText("Water plants")
        assert dialog.try_create() is False and "engine is running" in dialog.error.text()
        assert snapshot_tree(store) == before
        made.append(dialog.try_create())

    on_next_dialog(new_task_twice, kind=NewTaskDialog)
    assert pane.ask_new("cron") is not None
    assert made == [True] and [a[1] for a in answers.asked] == ["Create", "Create"]
    task_dir = store / "cron" / "water-plants"
    assert (task_dir / "TASK.md").is_file()
    move_to_trash(resolve_paths(store), task_dir)
    restore_dialog = TrashDialog(window.opened.capability(api.Trash), ask=(answers := Answers(False, True)))
    qtbot.addWidget(restore_dialog)
    restore_dialog.restore_selected()
    assert not task_dir.exists() and answers.asked[0][0].startswith("Daycare's engine is running")
    restore_dialog.restore_selected()
    assert (task_dir / "TASK.md").is_file() and len(answers.asked) == 2
    before = snapshot_tree(store)

    # (New… on the shared Skills page asks too: test_document_shelves.py)
    created = store / "skills" / "gardening" / "SKILL.md"
    created.parent.mkdir()
    created.write_text("---\nname: gardening\n---\n")

    # Trash restore: declined, the item stays in the trash
    entry = move_to_trash(resolve_paths(store), created.parent)
    dialog = TrashDialog(window.opened.capability(api.Trash))
    qtbot.addWidget(dialog)
    dialog.confirm_engine_running = answers = Answers(False, True)
    dialog.restore_selected()
    assert not created.exists() and list_trash(resolve_paths(store)) == [entry]
    dialog.restore_selected()
    assert created.is_file() and len(answers.asked) == 2


def test_revoke_grant_asks_before_writing_state_json(qtbot, window, store):
    pane = open_at(qtbot, window, store, "apps")
    view = pane.views["apps"]
    qtbot.waitUntil(lambda: view.model.rowCount() == 3 and all(view.model.record(r) for r in range(3)), timeout=5000)
    view.table.selectRow(texts(view.model, 0).index("deploy-check"))
    qtbot.waitUntil(lambda: bool(view.row_actions()), timeout=5000)
    state = store / "workspace" / "apps" / "deploy-check" / "state.json"
    before = state.read_bytes()
    start_engine(store)
    view.confirm_action = lambda action: True
    view.confirm_engine_running = answers = Answers(False)
    revoke = next(b for b in view.row_actions() if b.objectName() == "action:revoke:@network")
    revoke.click()
    qtbot.waitUntil(lambda: bool(answers.asked), timeout=5000)
    assert state.read_bytes() == before and "engine is running" in answers.asked[0][0]
    assert answers.asked[0][1] == "Revoke"
    view.confirm_engine_running = Answers(True)
    revoke.click()
    qtbot.waitUntil(lambda: b"@network" not in state.read_bytes(), timeout=5000)


def test_the_question_names_the_engine_and_defaults_to_cancel(qtbot, store):
    from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs

    seen = []

    def answer(box: QMessageBox):
        seen.append((box.text(), box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel),
                     [b.text() for b in box.buttons()]))
        box.button(QMessageBox.StandardButton.Cancel).click()

    on_next_dialog(answer, kind=QMessageBox)
    reason = "Daycare's engine is running (process 1 from /x/engine.pid is alive); it may overwrite or miss this change"
    assert ask_write_while_engine_runs(None, reason) is False
    text, cancel_is_default, buttons = seen[0]
    assert text.startswith(reason) and text.endswith("Save anyway?") and cancel_is_default
    assert "Save anyway" in buttons
