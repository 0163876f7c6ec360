"""The apps page over the demo store. (Cron and heartbeat are the shared tasks page: test_shared_task_page.py;
Skills, Memory and Settings the shared documents page: test_document_shelves.py; Files: test_files_pane.py.)"""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.ui.test_people_panes import open_at, texts


def column(model, title):
    """A column's index by its title (columns are ordered for reading, and that order may change)."""
    return next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == title)


def select_where(pane, column, text):
    row = texts(pane.records.proxy, column).index(text)
    pane.table.selectRow(row)
    return pane.current_record()


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
