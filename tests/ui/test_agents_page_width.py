"""The Agents page (threads, sessions and the conversation side by side) at its narrowest fits a 1280 px
window beside the navigation and the Details dock (#33): its filter bar and the conversation's buttons wrap
instead of widening the page, so the navigation keeps every label whole and the window stays on screen.
On the Daycare SQLite demo, the PGlite demo and CianaParrot."""

from __future__ import annotations

import pytest

from tests.pg_helpers import use_test_pglite
from tests.ui.conftest import open_and_wait
from tests.ui.test_window_fit import _labels_whole

PG_NOW = 1_795_000_000_000


def _agents_page_fits(qtbot, window, store, section, timeout=15000):
    open_and_wait(qtbot, window, store, timeout=timeout)
    window.show_section(section)
    pane = window.pane(section)
    qtbot.waitUntil(lambda: pane.conversation.model.rowCount() > 0, timeout=timeout)
    window.details.dock.show()
    qtbot.waitUntil(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), timeout=timeout)
    qtbot.wait(100)
    nav, dock = window.nav.needed_width(), window.detail_dock.minimumSizeHint().width()
    page = pane.minimumSizeHint().width()
    assert nav + page + dock <= 1280 - 40, (nav, page, dock)  # (40: the splitter handles and frames)
    assert window.width() == 1280 and window.detail_dock.isVisible()
    assert window.nav.width() >= window.nav.needed_width(), _labels_whole(window)
    # and the conversation keeps room to be read beside the message list (it had 120 px)
    assert pane.conversation.conversation.width() >= 200, pane.conversation.conversation.width()


def test_daycare_sqlite_agents_page_fits(qtbot, window, demo_store):
    _agents_page_fits(qtbot, window, demo_store, "agents")


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite-width") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=PG_NOW)
    return folder


def test_daycare_pglite_agents_page_fits(qtbot, window, pglite_demo):
    use_test_pglite()
    _agents_page_fits(qtbot, window, pglite_demo, "conversations", timeout=60000)


def test_cianaparrot_chats_page_fits(qtbot, window, tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    write_demo(tmp_path / "ciana")
    _agents_page_fits(qtbot, window, tmp_path / "ciana", "conversations")
