"""The window on a PGlite store with its data directory: skills of each source in Documents (a personal
skill's earlier version as a diff), settings and auth as masked outlines, users' secrets and processes in
the data directory's lists, users' homes and databases in Files — with no planted credential on screen."""

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
    window.show_section("agent_files")  # Daycare's sections, as its SQLite generation names them
    prompts = window.pane("agent_files")
    qtbot.waitUntil(lambda: prompts.list.records.model.rowCount() >= 3, timeout=10000)
    assert "SYSTEM.md" in {d.title for d in prompts.list.records.visible_records()}
    window.show_section("skills")
    docs = window.pane("skills")
    qtbot.waitUntil(lambda: docs.list.records.model.rowCount() >= 3, timeout=10000)
    titles = {d.title for d in docs.list.records.visible_records()}
    assert {"weather", "trip-planner", "notes"} <= titles
    docs.list.select_key("skill:user:user/1/trip-planner")
    qtbot.waitUntil(lambda: docs.ref is not None and docs.ref.title == "trip-planner", timeout=10000)
    qtbot.waitUntil(lambda: "quillfeather" in _screen_text(), timeout=10000)  # the skill's text is shown
    seen = []
    for section, list_id in (("collection:files:settings", "files:settings"), ("collection:files:auth", "files:auth"),
                             ("collection:files:user_secrets", "files:user_secrets"),
                             ("processes", "files:processes")):  # (the process folders: a tab of Processes)
        window.show_section(section)
        pane = window.panes[section]  # the shared list pane (keyed rows)
        view = pane.views[list_id]
        if pane.tabs is not None:
            pane.tabs.setCurrentWidget(view)
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


def _select(qtbot, docs, doc_id):
    docs.list.select_key(doc_id)
    qtbot.waitUntil(lambda: docs.ref is not None and docs.ref.id == doc_id and docs.opened is not None, timeout=10000)


def test_outlines_versions_and_files_show_and_no_credential_is_on_screen(qtbot, window, store):
    window.open_path(str(store))
    qtbot.waitUntil(lambda: window.opened is not None and "files" in window._sections, timeout=OPEN_TIMEOUT)
    window.show_section("settings")
    docs = window.pane("settings")
    qtbot.waitUntil(lambda: docs.list.records.model.rowCount() >= 2, timeout=10000)
    seen = []
    for doc_id in ("config:settings.json", "config:auth.json"):
        _select(qtbot, docs, doc_id)
        assert docs.stack.currentWidget() is docs.outline
        tree = docs.outline.tree
        stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        while stack:
            item = stack.pop()
            tree.setCurrentItem(item)
            QApplication.processEvents()
            seen.append(_screen_text() + f"\n{item.text(0)}={item.text(1)}")
            stack += [item.child(i) for i in range(item.childCount())]
    assert any("jwtSecret=" in t for t in seen) and any("openai-codex" in t for t in seen)

    window.show_section("skills")
    docs = window.pane("skills")
    qtbot.waitUntil(lambda: docs.list.records.model.rowCount() >= 3, timeout=10000)
    _select(qtbot, docs, "skill:user:user/1/trip-planner")
    assert docs.versions_box.isVisible() and docs.versions_box.count() == 2
    docs.versions_box.setCurrentIndex(1)
    docs.versions_box.activated.emit(1)
    qtbot.waitUntil(lambda: "An older checklist" in docs.preview.toPlainText(), timeout=10000)
    assert "quillfeather" in docs.preview.toPlainText()  # the diff: from the old version to the skill now

    window.show_section("files")
    files = window.pane("files")
    assert files.__module__.endswith("generic.files")
    qtbot.waitUntil(lambda: files.model.rowCount() >= 2, timeout=10000)
    databases = files.model.find_root("databases:user/1")
    files.tree.expand(files.proxy.mapFromSource(databases))
    qtbot.waitUntil(lambda: files.model.is_listed(databases), timeout=10000)
    files.tree.setCurrentIndex(files.proxy.mapFromSource(files.model.child_named(databases, "db-1")))
    assert files.open_button.isEnabled()
    seen.append(_screen_text())
    text = "\n".join(seen)
    assert not [v for v in SECRETS.values() if v in text]


def test_every_skill_file_beside_the_store_keeps_its_bytes(qtbot, window, store, monkeypatch):
    """Config and personal skills with a BOM, CRLF and a no-break space: opened and saved unchanged they
    are not written; an edit changes its line only (the PGlite store itself is never written)."""
    from tests.ui.test_document_text_fidelity import _every_document_keeps_its_bytes

    window.open_path(str(store))
    qtbot.waitUntil(lambda: window.opened is not None and "skills" in window._sections, timeout=OPEN_TIMEOUT)
    _every_document_keeps_its_bytes(qtbot, window, store, "skills", monkeypatch, opened=True)
