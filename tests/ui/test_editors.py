"""The editors, driven like a user would, each on a fresh copy of the demo store."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from daycare_gui.stores.common.edit.atomic import save_atomic, sha256_of
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.edit.forms import document_kind, form_for_path
from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.ui.editors import DocumentEditor
from daycare_gui.ui.editors.conflict import ConflictDialog


@pytest.fixture
def root(tmp_path):
    dest = tmp_path / "daycare"
    write_demo(dest)
    return dest


def _editor(qtbot, cls, path, **kw):
    """The editor with Daycare's form for the file: the one an opened store gives (``store=``), or, for a
    file on its own, the form Daycare's Documents would choose (the door itself: test_editor_door.py)."""
    if "store" not in kw:
        kw.setdefault("form", form_for_path(path))
    editor = cls(path, **kw)
    qtbot.addWidget(editor)
    return editor


def _outside_replace(path, data: bytes) -> None:
    """What another program's atomic save does: write a temp file and rename it over the original."""
    tmp = path.with_name(path.name + ".other")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def test_kinds_from_paths(root):
    assert document_kind(root / "cron/daily-digest/TASK.md") == "cron"
    assert document_kind(root / "heartbeat/check-inbox.md") == "heartbeat"
    assert document_kind(root / "workspace/apps/deploy-check/APP.md") == "app"
    assert document_kind(root / "workspace/apps/deploy-check/PERMISSIONS.md") == "permissions"
    assert document_kind(root / "skills/weekly-review/SKILL.md") == "skill"
    assert document_kind(root / "plugins/memory/people.md") == "memory"
    assert document_kind(root / "cron/daily-digest/MEMORY.md") == "markdown"


def test_cron_form_edit_saves_only_that_line_and_keeps_the_alias(qtbot, root):
    path = root / "cron" / "daily-digest" / "TASK.md"
    path.write_bytes(path.read_bytes().replace(b'schedule: "0 7 * * *"', b'cron: "0 7 * * *"'))
    original = path.read_bytes()
    editor = _editor(qtbot, DocumentEditor, path)
    schedule = editor.widgets["schedule"]
    assert schedule.text() == "0 7 * * *"
    assert schedule.runs.text().startswith("Next runs:") and len(schedule.runs.text().splitlines()) == 6
    assert "07:00" in schedule.words.text()
    qtbot.keyClicks(schedule.edit, "")
    schedule.edit.selectAll()
    qtbot.keyClicks(schedule.edit, "30 6 * * 1-5")
    assert editor.title().endswith("*")
    assert "cron: \"30 6 * * 1-5\"" in editor.raw.toPlainText()
    assert editor.save()
    saved = path.read_bytes()
    assert saved == original.replace(b'cron: "0 7 * * *"', b'cron: "30 6 * * 1-5"')
    assert not editor.title().endswith("*")


def test_disabled_cron_task_form_lists_no_next_runs(qtbot, root):
    """Issue 18 #9 in the editors: the form of a disabled task says so instead of listing runs."""
    path = root / "cron" / "daily-digest" / "TASK.md"
    editor = _editor(qtbot, DocumentEditor, path)
    schedule = editor.widgets["schedule"]
    assert schedule.runs.text().startswith("Next runs:")
    editor.widgets["enabled"].click()  # untick Enabled
    assert b"enabled: false" in editor.current_bytes
    assert "Disabled" in schedule.runs.text() and "Next runs" not in schedule.runs.text()
    assert "07:00" in schedule.words.text()  # the schedule itself is still explained
    editor.undo_stack.undo()
    assert schedule.runs.text().startswith("Next runs:")
    # (a row's form: tests/ui/test_shared_task_page.py, the schedule field of a disabled task)


def test_invalid_schedule_is_shown_and_not_written(qtbot, root):
    path = root / "cron" / "daily-digest" / "TASK.md"
    editor = _editor(qtbot, DocumentEditor, path)
    schedule = editor.widgets["schedule"]
    schedule.edit.selectAll()
    qtbot.keyClicks(schedule.edit, "0 7 * *")
    assert "cannot run" in schedule.words.text()
    assert editor.errors["schedule"].isVisibleTo(editor)
    assert schedule.runs.text() == ""
    assert not editor.is_dirty()


def test_checkbox_body_and_undo_redo(qtbot, root):
    path = root / "cron" / "daily-digest" / "TASK.md"
    original = path.read_bytes()
    editor = _editor(qtbot, DocumentEditor, path)
    editor.widgets["enabled"].click()
    assert b"enabled: false" in editor.current_bytes
    qtbot.keyClicks(editor.widgets["name"], " plus")  # one merged command for the typing
    assert b"name: Daily digest plus\n" in editor.current_bytes
    assert editor.undo_stack.count() == 2
    editor.undo_stack.undo()
    assert editor.widgets["name"].text() == "Daily digest"
    assert "name: Daily digest\n" in editor.raw.toPlainText()
    editor.undo_stack.undo()
    assert editor.widgets["enabled"].isChecked() and editor.current_bytes == original
    assert not editor.is_dirty()
    editor.undo_stack.redo()
    assert not editor.widgets["enabled"].isChecked() and "enabled: false" in editor.raw.toPlainText()
    editor.body_edit.setPlainText("New body.\n")
    assert editor.current_bytes.endswith(b"---\nNew body.\n")
    assert "New body." in editor.preview.toPlainText()


def test_raw_edit_reparses_the_form(qtbot, root):
    path = root / "cron" / "daily-digest" / "TASK.md"
    editor = _editor(qtbot, DocumentEditor, path)
    editor.raw.setPlainText(editor.raw.toPlainText().replace("name: Daily digest", "name: From raw"))
    assert editor.widgets["name"].text() == "From raw"
    assert editor.save()
    assert b"name: From raw\n" in path.read_bytes()


def test_unchanged_save_is_byte_identical(qtbot, root):
    for relative in ("cron/daily-digest/TASK.md", "plugins/memory/people.md", "workspace/apps/deploy-check/APP.md"):
        path = root / relative
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))  # BOM + CRLF
        original = path.read_bytes()
        editor = _editor(qtbot, DocumentEditor, path)
        assert not editor.is_dirty()
        assert editor.save()
        assert editor.current_bytes == original and path.read_bytes() == original
    permissions = root / "workspace/apps/deploy-check/PERMISSIONS.md"
    original = permissions.read_bytes()
    editor = _editor(qtbot, DocumentEditor, permissions)
    assert editor.save() and permissions.read_bytes() == original


def test_no_break_spaces_in_a_document_survive_an_edit_of_its_form(qtbot, root):
    """Qt's plain text turns no-break spaces into spaces: read that way, a file holding one looked
    changed when opened, and a save rewrote it."""
    path = root / "heartbeat" / "check-inbox.md"
    path.write_bytes(path.read_bytes() + "Prix\u00a0: 12\u00a0€\n".encode())
    original = path.read_bytes()
    editor = _editor(qtbot, DocumentEditor, path)
    assert not editor.is_dirty()
    editor.widgets["title"].selectAll()
    qtbot.keyClicks(editor.widgets["title"], "Inbox")
    editor.body_edit.appendPlainText("More.")  # the body itself edited: read back from the editor
    assert editor.save()
    assert path.read_bytes() == original.replace(b"title: Check inbox\n", b"title: Inbox\n") + b"\nMore."


def test_crlf_file_edit_keeps_crlf(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    original = path.read_bytes()
    editor = _editor(qtbot, DocumentEditor, path)
    editor.widgets["title"].selectAll()
    qtbot.keyClicks(editor.widgets["title"], "Inbox")
    assert editor.save()
    assert path.read_bytes() == original.replace(b"title: Check inbox\r\n", b"title: Inbox\r\n")
    editor.raw.setPlainText(editor.raw.toPlainText() + "More.\n")
    assert editor.current_bytes.endswith(b"Alex.\r\nMore.\r\n")


def test_conflict_dialog_refuses_until_overwrite(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    editor._watcher.blockSignals(True)  # this test is about the save check, not the watcher
    qtbot.keyClicks(editor.widgets["title"], "!")
    theirs = path.read_bytes().replace(b"Look at", b"Glance at")
    _outside_replace(path, theirs)
    seen = {}

    def answer(button_name):
        def click():
            dialog = QApplication.activeModalWidget()
            assert isinstance(dialog, ConflictDialog)
            seen["buttons"] = [b.text().replace("&", "") for b in (dialog.reload_button, dialog.diff_button,
                                                                   dialog.overwrite_button)]
            dialog.diff_button.click()
            seen["diff"] = dialog.diff_view.toPlainText()
            getattr(dialog, button_name).click()
        QTimer.singleShot(0, click)

    answer("cancel_button")
    assert editor.save() is False
    assert seen["buttons"] == ["Reload", "Show diff", "Overwrite"]
    assert "-Glance at" in seen["diff"] and "+title: Check inbox!" in seen["diff"]
    assert path.read_bytes() == theirs and editor.is_dirty()

    answer("overwrite_button")
    assert editor.save() is True
    assert b"title: Check inbox!" in path.read_bytes() and b"Look at" in path.read_bytes()
    assert not editor.is_dirty()


@pytest.mark.parametrize("tab_to_overwrite", [False, True])
def test_enter_in_the_conflict_dialog_never_overwrites(qtbot, root, tab_to_overwrite):
    """Issue 18 #3: edit, another program saves, Save, Enter -> their bytes stay on disk."""
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    editor._watcher.blockSignals(True)
    qtbot.keyClicks(editor.widgets["title"], "!")
    theirs = path.read_bytes().replace(b"Look at", b"Glance at")
    _outside_replace(path, theirs)
    seen = {}

    def press_enter():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ConflictDialog)
        seen["focus"] = dialog.focusWidget()
        seen["overwrite_default"] = dialog.overwrite_button.isDefault() or dialog.overwrite_button.autoDefault()
        if tab_to_overwrite:  # even with the focus moved onto Overwrite, Enter keeps the other version
            dialog.overwrite_button.setFocus()
        qtbot.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_Return)
        if dialog.isVisible():  # Enter did nothing at all: still safe, close it like Escape
            seen["still_open"] = True
            dialog.reject()

    QTimer.singleShot(0, press_enter)
    assert editor.save() is False
    assert path.read_bytes() == theirs
    assert editor.is_dirty()  # the user's edit is kept too
    assert seen["focus"] is not None and "Cancel" in seen["focus"].text()
    assert seen["overwrite_default"] is False and "still_open" not in seen
    # The mnemonic still reaches Overwrite for someone who means it.
    assert "&O" in ConflictDialog(path, theirs, b"x").overwrite_button.text().replace("&&", "")


def test_conflict_reload_takes_the_disk_version(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    editor._watcher.blockSignals(True)
    qtbot.keyClicks(editor.widgets["title"], "!")
    theirs = path.read_bytes().replace(b"Check inbox", b"Their title")
    _outside_replace(path, theirs)
    editor.ask_conflict = lambda exc: "reload"
    assert editor.save() is False
    assert editor.widgets["title"].text() == "Their title" and not editor.is_dirty()
    assert path.read_bytes() == theirs


def test_broken_frontmatter_opens_in_raw_with_the_line_and_saves_raw(qtbot, root):
    path = root / "skills" / "weekly-review" / "SKILL.md"
    broken = b"---\nname: Weekly review\ndescription: a: b\nsandbox: false\n---\nBody stays.\n"
    path.write_bytes(broken)
    editor = _editor(qtbot, DocumentEditor, path)
    assert editor.tabs.currentIndex() == 1
    assert not editor.form.isEnabled()
    assert "line 3" in editor.problem.text() and "Raw text" in editor.problem.text()
    assert editor.raw.toPlainText() == broken.decode()
    assert editor.raw.textCursor().blockNumber() == 2
    assert editor.save() and path.read_bytes() == broken  # nothing lost
    editor.raw.setPlainText(broken.decode().replace("a: b", "fixed"))
    assert editor.form.isEnabled() and editor.widgets["description"].text() == "fixed"
    assert editor.save()
    assert path.read_bytes() == broken.replace(b"a: b", b"fixed")


def test_watcher_reloads_a_clean_editor_after_an_atomic_replace(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    for title in ("Outside one", "Outside two"):  # twice: the watch must survive the replaced inode
        _outside_replace(path, path.read_bytes().replace(b"title: ", b"title: X").replace(b"X", b"", 1).replace(
            editor.widgets["title"].text().encode(), title.encode()))
        qtbot.waitUntil(lambda t=title: editor.widgets["title"].text() == t, timeout=5000)
        assert not editor.is_dirty()


def test_watcher_warns_a_dirty_editor(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    qtbot.keyClicks(editor.widgets["title"], "!")
    _outside_replace(path, path.read_bytes().replace(b"Check inbox", b"Other"))
    qtbot.waitUntil(lambda: editor.disk_banner.isVisibleTo(editor), timeout=5000)
    assert "changed on disk" in editor.disk_label.text()
    assert editor.widgets["title"].text() == "Check inbox!"
    editor.reload_button.click()
    assert editor.widgets["title"].text() == "Other" and not editor.disk_banner.isVisibleTo(editor)


def test_own_save_does_not_trigger_a_reload_banner(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    qtbot.keyClicks(editor.widgets["title"], "!")
    assert editor.save()
    editor.check_disk()  # what the file watcher runs once the save's own change reaches it
    assert not editor.disk_banner.isVisibleTo(editor) and editor.status.text().startswith("Saved")


def test_maybe_close_prompts_for_unsaved_work(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    assert editor.maybe_close()
    qtbot.keyClicks(editor.widgets["title"], "!")
    editor.ask_unsaved = lambda: "cancel"
    assert not editor.maybe_close()
    editor.ask_unsaved = lambda: "save"
    assert editor.maybe_close() and b"Check inbox!" in path.read_bytes()
    qtbot.keyClicks(editor.widgets["title"], "?")
    editor.ask_unsaved = lambda: "discard"
    assert editor.maybe_close() and b"Check inbox!?" not in path.read_bytes()


def test_revert_is_undoable(qtbot, root):
    path = root / "heartbeat" / "check-inbox.md"
    editor = _editor(qtbot, DocumentEditor, path)
    qtbot.keyClicks(editor.widgets["title"], "!")
    editor.revert_button.click()
    assert editor.widgets["title"].text() == "Check inbox" and not editor.is_dirty()
    editor.undo_stack.undo()
    assert editor.widgets["title"].text() == "Check inbox!"


def test_app_and_skill_forms(qtbot, root):
    app = root / "workspace/apps/deploy-check/APP.md"
    original = app.read_bytes()
    editor = _editor(qtbot, DocumentEditor, app)
    assert editor.widgets["model"].text() == "claude-sonnet-4-5"
    editor.widgets["model"].selectAll()
    qtbot.keyClicks(editor.widgets["model"], "claude-opus-4")
    editor.body_edit.setPlainText(editor.body_edit.toPlainText().replace("safety checks", "careful checks"))
    assert editor.save()
    assert app.read_bytes() == original.replace(b"claude-sonnet-4-5", b"claude-opus-4").replace(
        b"safety checks", b"careful checks")

    skill = root / "skills/weekly-review/SKILL.md"
    editor = _editor(qtbot, DocumentEditor, skill)
    editor.widgets["sandbox"].click()
    rules = editor.widgets["permissions"]
    qtbot.keyClicks(rules.input, "@read:relative")
    assert not rules.add_button.isEnabled() and "absolute" in rules.message.text()
    rules.input.clear()
    qtbot.keyClicks(rules.input, "@network")
    rules.add_button.click()
    assert editor.save()
    assert skill.read_bytes() == (b"---\nname: Weekly review\ndescription: Reflect on the week and plan the next\n"
                                  b"sandbox: true\npermissions:\n  - \"@network\"\n---\n"
                                  b"Ask three questions: what went well, what slipped, what matters next week.\n")


def test_memory_records_add_rename_edit_remove(qtbot, root):
    path = root / "plugins/memory/people.md"
    original = path.read_bytes()
    editor = _editor(qtbot, DocumentEditor, path)
    assert [editor.records.item(i).text() for i in range(editor.records.count())] == ["sam", "mia", "jordan"]
    editor.records.setCurrentRow(1)
    assert editor.record_text.toPlainText().startswith("Alex's daughter")
    editor.record_text.setPlainText("Alex's daughter, 12.")
    editor.rename_record(2, "jordan b")
    editor.add_record("kim", "Neighbour.")
    editor.remove_record(0)
    assert editor.save()
    expected = (original.replace(b"Alex's daughter, 11. Homework help: explain, don't solve.", b"Alex's daughter, 12.")
                .replace(b"## jordan", b"## jordan b")
                .replace(b"## sam\nAlex's flatmate; vegetarian; shares the shopping list.\n\n", b"")
                + b"\n## kim\nNeighbour.\n")
    assert path.read_bytes() == expected


def test_permissions_rules_add_remove_reorder(qtbot, root):
    path = root / "workspace/apps/deploy-check/PERMISSIONS.md"
    original = path.read_text()
    editor = _editor(qtbot, DocumentEditor, path)
    allow = editor.widgets["allow"]
    assert allow.rules()[2] == "@network"
    allow.list.setCurrentRow(2)
    allow.up_button.click()
    assert allow.rules()[1] == "@network" and allow.list.currentRow() == 1
    qtbot.keyClicks(allow.input, "@events")
    qtbot.keyClick(allow.input, "\r")
    editor.widgets["deny"].list.setCurrentRow(0)
    editor.widgets["deny"].remove_button.click()
    qtbot.keyClicks(allow.input, "@bogus:thing")
    assert "not a tag Daycare is known" in allow.message.text()
    allow.input.clear()
    assert editor.save()
    lines = original.splitlines(keepends=True)
    allow_at = lines.index("### Allow\n")
    blog_read, blog_write, network = lines[allow_at + 1 : allow_at + 4]
    expected = original.replace(blog_read + blog_write + network, blog_read + network + blog_write + "- @events\n")
    expected = expected.replace("- @write:/\n", "")
    assert path.read_text() == expected
    editor.undo_stack.undo()
    assert editor.widgets["deny"].rules()[0] == "@write:/"


def test_permissions_intent_edit(qtbot, root):
    path = root / "workspace/apps/deploy-check/PERMISSIONS.md"
    original = path.read_text()
    editor = _editor(qtbot, DocumentEditor, path)
    editor.widgets["intent"].setPlainText("Build the blog.")
    assert editor.save()
    old_intent = "Needs to read the blog repository and run the build; network only to fetch npm packages."
    assert path.read_text() == original.replace(old_intent, "Build the blog.")
    editor.widgets["intent"].setPlainText("")
    assert "cannot be empty" in editor.errors["intent"].text() and not editor.is_dirty()


def test_header_says_which_copy_daycare_reads(qtbot, root):
    from daycare_gui.stores.registry import open_store
    from daycare_gui.ui.editors.sources import source_note_for_file

    with open_store(root) as store:  # the note comes from the store's Tasks: the copies and which is read
        note = source_note_for_file(store, root / "cron/daily-digest/TASK.md")
    editor = _editor(qtbot, DocumentEditor, root / "cron/daily-digest/TASK.md", source_note=note)
    assert "edits the file" in editor.header.text()
    assert "database row" in editor.header.text()


def test_save_atomic_from_outside_keeps_hash_semantics(root):
    # The editors rely on save_atomic refusing a stale hash; a sanity check with the demo file.
    path = root / "heartbeat" / "check-inbox.md"
    data = path.read_bytes()
    save_atomic(path, data + b"x", expected_sha256=sha256_of(data))
    assert path.read_bytes() == data + b"x"


# --- the browse pages offer the editors ---------------------------------------------------------------


def _pane_at(qtbot, window, root, section, rows):
    from tests.ui.conftest import open_and_wait

    open_and_wait(qtbot, window, root)
    window.show_section(section)
    pane = window.pane(section)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == rows, timeout=5000)
    return pane


def _select(pane, text):
    from tests.ui.test_people_panes import texts

    pane.table.selectRow(texts(pane.records.proxy, 0).index(text))
    return pane.current_record()


def test_cron_page_opens_file_and_row_editors(qtbot, window, root):
    from daycare_gui.ui.panes.generic.edit_form import EditDialog
    from tests.ui.test_new_delete_restore import on_next_dialog

    pane = _pane_at(qtbot, window, root, "cron", 6)
    _select(pane, "Daily digest")
    assert pane.file_button.isEnabled() and pane.edit_button.isEnabled()
    editor_window = pane.edit_file()
    qtbot.addWidget(editor_window)
    assert isinstance(editor_window.editor, DocumentEditor)
    assert editor_window.editor.path == root / "cron/daily-digest/TASK.md"
    assert "database row" in editor_window.editor.header.text()  # Daycare reads the row, not this file
    assert pane.edit_file() is editor_window  # the same file opens once
    seen = []
    on_next_dialog(lambda d: (seen.append(d.windowTitle()), d.reject()), kind=EditDialog)
    pane.edit()
    assert seen == ["Edit database row: Daily digest"]
    _select(pane, "Stand-up notes")  # a row without a file
    assert not pane.file_button.isEnabled() and pane.edit_button.isEnabled()
    _select(pane, "Plant photo diary")  # a file without a row: nothing to edit as a row, Delete… moves it
    assert pane.file_button.isEnabled() and not pane.edit_button.isEnabled() and pane.delete_button.isEnabled()
    editor_window.close()


def test_cron_page_new_and_delete_to_trash(qtbot, window, root):
    from daycare_gui.stores.common.edit.trash import list_trash, restore

    pane = _pane_at(qtbot, window, root, "cron", 6)
    created = pane.cap.create("cron", {"name": "Water plants", "schedule": "0 8 * * *"})
    assert [c.ref for c in created.copies] == [str(root / "cron/water-plants/TASK.md")]
    assert (root / "cron/water-plants/TASK.md").is_file()
    _select(pane, "Daily digest")
    asked = []
    token = pane.delete(confirm=lambda task: asked.append(task.id) or True)
    assert asked == ["daily-digest"] and token is not None and not (root / "cron/daily-digest").exists()
    assert [e.original for e in list_trash(resolve_paths(root))] == [root / "cron/daily-digest"]
    restore(list_trash(resolve_paths(root))[0])
    assert (root / "cron/daily-digest/TASK.md").is_file()


def test_apps_page_opens_the_permissions_editor(qtbot, window, root):
    from tests.ui.conftest import open_and_wait

    open_and_wait(qtbot, window, root)
    window.show_section("apps")
    pane = window.pane("apps")
    view = pane.views["apps"]
    qtbot.waitUntil(lambda: view.model.rowCount() == 3 and view.model.record(0) is not None, timeout=5000)
    view.table.selectRow(0)
    link = next(lk for lk in view.current_row().links if lk.label == "Edit PERMISSIONS.md")
    editor_window = pane.follow(link)
    qtbot.addWidget(editor_window)
    assert editor_window.editor.kind_label == "App permissions (PERMISSIONS.md)"  # the form Daycare chose
    editor_window.close()


def test_a_save_in_the_file_editor_shows_on_the_page_without_a_changed_on_disk_banner(qtbot, window, root):
    """The page read the store again after a row edit but not after a file edit: it showed the old name,
    under a banner saying the file had changed on disk and asking for a Refresh."""
    from tests.ui.test_people_panes import texts

    pane = _pane_at(qtbot, window, root, "cron", 6)
    _select(pane, "Plant photo diary")
    editor_window = pane.edit_file()
    qtbot.addWidget(editor_window)
    editor = editor_window.editor
    editor.widgets["name"].selectAll()
    qtbot.keyClicks(editor.widgets["name"], "Plant diary, edited")
    assert editor.save()
    qtbot.waitUntil(lambda: "cron" in window.panes and "Plant diary, edited" in texts(
        window.pane("cron").records.proxy, 0), timeout=10000)
    qtbot.wait(1500)  # longer than the watcher's debounce: our own write must not raise the banner
    assert not window.banner.isVisible()
    editor_window.close()


# --- mixed line endings survive the form's body and the raw text (QA) ------------------------------------

MIXED = b"---\r\nname: x\r\n---\r\nline1\r\nline2\nline3\r\n"


def test_body_edit_in_a_mixed_file_changes_only_the_edited_line(qtbot, tmp_path):
    path = tmp_path / "skills" / "mixed" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(MIXED)
    editor = _editor(qtbot, DocumentEditor, path)
    editor.body_edit.setPlainText(editor.body_edit.toPlainText().replace("line3", "LINE3"))
    assert editor.save()
    assert path.read_bytes() == MIXED.replace(b"line3", b"LINE3")  # line2 keeps its LF


def test_raw_edit_in_a_mixed_file_keeps_the_other_lines_endings_header_included(qtbot, tmp_path):
    path = tmp_path / "skills" / "mixed" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(MIXED)
    editor = _editor(qtbot, DocumentEditor, path)
    editor.raw.setPlainText(editor.raw.toPlainText().replace("line3", "LINE3"))
    assert editor.save()
    assert path.read_bytes() == MIXED.replace(b"line3", b"LINE3")


def test_line_separators_in_a_body_survive_typing_in_it(qtbot, tmp_path):
    data = "---\nname: x\n---\nold mac\rline\n\tsep\u2028after\nlast\n".encode()
    path = tmp_path / "skills" / "seps" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    editor = _editor(qtbot, DocumentEditor, path)
    assert not editor.is_dirty()
    cursor = editor.body_edit.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    editor.body_edit.setTextCursor(cursor)
    editor.body_edit.setFocus()
    qtbot.keyClicks(editor.body_edit, "more")
    assert editor.save()
    assert path.read_bytes() == data + b"more"
    assert editor.body_edit.textCursor().position() == len(editor.body_edit.toPlainText())  # typing was not reset


# --- the permissions intent and memory records keep each line's own ending (QA) ---------------------------

INTENT_MIXED = ("## Source Intent\r\n\r\nRead the blog\r\nand build it\nold mac\rline\u2028sep\r\nlast line\n\r\n"
                "## Rules\r\n\r\n### Allow\r\n- @network\n\r\n### Deny\r\n- @write:/\r\n").encode()


def _type_at_end(qtbot, edit, text: str) -> None:
    cursor = edit.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    edit.setTextCursor(cursor)
    edit.setFocus()
    qtbot.keyClicks(edit, text)


def _unchanged_save_writes_nothing(editor, path, data: bytes) -> None:
    stamp = path.stat().st_mtime_ns
    assert not editor.is_dirty() and not editor.title().endswith("*")
    assert editor.save()
    assert path.read_bytes() == data and path.stat().st_mtime_ns == stamp


def test_permissions_intent_edit_keeps_every_other_lines_ending(qtbot, tmp_path):
    """QA: typing one character into the intent of a file mixing CRLF and LF turned every intent line's
    ending into the file's first one, and its lone CR and U+2028 into that ending too."""
    path = tmp_path / "apps" / "mixed" / "PERMISSIONS.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(INTENT_MIXED)
    editor = _editor(qtbot, DocumentEditor, path)
    assert editor.widgets["intent"].toPlainText() == "Read the blog\nand build it\nold mac\nline\nsep\nlast line"
    _unchanged_save_writes_nothing(editor, path, INTENT_MIXED)
    _type_at_end(qtbot, editor.widgets["intent"], "!")
    assert editor.widgets["intent"].textCursor().position() == len(editor.widgets["intent"].toPlainText())  # typing was not reset
    assert editor.save()
    assert path.read_bytes() == INTENT_MIXED.replace(b"last line", b"last line!")
    editor.widgets["intent"].setPlainText(editor.widgets["intent"].toPlainText().replace("and build it", "and build it daily"))
    assert editor.save()
    assert path.read_bytes() == INTENT_MIXED.replace(b"last line", b"last line!").replace(
        b"and build it", b"and build it daily")


def test_permissions_rule_edits_leave_the_intent_and_the_kept_rules_as_stored(qtbot, tmp_path):
    path = tmp_path / "apps" / "mixed" / "PERMISSIONS.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(INTENT_MIXED)
    editor = _editor(qtbot, DocumentEditor, path)
    editor.widgets["deny"].list.setCurrentRow(0)
    editor.widgets["deny"].remove_button.click()
    assert editor.save()
    assert path.read_bytes() == INTENT_MIXED.replace(b"- @write:/\r\n", b"")
    qtbot.keyClicks(editor.widgets["allow"].input, "@events")  # the rule already listed keeps its LF
    qtbot.keyClick(editor.widgets["allow"].input, "\r")
    editor.widgets["allow"].list.setCurrentRow(1)
    editor.widgets["allow"].up_button.click()
    assert editor.save()
    assert path.read_bytes() == INTENT_MIXED.replace(b"- @write:/\r\n", b"").replace(
        b"- @network\n", b"- @events\r\n- @network\n")


RECORDS_MIXED = ("---\r\nname: Mixed\r\n---\r\n# mixed\r\n\r\n## first\r\n\r\nline one\r\nline two\n"
                 "old mac\rline\u2028sep\r\nlast\n\r\n## second\nother\r\n").encode()


def test_memory_record_edit_keeps_every_other_lines_ending(qtbot, tmp_path):
    """QA: typing into a memory record of a file mixing CRLF and LF turned every line of the record to the
    file's first ending (its lone CR and U+2028 too), dropped the blank line under its heading, and reset
    the text being typed."""
    path = tmp_path / "plugins" / "memory" / "mixed.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(RECORDS_MIXED)
    editor = _editor(qtbot, DocumentEditor, path)
    assert editor.kind_label == "Memory entity" and editor.records.currentRow() == 0
    assert editor.record_text.toPlainText() == "\nline one\nline two\nold mac\nline\nsep\nlast"
    editor.records.setCurrentRow(1)
    editor.records.setCurrentRow(0)
    _unchanged_save_writes_nothing(editor, path, RECORDS_MIXED)
    _type_at_end(qtbot, editor.record_text, "!")
    assert editor.record_text.textCursor().position() == len(editor.record_text.toPlainText())
    assert editor.save()
    assert path.read_bytes() == RECORDS_MIXED.replace(b"last\n", b"last!\n")
    editor.record_text.setPlainText(editor.record_text.toPlainText().replace("line two", "line 2"))
    editor.records.setCurrentRow(1)
    editor.record_text.setPlainText("other, edited")
    assert editor.save()
    assert path.read_bytes() == RECORDS_MIXED.replace(b"last\n", b"last!\n").replace(
        b"line two", b"line 2").replace(b"other\r\n", b"other, edited\r\n")


def test_an_editor_never_saves_through_a_link_out_of_the_store(qtbot, root, tmp_path, monkeypatch):
    from daycare_gui.ui.editors import base

    notes = tmp_path / "notes.md"
    notes.write_bytes(b"---\ntitle: My notes\n---\nPrivate.\n")
    task = root / "cron" / "x" / "TASK.md"
    task.parent.mkdir()
    task.symlink_to(notes)
    told = []
    monkeypatch.setattr(base.QMessageBox, "critical", lambda _parent, title, text: told.append((title, text)))
    from daycare_gui.stores.registry import open_store

    with open_store(root) as store:  # the store names the folders a save stays in
        editor = _editor(qtbot, DocumentEditor, task, store=store)
        asked = []
        editor.confirm_refused = lambda reason: asked.append(reason) or True  # insisting cannot pass it
        editor.raw.setPlainText("---\ntitle: My notes\nenabled: false\n---\nPrivate.\n")
        assert not editor.save()
    assert notes.read_bytes() == b"---\ntitle: My notes\n---\nPrivate.\n"
    assert f"leads to {notes}, outside the store's folders" in asked[0]
    assert f"leads to {notes}, outside the store's folders" in editor.status.text() and told == []
