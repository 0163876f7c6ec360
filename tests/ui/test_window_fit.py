"""Issue #34: what a smaller (1024×700) or larger (1400×900) window leaves readable — the navigation's labels
whole, a preview of each record beside the conversation, the Details dock giving way before the page does,
the Search page's status line never widening the page — and a window that opens sized to the screen."""

from __future__ import annotations

import pytest

from tests.ui.conftest import open_and_wait
from tests.ui.test_record_numbers import _session_with_ids_unlike_positions

SIZES = [(1024, 700), (1400, 900)]


@pytest.fixture(autouse=True)
def private_index(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))


def _sized(qtbot, window, size):
    window.resize(*size)
    qtbot.waitUntil(lambda: window.width() == size[0], timeout=2000)


def _settle(qtbot, window):
    qtbot.waitUntil(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), timeout=15000)
    qtbot.wait(50)


def _labels_whole(window) -> list[str]:
    """The navigation labels a user sees cut: a row wider, as the view's own delegate draws it (icon, text
    and the style's margins), than the tree's viewport leaves it."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    nav = window.nav
    option = QStyleOptionViewItem()
    nav.initViewItemOption(option)
    cut = []
    model = nav.model()
    for row in range(model.rowCount()):
        index = model.index(row, 0)
        if nav.isRowHidden(row, index.parent()):
            continue
        rect = nav.visualRect(index)
        if rect.left() + nav.itemDelegate().sizeHint(option, index).width() > nav.viewport().width():
            cut.append(index.data())
    return cut


@pytest.mark.parametrize("size", SIZES)
def test_navigation_keeps_its_labels_and_records_keep_a_preview(size, qtbot, window, demo_store):
    _sized(qtbot, window, size)
    open_and_wait(qtbot, window, demo_store)
    _settle(qtbot, window)
    assert window.nav.width() >= window.nav.needed_width(), _labels_whole(window)
    assert _labels_whole(window) == []
    agent_id, session_id = _session_with_ids_unlike_positions(demo_store)
    window.navigate("history", (agent_id, session_id, None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane and pane.model.rowCount() > 2, timeout=5000)
    _settle(qtbot, window)
    assert window.nav.width() >= window.nav.needed_width(), _labels_whole(window)
    metrics, time_w, badge_w = pane.list.rows._measure(pane.list.font())  # the row's time and kind columns
    room = pane.list.viewport().width() - 4 - (6 + time_w + badge_w + 8)  # what is left for its preview
    chars = room // metrics.averageCharWidth()
    assert chars >= (12 if size[0] < 1280 else 24), f"a record's preview shows ~{chars} characters"
    assert window.detail_dock.width() <= max(200, window.width() // 5)


def test_the_details_dock_gives_way_first_when_the_window_narrows(qtbot, window, demo_store):
    _sized(qtbot, window, (1400, 900))
    open_and_wait(qtbot, window, demo_store)
    window.show_section("cron")
    _settle(qtbot, window)
    wide_dock = window.detail_dock.width()
    _sized(qtbot, window, (1024, 700))
    _settle(qtbot, window)
    assert window.detail_dock.width() <= max(200, window.width() // 5) < wide_dock
    assert window.nav.width() >= window.nav.needed_width(), _labels_whole(window)


@pytest.mark.parametrize("size", SIZES)
def test_the_search_status_line_never_widens_the_page(size, qtbot, window, demo_store):
    _sized(qtbot, window, size)
    open_and_wait(qtbot, window, demo_store)
    window.actions_.actions["search"].trigger()
    pane = window.panes["search"]
    qtbot.waitUntil(lambda: "messages" in pane.index_label.text() and pane.build_button.isEnabled(), timeout=10000)
    pane._set_building(True)  # the progress row, as an index build shows it, with a long status line
    pane.index_label.setText("Search index: 1,234,567 records (added 1,234,567 in 123.4 s). Rebuilt because "
                             "the index was written by another version of daycare-gui and could not be read")
    _settle(qtbot, window)
    assert window.width() == size[0]
    assert window.nav.width() >= window.nav.needed_width(), _labels_whole(window)
    pane._set_building(False)
    _settle(qtbot, window)
    assert window.nav.width() >= window.nav.needed_width(), _labels_whole(window)


def test_details_follow_the_selection_when_the_hits_change(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.actions_.actions["search"].trigger()
    pane = window.panes["search"]
    qtbot.waitUntil(lambda: "messages" in pane.index_label.text() and pane.build_button.isEnabled(), timeout=10000)

    def search(text):
        pane.last_results = None
        pane.query_box.setText(text)
        pane.query_box.cancel_pending()
        pane.run_search()
        qtbot.waitUntil(lambda: pane.last_results is not None and pane.last_results.query == text, timeout=5000)

    search("lisbon")
    agent = pane.model.index(0, 0)
    hit = pane.model.index(0, 0, pane.model.index(0, 0, agent))
    pane.tree.setCurrentIndex(hit)
    qtbot.waitUntil(lambda: window.detail.item is not None and "Match" in window.detail.item.title, timeout=5000)
    search("groceries")  # other hits: the one in Details is no longer among them
    current = pane.model.item(pane.tree.currentIndex())
    shown = window.detail.item
    if current is None:
        assert shown is None or "Match" not in shown.title, shown.title
    else:
        assert shown is not None and str(current.record_id) in shown.title


def test_the_window_opens_sized_to_the_screen(qtbot, settings):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    make_application()
    w = MainWindow(settings)  # no saved geometry: a first start
    qtbot.addWidget(w)
    screen = w.screen().availableGeometry()
    assert w.width() <= screen.width() and w.height() <= screen.height()
    assert w.width() >= min(screen.width(), 960) * 0.85 and w.height() >= min(screen.height(), 640) * 0.85
    w.close()
