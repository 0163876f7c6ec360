"""A page's reading pane beside its list says what to do while nothing is selected: a newcomer saw a blank
white box beside the cron tasks, the memory documents and the users, and could not tell it was a viewer."""

from __future__ import annotations

from tests.ui.conftest import open_and_wait


def test_each_reading_pane_says_what_to_select_until_a_row_is(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    viewers = {"cron": "view", "memory": "preview", "collection:users": "viewer", "processes": "viewer"}
    for section, name in viewers.items():
        window.show_section(section)
        pane = window.pane(section)
        viewer = getattr(pane, name, None) or getattr(pane.current_view(), name)  # (a list's own viewer)
        assert viewer.toPlainText() == "", section  # nothing selected: the hint shows
        assert viewer.placeholderText().startswith("Select a "), section
    # a selected task fills it (the hint goes)
    window.show_section("cron")
    pane = window.pane("cron")
    qtbot.waitUntil(lambda: pane.table.model().rowCount() > 0, timeout=10000)
    pane.table.selectRow(0)
    qtbot.waitUntil(lambda: pane.view.toPlainText() != "", timeout=10000)
