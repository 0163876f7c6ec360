"""The Details dock's heading names what is selected without moving the window around it: a session's
id (one long word) wraps inside the dock at its width instead of widening the dock — and the window with
it, laid out and painted again whole — and a name from the store is shown as written, never as markup."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from daycare_gui.ui.context import DetailItem
from tests.ui.conftest import open_and_wait

SESSION_ID = "jhepoq9xb4mq0tkm2h6cfi7y"  # a Daycare session id: 24 characters, no break in it


def _settle(qtbot):
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)


def _agents_page(qtbot, window, demo_store):
    """The Agents page, its first agent picked and described by the page itself, nothing more on its way."""
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")

    def idle():
        return window.preloader.done and not window.worker.is_busy() and not window.bg_worker.is_busy()

    qtbot.waitUntil(idle, timeout=15000)
    qtbot.wait(300)
    qtbot.waitUntil(idle, timeout=15000)
    _settle(qtbot)


def test_a_session_id_in_the_heading_does_not_widen_the_dock_or_the_window(qtbot, window, demo_store):
    _agents_page(qtbot, window, demo_store)
    window.detail.show_item(DetailItem("Agent Archivist", (("Agent", "Archivist"),), None))
    _settle(qtbot)
    dock = window.detail_dock
    assert dock.isVisible()
    sizes = (window.width(), dock.width(), window.nav.width())

    window.detail.show_item(DetailItem(f"Session {SESSION_ID}", (("Session", SESSION_ID),), None))
    _settle(qtbot)

    assert (window.width(), dock.width(), window.nav.width()) == sizes
    heading = window.detail.heading
    assert heading.height() > heading.fontMetrics().height() * 1.5  # wrapped onto a second line, in the dock
    assert SESSION_ID in heading.text().replace("\u200b", "")  # the whole id, only with room to break


def test_a_name_from_the_store_is_shown_as_written(qtbot, window, demo_store):
    _agents_page(qtbot, window, demo_store)
    title = 'Agent <img src="/etc/hostname"> & <b>co</b>'
    window.detail.show_item(DetailItem(title, (), None))
    _settle(qtbot)
    shown = window.detail.heading
    assert "<img" not in shown.text() and "&lt;img" in shown.text()
