"""The shared edit form writes only what the user changed, and shows what the system would use.

Found by trying each kind's Edit… as a user would: saving without touching a field disabled a
CianaParrot task (no "active" key showed as an unticked box), turned a stored choice into the first one,
and rewrote text (no-break spaces, CRLF) that nobody edited.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QPlainTextEdit

from daycare_gui.stores.api import EditableField
from daycare_gui.ui.panes.generic.edit_form import EditDialog

ACTIVE = EditableField("active", "Active", "bool", default=True)
STATUS = EditableField("status", "Status", "choice", ("pending", "done"))
PROMPT = EditableField("prompt", "Prompt", "markdown")


def _editor(dialog, kind):
    return dialog.findChildren(kind)[0]


def test_a_missing_value_shows_the_default_and_an_untouched_form_writes_nothing(qtbot):
    dialog = EditDialog("Edit", (ACTIVE, STATUS, PROMPT),
                        {"active": None, "status": "Pending", "prompt": "Hello\u00a0world\r\nBye\r\n"})
    qtbot.addWidget(dialog)
    assert _editor(dialog, QCheckBox).isChecked()  # a task without "active" runs: ticked, as listed
    assert _editor(dialog, QComboBox).currentText() == "Pending"  # as stored, not the first choice
    assert dialog.changes() == {}


def test_a_changed_field_is_written_and_only_that_one(qtbot):
    dialog = EditDialog("Edit", (ACTIVE, STATUS, PROMPT),
                        {"active": None, "status": "Pending", "prompt": "Hello\u00a0world\r\nBye\r\n"})
    qtbot.addWidget(dialog)
    _editor(dialog, QCheckBox).setChecked(False)
    assert dialog.changes() == {"active": False}
    _editor(dialog, QComboBox).setCurrentText("done")
    assert dialog.changes() == {"active": False, "status": "done"}


def test_edited_text_keeps_its_no_break_spaces_and_crlf_line_ends(qtbot):
    dialog = EditDialog("Edit", (PROMPT,), {"prompt": "Hello\u00a0world\r\nBye\r\n"})
    qtbot.addWidget(dialog)
    editor = _editor(dialog, QPlainTextEdit)
    editor.setPlainText(editor.toPlainText().replace("Bye", "Good bye").replace(" ", "\u00a0"))
    assert dialog.changes() == {"prompt": "Hello\u00a0world\r\nGood\u00a0bye\r\n"}


def test_lf_text_stays_lf(qtbot):
    dialog = EditDialog("Edit", (PROMPT,), {"prompt": "one\ntwo"})
    qtbot.addWidget(dialog)
    _editor(dialog, QPlainTextEdit).setPlainText("one\nthree")
    assert dialog.changes() == {"prompt": "one\nthree"}


def test_a_stored_value_the_checkbox_cannot_hold_is_kept_unless_changed(qtbot):
    # AgentStack's enabled may hold 2 (a damaged row): ticked, and not rewritten as 1 by a Save.
    dialog = EditDialog("Edit", (EditableField("enabled", "Enabled", "bool", default=True),), {"enabled": 2})
    qtbot.addWidget(dialog)
    assert dialog.changes() == {}


def test_editing_only_a_cianaparrot_tasks_prompt_leaves_it_active(qtbot, window, tmp_path, monkeypatch):
    """Through the real Tasks page: the task has no "active" key (the bot runs it); the user changes the
    prompt and saves. Only the prompt changes in the file."""
    import json

    from PySide6.QtWidgets import QPlainTextEdit

    from daycare_gui.ui.panes.generic import task_writes
    from tests.stores.cianaparrot.builder import make_deployment
    from tests.ui.conftest import open_and_wait

    root = make_deployment(tmp_path / "cp")
    path = root / "data" / "scheduled_tasks.json"
    path.write_text(json.dumps([{"id": "t1", "prompt": "Hello", "type": "interval", "value": 60,
                                 "channel": "telegram", "chat_id": "1"}], indent=2))
    open_and_wait(qtbot, window, root)
    section = next(s for s in window._sections if "task" in s)
    window.show_section(section)
    pane = window.panes[section]
    qtbot.waitUntil(lambda: pane.list.select_key("t1") and pane.list.current() is not None, timeout=5000)

    def user_types_a_prompt(dialog) -> bool:
        dialog.findChildren(QPlainTextEdit)[0].setPlainText("Hello there")
        return True

    monkeypatch.setattr(task_writes.EditDialog, "exec", user_types_a_prompt)
    before = path.read_text()
    pane.edit()
    qtbot.waitUntil(lambda: path.read_text() != before, timeout=5000)
    assert json.loads(path.read_text()) == [{"id": "t1", "prompt": "Hello there", "type": "interval", "value": 60,
                                             "channel": "telegram", "chat_id": "1"}]


def test_a_cianaparrot_tasks_nan_value_shows_as_the_file_spells_it_and_is_kept(qtbot, window, tmp_path,
                                                                               monkeypatch):
    """Through the real Tasks page: an interval task whose value is NaN (the bot's Python json reads and
    writes it). The form showed Python's "nan"; it shows "NaN", and changing only the prompt leaves the
    value's bytes as they were."""
    from PySide6.QtWidgets import QLineEdit

    from daycare_gui.ui.panes.generic import task_writes
    from tests.stores.cianaparrot.builder import make_deployment
    from tests.ui.conftest import open_and_wait

    root = make_deployment(tmp_path / "cp")
    path = root / "data" / "scheduled_tasks.json"
    text = ('[{"id": "t1", "prompt": "Hello", "type": "interval", "value": NaN, "model_tier": Infinity, '
            '"channel": "telegram", "chat_id": "1"}]')
    path.write_text(text)
    open_and_wait(qtbot, window, root)
    section = next(s for s in window._sections if "task" in s)
    window.show_section(section)
    pane = window.panes[section]
    qtbot.waitUntil(lambda: pane.list.select_key("t1") and pane.list.current() is not None, timeout=5000)

    shown = []
    monkeypatch.setattr(task_writes.EditDialog, "exec", lambda dialog: shown.append(dialog) or True)
    pane.edit()  # Save, nothing changed
    assert [e.text() for e in shown[0].findChildren(QLineEdit)] == ["NaN", "Infinity"]  # Schedule, Model tier
    assert shown[0].changes() == {}
    qtbot.wait(200)
    assert path.read_text() == text

    def user_types_a_prompt(dialog) -> bool:
        dialog.findChildren(QPlainTextEdit)[0].setPlainText("Hello there")
        return True

    monkeypatch.setattr(task_writes.EditDialog, "exec", user_types_a_prompt)
    pane.edit()
    qtbot.waitUntil(lambda: path.read_text() != text, timeout=5000)
    assert path.read_text() == text.replace('"Hello"', '"Hello there"')


# --- each line of a multi-line text keeps its own ending (QA) ---------------------------------------------

MIXED = "one\r\ntwo\nold mac\rline\u2028sep\r\nlast"


def test_an_edited_text_keeps_every_other_lines_own_ending(qtbot):
    """QA: a text mixing CRLF and LF (and holding a lone CR or U+2028) was written back with line feeds
    only when one of its lines was edited."""
    dialog = EditDialog("Edit", (PROMPT,), {"prompt": MIXED})
    qtbot.addWidget(dialog)
    editor = _editor(dialog, QPlainTextEdit)
    assert editor.toPlainText() == "one\ntwo\nold mac\nline\nsep\nlast"
    assert dialog.changes() == {}
    editor.setPlainText(editor.toPlainText().replace("two", "2"))
    assert dialog.changes() == {"prompt": MIXED.replace("two", "2")}
    editor.setPlainText(editor.toPlainText() + "\nadded")  # a new line takes the text's most common ending
    assert dialog.changes() == {"prompt": MIXED.replace("two", "2") + "\r\nadded"}


def test_editing_one_line_of_an_agentstack_memory_keeps_the_others_endings(qtbot, window, tmp_path, monkeypatch):
    """Through the real memory page: Save with nothing changed writes nothing; editing one line of the
    entry's content stores the other lines exactly as they were."""
    import sqlite3

    from daycare_gui.ui.panes.generic import collection
    from tests.stores.agentstack.builder import Builder
    from tests.ui.conftest import open_and_wait

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    mid = b.memory("mixed", MIXED)
    path = b.close()

    def stored():
        conn = sqlite3.connect(path)
        try:
            return conn.execute("SELECT content, (SELECT count(*) FROM memory_versions) FROM memory "
                                "WHERE id = ?", (mid,)).fetchone()
        finally:
            conn.close()

    open_and_wait(qtbot, window, path)
    qtbot.waitUntil(lambda: "collection:memory" in window._sections, timeout=10000)
    window.show_section("collection:memory")
    pane = window.panes["collection:memory"]
    qtbot.waitUntil(lambda: pane.loaded > 0 and mid in pane._items, timeout=5000)
    pane.open_item(mid)
    assert pane.current_row().key == mid

    shown = []
    monkeypatch.setattr(collection.EditDialog, "exec", lambda dialog: shown.append(dialog) or True)
    pane._edit()  # Save, nothing changed
    assert shown and shown[0].changes() == {}
    qtbot.wait(200)
    assert stored() == (MIXED, 0)

    def user_edits_one_line(dialog) -> bool:
        editor = dialog.findChildren(QPlainTextEdit)[0]
        editor.setPlainText(editor.toPlainText().replace("two", "2"))
        return True

    monkeypatch.setattr(collection.EditDialog, "exec", user_edits_one_line)
    pane._edit()
    qtbot.waitUntil(lambda: stored()[1] == 1, timeout=5000)
    assert stored() == (MIXED.replace("two", "2"), 1)
