"""Cron, heartbeat and apps pages over the demo store (and a real Daycare fixture); the Skills, Memory and
Settings sections' tests are in test_document_shelves.py, the Files page's in test_files_pane.py."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt

from daycare_gui.ui.models.roles import StateRole
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


def test_cron_pairs_files_and_rows_and_explains_schedules(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "cron")
    model_tester(pane.records.model, pane.records.proxy)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 6, timeout=5000)
    proxy = pane.records.proxy
    stored = dict(zip(texts(proxy, 0), texts(proxy, column(proxy, "Stored as"))))
    assert stored["Daily digest"] == "both"
    assert stored["Stand-up notes"] == "row"
    assert stored["Plant photo diary"] == "file"
    reads = dict(zip(texts(proxy, 0), texts(proxy, column(proxy, "Daycare reads"))))
    assert reads["Daily digest"] == "database row"
    assert reads["Plant photo diary"] == "nothing (file ignored)"

    select_where(pane, 0, "Daily digest")
    assert "At 07:00 AM" in pane.schedule_label.text()
    assert pane.schedule_label.text().count("<li>") == 5
    assert "Daycare reads: database row" in pane.where_label.text()
    assert "Summarise unread email" in pane.viewer.shown_text()
    fields = dict(window.detail.item.fields)
    assert fields["Legacy keys in file"] == "agent_id ← agentId, user_id ← userId"
    assert len(fields["Next runs"].splitlines()) == 5

    select_where(pane, 0, "Weekly review")
    assert dict(window.detail.item.fields)["Legacy keys in file"].startswith("schedule ← cron")
    assert pane.memory_button.isEnabled()
    pane.memory_button.click()
    qtbot.waitUntil(lambda: pane.viewer.heading.text() == "<b>MEMORY.md</b>", timeout=5000)

    pane.filter_box.setText("digest")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 1, timeout=2000)


def test_a_disabled_cron_task_says_so_and_lists_no_next_runs(qtbot, window, demo_store):
    """Issue 18 #9: "Back up photos" is disabled (enabled = 0): no "Next 5 runs" in the list, header or detail."""
    pane = open_at(qtbot, window, demo_store, "cron")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 6, timeout=5000)
    task = select_where(pane, 0, "Back up photos")
    assert task.schedule.next_runs == ()
    header = pane.schedule_label.text()
    assert "Disabled" in header and "no next runs" in header
    assert "<li>" not in header and "Next" not in header
    fields = dict(window.detail.item.fields)
    assert fields["Enabled"] == "no"
    assert fields["Next runs"].startswith("none") and "disabled" in fields["Next runs"]
    row = texts(pane.records.proxy, 0).index("Back up photos")
    assert texts(pane.records.proxy, column(pane.records.proxy, "In words"))[row].startswith("disabled")
    assert pane.records.proxy.index(row, 0).data(StateRole) == "disabled"
    # an enabled task still lists its five runs
    select_where(pane, 0, "Daily digest")
    assert pane.schedule_label.text().count("<li>") == 5


def test_cron_invalid_schedule_is_an_error(qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    (store / "cron" / "broken-schedule").mkdir()
    (store / "cron" / "broken-schedule" / "TASK.md").write_text(BAD_TASK)
    pane = open_at(qtbot, window, store, "cron")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 7, timeout=5000)
    select_where(pane, 0, "Broken schedule")
    assert "invalid" in pane.schedule_label.text() and "minute" in pane.schedule_label.text()
    assert "<li>" not in pane.schedule_label.text()
    row = texts(pane.records.proxy, 0).index("Broken schedule")
    assert pane.records.proxy.index(row, 0).data(StateRole) in ("error", "ignored")
    assert texts(pane.records.proxy, column(pane.records.proxy, "In words"))[row].startswith("invalid:")


def test_fixture_cron_says_daycare_reads_the_row(qtbot, window, fixture_copy):
    pane = open_at(qtbot, window, fixture_copy("daycare-808af509"), "cron")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() >= 1, timeout=5000)
    entry = pane.records.model.records()[pane.records.model.row_of_key("dailycleanup")].entry
    assert entry.presence == "both" and entry.reads == "row"
    pane.open_item("dailycleanup")
    assert "Daycare reads: database row" in pane.where_label.text()
    assert dict(window.detail.item.fields)["Daycare reads"] == "database row"


def test_heartbeat_tasks(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "heartbeat")
    model_tester(pane.records.model, pane.records.proxy)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 4, timeout=5000)
    stored = dict(zip(texts(pane.records.proxy, 5), texts(pane.records.proxy, 1)))
    assert stored == {"budget-watch": "file", "check-inbox": "both", "plant-care": "both", "weekly-budget": "row"}
    pane.open_item("check-inbox")
    assert not pane.schedule_label.isVisible()
    assert pane.viewer.shown_text().strip()


def test_apps_show_allow_and_deny_rules(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "apps")
    model_tester(pane.records.model, pane.records.proxy)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 3, timeout=5000)
    pane.table.selectRow(texts(pane.records.proxy, 2).index("workspace"))
    app = pane.current_record()
    shown = pane.viewer.shown_text()
    assert "System prompt" in shown and "Allow" in shown and "Deny" in shown
    fields = window.detail.item.fields
    allow = [v for k, v in fields if k == "Allow"]
    deny = [v for k, v in fields if k == "Deny"]
    assert allow == [r.text for r in app.permissions.allow] and allow
    assert deny == [r.text for r in app.permissions.deny]
    assert all(rule in shown for rule in deny)
