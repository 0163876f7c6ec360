"""Issue 18 #15: at 1024×700 the pages must still be readable — the Details dock only where there is
something to detail, navigation labels whole, and each page's key columns in view and unclipped. At
1400×900 the Cron page's schedule in words is whole too."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle

from tests.ui.conftest import open_and_wait

SIZE = (1024, 700)


def title_width(header, title: str) -> int:
    """What a header needs to show ``title`` whole: its text and the style's margins either side."""
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    return QFontMetrics(header.font()).horizontalAdvance(title) + 2 * margin


def column_problem(view, title: str) -> str | None:
    """Why ``title``'s column is not readable, or None when it is in view and wide enough."""
    header = view.header() if hasattr(view, "header") else view.horizontalHeader()
    model = view.model()
    column = next(c for c in range(model.columnCount())
                  if model.headerData(c, Qt.Orientation.Horizontal) == title)
    left = header.sectionViewportPosition(column)
    width = header.sectionSize(column)
    if width < title_width(header, title):
        return f"{title!r} is {width} px, its title needs {title_width(header, title)}"
    if left < 0 or left + width > view.viewport().width():
        return f"{title!r} spans {left}..{left + width}, outside the {view.viewport().width()} px the list shows"
    return None


@pytest.fixture
def small_window(qtbot, window, demo_store):
    window.resize(*SIZE)
    qtbot.waitUntil(lambda: window.width() == SIZE[0], timeout=2000)
    return window


def test_details_dock_only_where_there_is_something_to_detail(qtbot, small_window, demo_store):
    window = small_window
    assert window.detail_dock.isHidden()  # the welcome page
    open_and_wait(qtbot, window, demo_store)
    window.show_section("overview")
    assert window.detail_dock.isHidden()
    assert window.pane_stack.width() > 0.75 * window.width()  # the page has the window
    window.show_section("cron")
    assert not window.detail_dock.isHidden()
    # sized once the dock is laid out: a sixth of the window (at least 180 px), not a fifth or more
    qtbot.waitUntil(lambda: 180 <= window.detail_dock.width() <= window.width() // 5, timeout=2000)
    window.actions_.actions["toggle_detail"].trigger()  # F9: the user closes it…
    window.show_section("inbox")
    assert window.detail_dock.isHidden()  # …and it stays closed on the next page
    window.actions_.actions["toggle_detail"].trigger()
    assert not window.detail_dock.isHidden()
    window.show_section("overview")
    assert window.detail_dock.isHidden()


def test_navigation_labels_fit(qtbot, small_window, demo_store):
    window = small_window
    open_and_wait(qtbot, window, demo_store)
    nav = window.nav
    qtbot.waitUntil(lambda: "(" in nav.text_of("agents") and "(" in nav.text_of("storage"), timeout=5000)
    # a narrow start (a window first laid out small gave the tree ~150 px) and a large store's counts
    # (the 1M demo has 1,000 agents, tasks and prompts) make the labels longest
    total = sum(window.splitter.sizes())
    window.splitter.setSizes([130, total - 130])
    for nav_id in ("settings", "heartbeat", "system_prompts"):
        nav.set_count(nav_id, 1_000_000)
    assert nav.width() < 0.3 * window.width()  # and no wider than it needs
    metrics = QFontMetrics(nav.font())
    for row in range(nav.model().rowCount()):
        index = nav.model().index(row, 0)
        text = index.data()
        room = nav.visualRect(index).width()
        assert metrics.horizontalAdvance(text) + 8 <= room, f"{text!r} is cut ({room} px)"


@pytest.mark.parametrize("section, view_name, titles", [
    ("cron", "table", ("Task", "Enabled")),
    ("inbox", "table", ("Posted", "Agent", "Summary")),
    ("files", "tree", ("Name", "Size", "Modified")),
])
def test_key_columns_in_view_at_1024x700(qtbot, small_window, demo_store, section, view_name, titles):
    window = small_window
    open_and_wait(qtbot, window, demo_store)
    window.show_section(section)
    pane = window.panes[section]
    view = getattr(pane, view_name)
    qtbot.waitUntil(lambda: view.model().rowCount() > 0, timeout=5000)
    qtbot.waitUntil(lambda: view.viewport().width() > 0, timeout=2000)
    if section == "files":
        view.expandAll()
    # the layout settles (the dock takes its width, the long column the rest) after the rows arrive
    try:
        qtbot.waitUntil(lambda: not any(column_problem(view, t) for t in titles), timeout=3000)
    except qtbot.TimeoutError:
        pass  # the assertion below says which column and why
    assert [column_problem(view, t) for t in titles] == [None] * len(titles)


def test_cron_schedule_in_words_is_whole_at_1400x900(qtbot, window, demo_store):
    """QA: the In words column (cron-descriptor's description) was held at 220 px, behind the cron
    expression, and cut by the list's edge; its cells had no tooltip."""
    window.resize(1400, 900)
    qtbot.waitUntil(lambda: window.width() == 1400, timeout=2000)
    open_and_wait(qtbot, window, demo_store)
    window.show_section("cron")
    view = window.panes["cron"].table
    model = view.model()
    qtbot.waitUntil(lambda: model.rowCount() > 0 and view.viewport().width() > 0, timeout=5000)
    column = next(c for c in range(model.columnCount())
                  if model.headerData(c, Qt.Orientation.Horizontal) == "In words")
    header = view.horizontalHeader()
    texts = [model.index(r, column).data() for r in range(model.rowCount())]
    assert any(len(t) > 40 for t in texts)  # the demo has a long one ("…, on day 4 of the month, only in March")

    def cut() -> str | None:
        where = column_problem(view, "In words")
        if where:
            return where
        need = view.sizeHintForColumn(column)  # what the widest cell's text needs, as the view measures it
        return f"'In words' is {header.sectionSize(column)} px, its text needs {need}" \
            if header.sectionSize(column) < need else None

    try:
        qtbot.waitUntil(lambda: cut() is None, timeout=3000)
    except qtbot.TimeoutError:
        pass  # the assertion below says why
    assert cut() is None
    assert [model.index(r, column).data(Qt.ItemDataRole.ToolTipRole) for r in range(model.rowCount())] == texts
