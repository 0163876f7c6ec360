"""The shared tasks page on every kind that has tasks: Daycare's cron and heartbeat pages on the SQLite demo
(a task's file and row, which one Daycare reads, the schedule in words, next runs, agent and user names,
Edit row), the PostgreSQL demo (cron and webhooks as groups, Edit…) and CianaParrot (next runs in the
task's timezone)."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from PySide6.QtCore import Qt

from daycare_gui.ui.models.roles import StateRole
from daycare_gui.ui.panes.generic.edit_form import EditDialog
from tests.ui.test_people_panes import open_at, texts

BAD_TASK = """---
taskId: a1b2c3d4e5f6g7h8i9j0k1l2
name: Broken schedule
schedule: "61 * * * *"
---
Say hello.
"""


def column(model, title):
    """A column's index by its title (columns are ordered for reading, and that order may change)."""
    return next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == title)


def select_where(pane, column, text):
    row = texts(pane.records.proxy, column).index(text)
    pane.table.selectRow(row)
    return pane.current_record()


def shown(pane, rows, qtbot, timeout=10000):
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == rows, timeout=timeout)
    return pane


def visible_titles(pane) -> list[str]:
    model = pane.records.proxy
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())
            if not pane.table.isColumnHidden(c)]


# -- Daycare, SQLite generation ------------------------------------------------------------------------
def test_cron_pairs_files_and_rows_and_explains_schedules(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "cron")
    model_tester(pane.records.model, pane.records.proxy)
    shown(pane, 6, qtbot)
    proxy = pane.records.proxy
    stored = dict(zip(texts(proxy, 0), texts(proxy, column(proxy, "Stored as"))))
    assert stored["Daily digest"] == "file + database row"
    assert stored["Stand-up notes"] == "database row"
    assert stored["Plant photo diary"] == "file"
    reads = dict(zip(texts(proxy, 0), texts(proxy, column(proxy, "Daycare reads"))))
    assert reads["Daily digest"] == "database row"
    assert reads["Plant photo diary"] == "nothing (file ignored)"
    users = dict(zip(texts(proxy, 0), texts(proxy, column(proxy, "User"))))
    assert users["Daily digest"] == "Alex Rivera" and users["Plant photo diary"] == "Sam Okafor"  # names, not ids
    assert dict(zip(texts(proxy, 0), texts(proxy, column(proxy, "Agent"))))["Daily digest"] == "Daily digest"
    assert {"Task", "Enabled", "In words", "Schedule", "Next run", "Daycare reads", "Stored as", "Agent",
            "User"} <= set(visible_titles(pane)) and "Type" not in visible_titles(pane)  # one group per page

    select_where(pane, 0, "Daily digest")
    shown_text = pane.shown_text()
    assert "At 07:00 AM" in shown_text and "Next runs" in shown_text
    assert pane.view.toHtml().count("<li") == 5
    assert "Daycare reads: database row" in pane.where_label.text().replace("<b>", "").replace("</b>", "")
    assert "Summarise unread email" in shown_text
    fields = dict(window.detail.item.fields)
    assert fields["Legacy keys in file"] == "agent_id ← agentId, user_id ← userId"
    assert len(fields["Next runs"].splitlines()) == 5
    assert fields["User"].startswith("Alex Rivera (")

    select_where(pane, 0, "Weekly review")
    fields = dict(window.detail.item.fields)
    assert fields["Legacy keys in file"].startswith("schedule ← cron")
    assert fields["MEMORY.md"].endswith("cron/weekly-review/MEMORY.md")

    pane.filter_box.setText("digest")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 1, timeout=2000)


def test_a_disabled_cron_task_says_so_and_lists_no_next_runs(qtbot, window, demo_store):
    """Issue 18 #9: "Back up photos" is disabled (enabled = 0): no next runs in the list, the page or the detail."""
    pane = shown(open_at(qtbot, window, demo_store, "cron"), 6, qtbot)
    task = select_where(pane, 0, "Back up photos")
    assert task.times.next_runs == () or not task.task.enabled
    text = pane.shown_text()
    assert "Disabled" in text and "no next runs" in text and "Next runs" not in text
    fields = dict(window.detail.item.fields)
    assert fields["Enabled"] == "no"
    assert fields["Next runs"].startswith("none") and "disabled" in fields["Next runs"]
    row = texts(pane.records.proxy, 0).index("Back up photos")
    assert texts(pane.records.proxy, column(pane.records.proxy, "In words"))[row].startswith("disabled")
    assert texts(pane.records.proxy, column(pane.records.proxy, "Next run"))[row] == ""
    assert pane.records.proxy.index(row, 0).data(StateRole) == "disabled"
    select_where(pane, 0, "Daily digest")  # an enabled task still lists its five runs
    assert pane.view.toHtml().count("<li") == 5


def test_cron_invalid_schedule_is_an_error(qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    (store / "cron" / "broken-schedule").mkdir()
    (store / "cron" / "broken-schedule" / "TASK.md").write_text(BAD_TASK)
    pane = shown(open_at(qtbot, window, store, "cron"), 7, qtbot)
    select_where(pane, 0, "Broken schedule")
    text = pane.shown_text()
    assert "Schedule problem" in text and "minute" in text and "Next runs" not in text
    row = texts(pane.records.proxy, 0).index("Broken schedule")
    assert pane.records.proxy.index(row, 0).data(StateRole) in ("error", "ignored")
    assert texts(pane.records.proxy, column(pane.records.proxy, "In words"))[row].startswith("invalid:")


def test_fixture_cron_says_daycare_reads_the_row(qtbot, window, fixture_copy):
    pane = open_at(qtbot, window, fixture_copy("daycare-808af509"), "cron")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() >= 1, timeout=5000)
    task = pane.records.model.records()[pane.records.model.row_of_key("dailycleanup")].task
    assert [(c.where, c.read) for c in task.copies] == [("file", False), ("database row", True)]
    pane.open_item("dailycleanup")
    assert "Daycare reads: <b>database row</b>" in pane.where_label.text()
    assert dict(window.detail.item.fields)["Daycare reads"] == "database row"


def test_heartbeat_tasks(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "heartbeat")
    model_tester(pane.records.model, pane.records.proxy)
    shown(pane, 4, qtbot)
    proxy = pane.records.proxy
    stored = dict(zip(texts(proxy, column(proxy, "Id")), texts(proxy, column(proxy, "Stored as"))))
    assert stored == {"budget-watch": "file", "check-inbox": "file + database row",
                      "plant-care": "file + database row", "weekly-budget": "database row"}
    assert "Schedule" not in visible_titles(pane) and "Agent" not in visible_titles(pane)
    pane.open_item("check-inbox")
    assert "every heartbeat" in pane.shown_text() and pane.shown_text().strip()


def test_enter_on_a_task_opens_its_agent(qtbot, window, demo_store):
    pane = shown(open_at(qtbot, window, demo_store, "cron"), 6, qtbot)
    task = select_where(pane, 0, "Daily digest").task
    assert task.agent_id
    pane.activate()
    qtbot.waitUntil(lambda: window._current_section == "agents", timeout=5000)


# -- Edit row: the form over a task's database row (what Daycare reads once tasks were imported) ----------
CODE = "line1\r\nline2\r\n\tindented\u2028sep\r\n"


@pytest.fixture
def store(tmp_path, demo_store):
    root = tmp_path / "daycare"
    shutil.copytree(demo_store, root)
    return root


def _stored(root, columns: str):
    conn = sqlite3.connect(root / "daycare.db")
    try:
        return conn.execute(f"SELECT {columns} FROM tasks_cron WHERE id = 'daily-digest'").fetchone()
    finally:
        conn.close()


def _set_code(root, code: str) -> None:
    conn = sqlite3.connect(root / "daycare.db")
    conn.execute("UPDATE tasks_cron SET code = ? WHERE id = 'daily-digest'", (code,))
    conn.commit()
    conn.close()


def _form(qtbot, pane, title):
    s = select_where(pane, 0, title)
    dialog = EditDialog("Edit", pane.cap.editable(s.task), pane.cap.form_values(s.task))
    qtbot.addWidget(dialog)
    return s.task, dialog


def _widget(dialog, label):
    from PySide6.QtWidgets import QFormLayout

    form = dialog.findChild(QFormLayout)
    for row in range(form.rowCount()):
        if form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget().text() == label:
            return form.itemAt(row, QFormLayout.ItemRole.FieldRole).widget()
    raise KeyError(label)


def test_edit_row_writes_in_one_transaction_and_the_page_shows_it(qtbot, window, store):
    from PySide6.QtWidgets import QLineEdit

    from tests.ui.test_new_delete_restore import on_next_dialog

    pane = shown(open_at(qtbot, window, store, "cron"), 6, qtbot)
    select_where(pane, 0, "Daily digest")
    assert pane.edit_button.text() == "Edit row" and pane.edit_button.isEnabled()

    def fill(dialog: EditDialog):
        assert dialog.windowTitle() == "Edit database row: Daily digest"
        _widget(dialog, "Schedule (cron)").findChild(QLineEdit, "scheduleLine").setText("0 6 * * *")
        _widget(dialog, "Enabled").setChecked(False)
        assert dialog.changes() == {"schedule": "0 6 * * *", "enabled": False}
        dialog.accept()

    on_next_dialog(fill, kind=EditDialog)
    pane.edit()
    qtbot.waitUntil(lambda: _stored(store, "schedule, enabled") == ("0 6 * * *", 0), timeout=10000)
    row = lambda: texts(pane.records.proxy, 0).index("Daily digest")  # noqa: E731
    qtbot.waitUntil(lambda: texts(pane.records.proxy, column(pane.records.proxy, "Schedule"))[row()] == "0 6 * * *",
                    timeout=10000)
    assert pane.records.proxy.index(row(), 0).data(StateRole) == "disabled"


def test_edit_row_toggling_enabled_leaves_crlf_code_with_a_line_separator_untouched(qtbot, window, store):
    """QA: the row editor was dirty on opening, and saving a toggled Enabled rewrote the code with LF
    endings and its U+2028 turned into a line feed."""
    _set_code(store, CODE)
    pane = shown(open_at(qtbot, window, store, "cron"), 6, qtbot)
    task, dialog = _form(qtbot, pane, "Daily digest")
    assert dialog.changes() == {}
    _widget(dialog, "Enabled").click()
    assert dialog.changes() == {"enabled": False}
    pane.cap.update(task, dialog.changes())
    assert _stored(store, "code, enabled") == (CODE, 0)


def test_edit_row_edited_code_keeps_crlf_and_its_line_separator(qtbot, window, store):
    _set_code(store, CODE)
    pane = shown(open_at(qtbot, window, store, "cron"), 6, qtbot)
    task, dialog = _form(qtbot, pane, "Daily digest")
    code = _widget(dialog, "Code (body)")
    cursor = code.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    code.setTextCursor(cursor)
    code.setFocus()
    qtbot.keyClicks(code, "added")
    assert set(dialog.changes()) == {"code"}
    pane.cap.update(task, dialog.changes())
    assert _stored(store, "code") == (CODE + "added",)


def test_edit_row_asks_while_the_engine_runs_and_writes_only_when_told(qtbot, window, store):
    import os

    from PySide6.QtWidgets import QMessageBox

    from tests.ui.test_new_delete_restore import on_next_dialog

    pane = shown(open_at(qtbot, window, store, "cron"), 6, qtbot)
    (store / "engine.pid").write_text(str(os.getpid()))
    task, dialog = _form(qtbot, pane, "Daily digest")
    _widget(dialog, "Name").setText("Changed")
    asked = []

    def answer(yes):
        def act(box: QMessageBox):
            asked.append(box.text())
            box.button(QMessageBox.StandardButton.Yes if yes else QMessageBox.StandardButton.No).click()
        return act

    from daycare_gui.ui.panes.generic.edit_form import save_with_consent

    changes = dialog.changes()
    on_next_dialog(answer(False), kind=QMessageBox)
    save_with_consent(pane, window.worker, "t", lambda force: pane.cap.update(task, changes, force=force),
                      lambda _t: None)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=10000)
    assert "engine is running" in asked[0] and "caches task rows" in asked[0]
    assert _stored(store, "name") == ("Daily digest",)
    on_next_dialog(answer(True), kind=QMessageBox)
    save_with_consent(pane, window.worker, "t", lambda force: pane.cap.update(task, changes, force=force),
                      lambda _t: None)
    qtbot.waitUntil(lambda: _stored(store, "name") == ("Changed",), timeout=10000)


def test_edit_row_refuses_a_row_changed_meanwhile(qtbot, window, store):
    from daycare_gui.stores.api import WriteConflict

    pane = shown(open_at(qtbot, window, store, "cron"), 6, qtbot)
    task, dialog = _form(qtbot, pane, "Daily digest")
    conn = sqlite3.connect(store / "daycare.db")
    conn.execute("UPDATE tasks_cron SET name = 'Theirs' WHERE id = 'daily-digest'")
    conn.commit()
    conn.close()
    _widget(dialog, "Name").setText("Mine")
    with pytest.raises(WriteConflict, match="changed since it was listed"):
        pane.cap.update(task, dialog.changes())
    assert _stored(store, "name") == ("Theirs",)


def test_the_schedule_field_says_its_words_and_a_disabled_task_lists_no_runs(qtbot, window, demo_store):
    pane = shown(open_at(qtbot, window, demo_store, "cron"), 6, qtbot)
    _task, dialog = _form(qtbot, pane, "Back up photos")  # enabled = 0 in the demo database
    from PySide6.QtWidgets import QLabel, QLineEdit

    box = _widget(dialog, "Schedule (cron)")
    words = box.findChild(QLabel, "scheduleWords")
    assert "03:15" in words.text() and "next" not in words.text() and "disabled" in words.text()
    _widget(dialog, "Enabled").setChecked(True)
    assert "next:" in words.text()
    box.findChild(QLineEdit, "scheduleLine").setText("0 7 * *")
    assert words.text().startswith("Invalid")


# -- today's Daycare (PostgreSQL) and CianaParrot -------------------------------------------------------
NOW_MS = 1_795_000_000_000


@pytest.fixture(scope="module")
def pg_demo():
    from daycare_gui.stores.daycare.pg.demo import write_pg_demo
    from tests.pg_helpers import PgServer

    pg = PgServer()
    try:
        url = pg.create_db("daycare_demo")
        write_pg_demo(url, now_ms=NOW_MS)
        yield url
    finally:
        pg.stop()


def test_pg_tasks_in_groups_with_their_timezone_and_the_form(qtbot, window, pg_demo):
    from tests.ui.conftest import open_and_wait

    open_and_wait(qtbot, window, pg_demo, timeout=30000)
    # each group on a page of its own, as Daycare's SQLite stores show cron and heartbeat tasks
    assert {"cron", "webhook"} <= set(window._sections) and "heartbeat" not in window._sections
    window.show_section("webhook")
    hooks = window.panes["webhook"]
    qtbot.waitUntil(lambda: hooks.records.proxy.rowCount() > 0, timeout=10000)
    assert {s.task.schedule_kind for s in hooks.records.visible_records()} == {"webhook"}
    window.show_section("cron")
    pane = window.panes["cron"]
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() > 0, timeout=10000)
    assert {s.task.schedule_kind for s in pane.records.visible_records()} == {"cron"}
    cron = pane.records.visible_records()[0]
    pane.list.select_key(cron.id)
    if cron.task.timezone and cron.task.enabled and not cron.times.error:
        assert f"({cron.task.timezone})" in pane.shown_text()
    assert pane.edit_button.text() == "Edit…" and pane.edit_button.isEnabled()
    assert not pane.new_button.isVisible() and not pane.delete_button.isVisible()
    assert "Stored as" not in visible_titles(pane)  # PostgreSQL keeps one copy: no copies column
    form = EditDialog("x", pane.cap.editable(cron.task), pane.cap.form_values(cron.task))
    qtbot.addWidget(form)
    assert form.changes() == {}


def test_cianaparrot_tasks_list_their_next_runs_in_the_tasks_timezone(qtbot, window, tmp_path):
    from daycare_gui.stores.cianaparrot import write_demo
    from tests.ui.conftest import open_and_wait

    root = write_demo(tmp_path / "cp", now_ms=NOW_MS)
    open_and_wait(qtbot, window, root)
    window.show_section("tasks")
    pane = window.panes["tasks"]
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 3, timeout=10000)
    proxy = pane.records.proxy
    assert "Next run" in visible_titles(pane) and "Type" in visible_titles(pane)
    assert all(texts(proxy, column(proxy, "Next run")))
    select_where(pane, 0, "Check the weather forecast and send me a summary")
    assert "At 08:00 AM (UTC)" in pane.shown_text() and "UTC" in pane.shown_text()
    assert not pane.new_button.isVisible() and not pane.file_button.isVisible()
    pane.group_box.setCurrentIndex(pane.group_box.findText("Once"))  # one kind of schedule at a time
    assert texts(proxy, 0) == ["Call mum"] and texts(proxy, column(proxy, "In words"))[0].startswith("once at")


def test_linggen_missions_are_tasks_with_their_schedule_in_words_and_the_document_to_edit(qtbot, window, tmp_path):
    from daycare_gui.stores.linggen.demo import write_demo
    from tests.ui.conftest import open_and_wait

    root = write_demo(tmp_path / "lg", now_ms=NOW_MS)
    open_and_wait(qtbot, window, root)
    window.show_section("tasks")
    pane = window.panes["tasks"]
    shown(pane, 2, qtbot)  # the daily review and the nightly tests
    proxy = pane.records.proxy
    assert sorted(texts(proxy, 0)) == ["Daily review", "Nightly tests"]
    daily = texts(proxy, 0).index("Daily review")
    assert texts(proxy, column(proxy, "In words"))[daily] == "At 09:00 AM, Monday through Friday"
    assert texts(proxy, column(proxy, "Next run"))[daily] and texts(proxy, column(proxy, "Last run"))[daily]
    assert texts(proxy, column(proxy, "Linggen reads")) == ["mission.md", "mission.md"]
    select_where(pane, 0, "Daily review")
    assert "Review yesterday's commits" in pane.shown_text() and "Next runs" in pane.shown_text()
    assert pane.file_button.isEnabled() and not pane.edit_button.isEnabled()
    assert not pane.new_button.isVisible() and not pane.delete_button.isVisible()
    pane.edit_file()  # the mission.md on the Documents page, where Linggen's own save asks first
    qtbot.waitUntil(lambda: window._current_section == "documents", timeout=5000)
    docs = window.panes["documents"]
    qtbot.waitUntil(lambda: docs.ref is not None and docs.ref.id == "mission:daily-review", timeout=10000)
