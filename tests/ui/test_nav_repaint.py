"""What the window repaints of the navigation when the keyboard leaves it or the Details dock comes or goes:
only what changed there (its focus mark), never the whole tree — and the screen afterwards holds exactly
what a full repaint would paint, so nothing is left stale."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import open_and_wait


class _Paints(QObject):
    """The rectangles a widget is asked to paint, in order."""

    def __init__(self, widget) -> None:
        super().__init__()
        self.rects = []
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Paint:
            self.rects.append(event.rect())
        return False


def _on_screen(window):
    """The window's pixels as they were last painted (the platform's copy, not a fresh rendering), once
    what the last change set off has run (a table's scroll bars follow its new width a moment later)."""
    for _ in range(5):
        QApplication.processEvents()
        QTest.qWait(10)
    return window.screen().grabWindow(window.winId()).toImage()


def _as_a_full_repaint_paints(window):
    window.repaint()
    return _on_screen(window)


def _settled_on(qtbot, window, store, section):
    open_and_wait(qtbot, window, store)
    for name in ("agents", "overview", section):  # both built and shown once, then the one wanted
        window.show_section(name)
    window.activateWindow()
    # the counts beside the sections and the pages' reads arrive on the workers: let them land first
    def idle():
        return window.preloader.done and not window.worker.is_busy() and not window.bg_worker.is_busy()

    qtbot.waitUntil(idle, timeout=15000)
    qtbot.wait(300)  # what the last answers set off (a count, the problems line) lands too
    qtbot.waitUntil(idle, timeout=15000)
    # a label that grew with its count has widened the navigation already (that repaint is not the dock's)
    qtbot.waitUntil(lambda: window.nav.needed_width() <= window.nav.width(), timeout=5000)
    qtbot.wait(100)
    _on_screen(window)
    return window.panes[section]


def test_the_keyboard_leaving_the_navigation_repaints_its_current_row_only(qtbot, window, demo_store):
    overview = _settled_on(qtbot, window, demo_store, "overview")
    nav = window.nav
    nav.setFocus()
    qtbot.waitUntil(nav.hasFocus, timeout=5000)
    focused = _on_screen(window)
    paints = _Paints(nav.viewport())
    overview.tables_view.setFocus()  # the keyboard goes to the page, as opening something from the tree does
    qtbot.waitUntil(lambda: not nav.hasFocus(), timeout=5000)
    unfocused = _on_screen(window)

    row = nav.visualRect(nav.currentIndex())
    assert paints.rects, "the focus mark was not repainted"
    assert all(r.top() >= row.top() and r.bottom() <= row.bottom() for r in paints.rects), paints.rects
    where = QRect(nav.mapTo(window, QPoint(0, 0)), nav.size())
    assert unfocused.copy(where) != focused.copy(where)  # the focus mark went (a row left unpainted would show)
    assert unfocused == _as_a_full_repaint_paints(window)  # nothing stale
    nav.setFocus()
    qtbot.waitUntil(nav.hasFocus, timeout=5000)
    assert _on_screen(window) == focused  # and back, as it was


def test_the_details_dock_coming_and_going_leaves_the_navigation_alone(qtbot, window, demo_store):
    # (the Inbox page: one that fits beside the dock at this size; a page squeezed to its minimum takes
    # width from the navigation and gives it back when the dock goes — a resize, not what this is about)
    agents = _settled_on(qtbot, window, demo_store, "inbox")
    assert not window.detail_dock.isHidden()
    agents.setFocus()  # the keyboard elsewhere: only the dock changes
    qtbot.waitUntil(lambda: not window.nav.hasFocus(), timeout=5000)
    qtbot.wait(100)  # the focus mark leaving the navigation is painted before we start counting
    paints = _Paints(window.nav.viewport())
    page_width = window.pane_stack.width()

    window.actions_.actions["toggle_detail"].trigger()  # F9: the dock goes, the page area widens
    assert window.detail_dock.isHidden()
    wide = _on_screen(window)
    assert window.pane_stack.width() > page_width
    assert paints.rects == []  # the navigation beside the page was not painted again
    assert wide == _as_a_full_repaint_paints(window)  # the uncovered area painted, nothing stale

    paints.rects.clear()
    window.actions_.actions["toggle_detail"].trigger()  # and back: the page narrows again
    assert not window.detail_dock.isHidden()
    narrow_screen = _on_screen(window)
    assert window.pane_stack.width() == page_width
    assert paints.rects == []
    assert narrow_screen == _as_a_full_repaint_paints(window)
