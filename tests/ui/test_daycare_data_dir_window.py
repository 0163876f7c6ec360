"""The window on a PGlite store with its data directory: skills of each source in Documents, settings and
users' secrets in the data directory's lists, with no planted credential anywhere on screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QTableView, QTreeWidget

from daycare_gui.ui.models.keyed_model import KeyedTableModel
from tests.pg_helpers import use_test_pglite
from tests.stores.daycare_pg.datadir_files import SECRETS, plant_data_dir

OPEN_TIMEOUT = 120_000  # the copy and PGlite's start on a busy machine


@pytest.fixture
def store(pglite_store, tmp_path, monkeypatch):
    use_test_pglite()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    plant_data_dir(pglite_store, tmp_path / "home")
    return pglite_store


def _screen_text() -> str:
    texts = []
    for w in QApplication.allWidgets():
        if isinstance(w, QTreeWidget):  # a list's cells are items, not widgets
            for i in range(w.topLevelItemCount()):
                item = w.topLevelItem(i)
                texts += [item.text(c) for c in range(item.columnCount())]
        elif isinstance(w, QTableView) and isinstance(w.model(), KeyedTableModel):  # a list's cells, tooltips
            m, top = w.model(), QModelIndex()
            for r in range(m.rowCount(top)):
                for c in range(m.columnCount(top)):
                    texts += [str(m.index(r, c).data() or ""), str(m.index(r, c).data(Qt.ItemDataRole.ToolTipRole) or "")]
        for name in ("text", "toPlainText", "placeholderText", "toolTip"):
            f = getattr(w, name, None)
            if callable(f):
                try:
                    value = f()
                except TypeError:
                    continue
                if isinstance(value, str):
                    texts.append(value)
    return "\n".join(texts)


def test_skills_and_settings_show_and_no_credential_is_on_screen(qtbot, window, store):
    window.open_path(str(store))
    qtbot.waitUntil(lambda: window.opened is not None and "collection:files:settings" in window._sections,
                    timeout=OPEN_TIMEOUT)
    window.show_section("documents")
    docs = window.pane("documents")
    qtbot.waitUntil(lambda: docs.list.records.model.rowCount() >= 6, timeout=10000)
    titles = {d.title for d in docs.list.records.visible_records()}
    assert {"weather", "trip-planner", "notes", "SYSTEM.md"} <= titles
    docs.list.select_key("skill:user:user/1/trip-planner")
    qtbot.waitUntil(lambda: docs.ref is not None and docs.ref.title == "trip-planner", timeout=10000)
    qtbot.waitUntil(lambda: "quillfeather" in _screen_text(), timeout=10000)  # the skill's text is shown
    seen = []
    for section in ("collection:files:settings", "collection:files:auth", "collection:files:user_secrets",
                    "collection:files:processes"):
        window.show_section(section)
        view = window.panes[section].current_view()  # the shared list pane (keyed rows)
        qtbot.waitUntil(lambda v=view: v.model.rowCount() > 0 and all(v.model.record(r) for r in
                                                                       range(v.model.rowCount())), timeout=10000)
        for i in range(view.model.rowCount()):
            view.table.selectRow(i)
            QApplication.processEvents()
            text = _screen_text()
            assert not [v for v in SECRETS.values() if v in text], section
            seen.append(text)
    assert any("server listening" in t for t in seen)  # the process log's end was on screen, masked
    assert any("GH_TOKEN" in t for t in seen)  # a user secret's variable name, never its value
