"""Switching to a page that brings the Details dock with it (or leaves it behind): the page is laid out
once, at the width it has beside the dock, and the page leaving is not laid out again on its way out; the
keyboard stays in the page, as it does on any other switch."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import open_and_wait


class _Resizes(QObject):
    """The sizes each watched widget is given, in order."""

    def __init__(self, *widgets) -> None:
        super().__init__()
        self.sizes = {w: [] for w in widgets}
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Resize and obj in self.sizes:
            self.sizes[obj].append(event.size().toTuple())
        return False


def _overview_and_agents(qtbot, window, store):
    open_and_wait(qtbot, window, store)
    for section in ("agents", "overview"):  # both built and shown once, the window back on the Overview
        window.show_section(section)
    qtbot.waitUntil(lambda: window.detail_dock.isHidden(), timeout=5000)
    window.layout().activate()  # the window laid out for what it shows now
    QApplication.processEvents()
    return window.panes["overview"], window.panes["agents"]


def test_a_page_beside_the_details_dock_is_laid_out_once(qtbot, window, demo_store):
    overview, agents = _overview_and_agents(qtbot, window, demo_store)
    wide = window.pane_stack.width()
    watch = _Resizes(overview, agents)
    window.show_section("agents")
    assert not window.detail_dock.isHidden()
    narrow = window.pane_stack.width()
    assert narrow < wide  # the dock took its room from the page area
    assert agents.width() == narrow
    assert watch.sizes[agents] == [agents.size().toTuple()]  # one layout, at the width beside the dock
    assert watch.sizes[overview] == []  # the page leaving was not squeezed on its way out

    for sizes in watch.sizes.values():
        sizes.clear()
    window.show_section("overview")  # and back: the dock goes, the Overview has the whole width again
    assert window.detail_dock.isHidden()
    assert overview.width() == window.pane_stack.width() == wide
    assert watch.sizes[overview] == [overview.size().toTuple()]
    assert watch.sizes[agents] == []


def test_the_keyboard_stays_in_the_page_when_the_dock_comes_with_it(qtbot, window, demo_store):
    overview, agents = _overview_and_agents(qtbot, window, demo_store)
    window.activateWindow()
    overview.tables_view.setFocus()
    qtbot.waitUntil(lambda: overview.isAncestorOf(QApplication.focusWidget()), timeout=5000)
    window.show_section("agents")  # as Ctrl+2 does, with the keyboard in the Overview's table
    assert agents.isAncestorOf(QApplication.focusWidget())  # not the navigation, not the dock


def test_the_details_dock_shows_first_at_its_width(qtbot, window, demo_store):
    """The first page with details (the dock not sized yet, no saved layout) shows the dock at its share
    of the window at once: the window and the page area are laid out once, not with the dock at its
    pane's own width and then again once it is sized."""
    from daycare_gui.ui.detail_dock import DetailDock

    open_and_wait(qtbot, window, demo_store)
    window.show_section("overview")
    qtbot.waitUntil(lambda: window.detail_dock.isHidden(), timeout=5000)
    window.layout().activate()
    QApplication.processEvents()
    assert not window.details.sized
    watch = _Resizes(window.detail_dock, window.pane_stack)
    window.show_section("agents")
    QApplication.processEvents()
    assert not window.detail_dock.isHidden()
    assert window.detail_dock.width() == DetailDock.share(window.width())
    assert [w for w, _h in watch.sizes[window.detail_dock]] == [window.detail_dock.width()]  # one width
    assert [w for w, _h in watch.sizes[window.pane_stack]] == [window.pane_stack.width()]
