"""Issue #34: the navigation marks the page shown, however the page was reached — Jump To (Ctrl+K), a deep
link (--open session:…), a click — and what the screen shows is that mark, not the one left from before."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import open_and_wait


def _nav_on_screen(window):
    """The navigation's pixels as last painted (the platform's copy, not a fresh rendering)."""
    for _ in range(5):
        QApplication.processEvents()
        QTest.qWait(10)
    nav = window.nav
    where = QRect(nav.mapTo(window, QPoint(0, 0)), nav.size())
    return window.screen().grabWindow(window.winId()).toImage().copy(where)


def _nav_repainted(window):
    window.nav.viewport().repaint()
    return _nav_on_screen(window)


def _marked(window) -> list[str]:
    return [i.data() for i in window.nav.selectionModel().selectedIndexes()]


def _settled(qtbot, window, store):
    open_and_wait(qtbot, window, store)
    qtbot.waitUntil(lambda: window.jump.index is not None, timeout=15000)
    qtbot.waitUntil(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), timeout=15000)


def test_jump_to_a_task_marks_its_page_on_screen(qtbot, window, demo_store):
    _settled(qtbot, window, demo_store)
    window.show_section("agents")
    agents_marked = _nav_on_screen(window)
    task = next(e for e in window.jump.index.entries if e.kind == "task")
    window.jump.open_entry(task)  # as choosing it in Ctrl+K does
    qtbot.waitUntil(lambda: window._current_section == task.ref[0], timeout=5000)
    shown = window.pane_stack.currentWidget()
    assert shown is window.panes[task.ref[0]]
    assert _marked(window) == [window.nav.text_of(task.ref[0])]
    on_screen = _nav_on_screen(window)
    assert on_screen != agents_marked  # Agents is no longer the row drawn marked
    assert on_screen == _nav_repainted(window)  # what is drawn is the mark a full repaint draws


def test_deep_link_to_a_session_marks_agents_not_overview(qtbot, window, demo_store):
    _settled(qtbot, window, demo_store)
    assert window._current_section == "overview"
    overview_marked = _nav_on_screen(window)
    session = next(e for e in window.jump.index.entries if e.kind == "session")
    window.jump.open_link(f"session:{session.key}")
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is window.panes.get("history"), timeout=5000)
    assert _marked(window) == [window.nav.text_of("agents")]
    on_screen = _nav_on_screen(window)
    assert on_screen != overview_marked
    assert on_screen == _nav_repainted(window)


@pytest.mark.parametrize("kind", ["agentstack", "cianaparrot"])
def test_a_click_on_a_folder_opens_it_and_shows_its_first_page(kind, qtbot, window, tmp_path):
    from daycare_gui.stores.demos import write_kind_demo
    from daycare_gui.ui.widgets.navigation import NavIdRole

    write_kind_demo(kind, tmp_path / kind, 1_760_000_000_000)
    open_and_wait(qtbot, window, tmp_path / kind)
    nav = window.nav
    model = nav.model()
    folder = next(model.index(r, 0) for r in range(model.rowCount()) if model.hasChildren(model.index(r, 0)))
    first = model.index(0, 0, folder)
    assert not nav.isExpanded(folder)
    qtbot.mouseClick(nav.viewport(), Qt.MouseButton.LeftButton, pos=nav.visualRect(folder).center())
    assert nav.isExpanded(folder)  # its pages are in view
    section = first.data(NavIdRole)
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is window.panes.get(section), timeout=5000)
    assert _marked(window) == [first.data()]
    total = sum(window.splitter.sizes())
    window.splitter.setSizes([0, total])  # as narrow as it goes: its minimum, as in a small window
    qtbot.waitUntil(lambda: nav.width() < total // 3, timeout=2000)
    metrics = QFontMetrics(nav.font())
    for row in range(model.rowCount(folder)):  # the opened folder's pages are read whole ("Memory by namespac…")
        index = model.index(row, 0, folder)
        right = nav.visualRect(index).left() + nav.iconSize().width() + 4 + metrics.horizontalAdvance(index.data())
        assert right <= nav.viewport().width(), f"{index.data()!r} is cut"


def test_jump_to_nothing_matches_offers_to_search_the_conversations(qtbot, window, demo_store, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    _settled(qtbot, window, demo_store)
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = window.jump.palette
    qtbot.waitUntil(lambda: palette is not None and palette.isVisible() and palette.query.hasFocus(), timeout=5000)
    qtbot.keyClicks(palette.query, "groceries total")  # words of a conversation, no item's name
    assert "Nothing matches" in palette.note.text()
    assert "search the conversations" in palette.note.text()  # not a dead end: what to do next
    qtbot.keyClick(palette.query, Qt.Key.Key_Return)
    assert not palette.isVisible()
    search = window.panes["search"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is search, timeout=5000)
    assert search.query_box.text() == "groceries total"
    assert _marked(window) == ["Search"]  # its own entry, as on every kind (#33)
