"""The apps page over the demo store. (Cron and heartbeat are the shared tasks page: test_shared_task_page.py;
Skills, Memory and Settings the shared documents page: test_document_shelves.py; Files: test_files_pane.py.)"""

from __future__ import annotations

from pathlib import Path

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
    from daycare_gui.stores.daycare.files.apps import parse_permissions

    pane = open_at(qtbot, window, demo_store, "apps")
    view = pane.views["apps"]
    model_tester(view.model)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3 and all(view.model.record(r) for r in range(3)), timeout=5000)
    view.table.selectRow(texts(view.model, 2).index("workspace"))
    row = view.current_row()
    shown = window.detail.item.markdown
    assert "System prompt" in shown and "Allow" in shown and "Deny" in shown
    permissions, _problems = parse_permissions(Path(row.key) / "PERMISSIONS.md")
    assert permissions.allow and all(f"- {r.text}" in shown for r in permissions.allow)
    assert all(f"- {r.text}" in shown for r in permissions.deny)
    assert dict(window.detail.item.fields)["Rules"] == f"{len(permissions.allow)} allow / {len(permissions.deny)} deny"
