"""Issue 12 in the window: AgentStack's memory is searched through its own FTS5 index from the shared
collection pane — a search box only where the list can be searched, the query run on the worker, the hits
(best BM25 first, with highlighted snippets) in the same list, and a hit's link back to the entry."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QApplication

from daycare_gui.stores import registry
from daycare_gui.stores.agentstack import search_memory
from tests.stores.agentstack.builder import Builder

TEXTS = [
    ("deploy", "Deploy to staging first, then production after approval.", "ops"),
    ("deploy-notes", "Deploying requires a green build. Deploy deploy deploy.", "ops"),
    ("tests", "Run the tests before every deploy.", "default"),
    ("style", "Small modules and type hints.", "default"),
    ("cjk", "部署到生产环境之前先运行测试 🚀", "default"),
]


@pytest.fixture
def agentstack(tmp_path):
    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    ids = {key: b.memory(key, text, namespace=ns) for key, text, ns in TEXTS}
    b.session("active")
    return b.close(), ids


def _open(qtbot, window, path, section):
    window.open_path(str(path))
    qtbot.waitUntil(lambda: window.opened is not None and section in window._sections, timeout=10000)
    window.show_section(section)
    pane = window.panes[section]
    qtbot.waitUntil(lambda: pane.loaded > 0, timeout=5000)
    return pane


def _keys(pane) -> list[str]:
    return [pane.tree.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole + 1).key
            for i in range(pane.tree.topLevelItemCount())]


def test_memory_search_shows_ranked_hits_with_snippets_in_the_list(qtbot, window, agentstack):
    path, ids = agentstack
    pane = _open(qtbot, window, path, "collection:memory")
    # (no QAbstractItemModelTester: the list is a QTreeWidget, whose model is Qt's own)
    assert pane.search_box.isVisibleTo(pane)
    rows_before = pane.tree.topLevelItemCount()

    calls = []
    cap = pane.cap
    original = cap.search_rows

    def recording(*a, **kw):
        import threading
        calls.append(threading.current_thread() is threading.main_thread())
        return original(*a, **kw)

    cap.search_rows = recording
    qtbot.keyClicks(pane.search_box, "deploy")
    qtbot.keyClick(pane.search_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.query == "deploy", timeout=5000)
    assert calls and not any(calls)  # searched on the worker, never on the GUI thread

    opened = registry.open_store(str(path), kind="agentstack")
    try:
        expected = [r.key for r in search_memory(opened, "deploy", 50)]
    finally:
        opened.close()
    assert _keys(pane) == expected and len(expected) == 3  # BM25 order, as plain sqlite3 ranks it
    header = [pane.tree.headerItem().text(i) for i in range(pane.tree.columnCount())]
    assert header == ["Key", "Namespace", "Score (lower = better)", "Snippet"]
    assert "3 hits for “deploy”" in pane.summary.text()
    first = pane.tree.topLevelItem(0)
    assert "«" in first.text(3) and "»" in first.text(3)  # the matched words marked in the snippet
    qtbot.waitUntil(lambda: "deploy" in pane.viewer.toPlainText().lower(), timeout=5000)
    assert "<b>" in pane.viewer.toHtml() or "font-weight:700" in pane.viewer.toHtml()  # highlighted

    pane.search_box.clear()
    qtbot.keyClicks(pane.search_box, "style")
    qtbot.keyClick(pane.search_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.query == "style", timeout=5000)
    assert _keys(pane) == [ids["style"]]

    # the link to the entry survives a switch to dark (the viewer lays its HTML out again)
    from PySide6.QtGui import QPalette

    from daycare_gui.ui.theme import dark_palette

    app, before = QApplication.instance(), QPalette(QApplication.instance().palette())
    try:
        app.setPalette(dark_palette())
        qtbot.waitUntil(lambda: pane.viewer.palette().color(QPalette.ColorRole.Base).lightness() < 80, timeout=5000)
        assert "entry" in pane.viewer.toPlainText()
    finally:
        app.setPalette(before)

    # the hit's link opens the entry in the whole list again
    pane.viewer.anchorClicked.emit(QUrl("link:0"))
    qtbot.waitUntil(lambda: pane.query == "" and pane.tree.topLevelItemCount() == rows_before, timeout=5000)
    qtbot.waitUntil(lambda: pane.current_row() is not None and pane.current_row().key == ids["style"],
                    timeout=5000)
    assert pane.search_box.text() == ""

    # an empty box brings the rows back; a query nothing matches says so
    qtbot.keyClicks(pane.search_box, "nothingmatchesthis")
    qtbot.keyClick(pane.search_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.query == "nothingmatchesthis", timeout=5000)
    assert pane.tree.topLevelItemCount() == 0 and "0 hits" in pane.summary.text()
    pane.search_box.clear()
    qtbot.waitUntil(lambda: pane.query == "" and pane.tree.topLevelItemCount() == rows_before, timeout=5000)


def test_a_list_the_kind_cannot_search_has_no_search_box(qtbot, window, agentstack):
    path, _ = agentstack
    pane = _open(qtbot, window, path, "collection:sessions")
    assert not pane.search_box.isVisibleTo(pane)
    assert pane.search_columns == ()


def test_a_tree_list_counts_its_entries_not_its_group_rows(qtbot, window, agentstack):
    """Memory by namespace holds 5 entries under 2 namespace headers (and a sessions group): the page and
    the navigation count the 5, not the 8 rows."""
    path, _ids = agentstack
    pane = _open(qtbot, window, path, "collection:memory")
    assert pane.total > 5
    assert pane.summary.text().startswith("5 items (") and "rows with their groups" in pane.summary.text()
    qtbot.waitUntil(lambda: window.nav.text_of("collection:memory").endswith("(5)"), timeout=5000)
