"""Users and Inbox pages over the demo store: what a user sees, and where the links lead."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from daycare_gui.core.demo.ids import NOW_MS
from daycare_gui.ui.models.roles import StateRole
from tests.ui.conftest import open_and_wait


def open_at(qtbot, window, path, section):
    open_and_wait(qtbot, window, path)
    window.show_section(section)
    return window.panes[section]


def texts(model, column):
    return [model.index(r, column).data() for r in range(model.rowCount())]


# -- users --------------------------------------------------------------------------------------------
def test_users_owner_first_with_connector_keys(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "users")
    model_tester(pane.records.model, pane.records.proxy)  # through loading and filtering
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 4, timeout=5000)
    view = pane.records.proxy
    assert texts(view, 0)[0] == "Alex Rivera"
    assert texts(view, 1) == ["★ owner", "", "", ""]
    assert texts(view, 3)[0] == "telegram:42, whatsapp:+15550104477"
    assert texts(view, 4)[texts(view, 0).index("Mia Rivera")] == "Alex Rivera"  # parent shown by name
    assert pane.summary.text().startswith("4 users")
    assert window.detail.item is not None and window.detail.item.title == "User Alex Rivera (owner)"
    assert pane.agents_button.text() == "Show agents (10)"

    pane.filter_box.setText("discord")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 1, timeout=2000)
    assert texts(view, 0) == ["Jordan Lee"]


def test_user_navigates_to_their_agents_and_home(qtbot, window, demo_store):
    pane = open_at(qtbot, window, demo_store, "users")
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 4, timeout=5000)
    sam = texts(pane.records.proxy, 0).index("Sam Okafor")
    pane.table.selectRow(sam)
    sam_id = pane.current_user().id
    qtbot.keyClick(pane.table, Qt.Key.Key_Return)  # Enter = show this user's agents
    agents = window.panes["agents"]
    assert window.pane_stack.currentWidget() is agents
    assert agents.user_box.currentData() == sam_id
    qtbot.waitUntil(lambda: agents.model.rowCount() == 3, timeout=5000)
    for r in range(3):
        agents.model.index(r, 0).data()  # rows are fetched when first shown
    qtbot.waitUntil(lambda: all(agents.model.record(r) is not None for r in range(3)), timeout=5000)
    assert {agents.model.record(r).user_id for r in range(3)} == {sam_id}

    window.show_section("users")
    pane.files_button.click()
    files = window.panes["files"]
    assert window.pane_stack.currentWidget() is files
    qtbot.waitUntil(lambda: files.tree.currentIndex().isValid(), timeout=5000)
    assert sam_id in files.tree.currentIndex().data()


# -- inbox (the shared list pane) ---------------------------------------------------------------------
@pytest.fixture
def demo_clock(monkeypatch):
    """Ages and stuck flags against the demo's own 'now' (its items are posted relative to it)."""
    from daycare_gui.stores.daycare.sqlite.collections import DaycareLists

    monkeypatch.setattr(DaycareLists, "clock", staticmethod(lambda: NOW_MS))


def _inbox(qtbot, window, store):
    pane = open_at(qtbot, window, store, "inbox")
    view = pane.views["inbox"]
    return pane, view


def _loaded(view, n):
    return view.model.rowCount() == n and all(view.model.record(r) is not None for r in range(n))


def test_inbox_oldest_first_with_stuck_marked(qtbot, window, demo_store, demo_clock, model_tester):
    pane, view = _inbox(qtbot, window, demo_store)
    model_tester(view.model)  # through loading, the stuck-only filter and the text filter
    qtbot.waitUntil(lambda: _loaded(view, 9), timeout=5000)
    records = [view.model.record(r) for r in range(9)]
    assert [r.values[0] for r in records] == sorted(r.values[0] for r in records)
    states = [view.model.index(r, 0).data(StateRole) for r in range(9)]
    assert states.count("stuck") == 5 and states[:5] == ["stuck"] * 5
    assert texts(view.model, 1)[0] == "9d"
    assert texts(view.model, 2).count("stuck") == 5
    assert all(name and "no such agent" not in name for name in texts(view.model, 4))
    assert view.totals.text() == "9 items, 5 stuck"
    assert isinstance(window.detail.item.raw, dict) and window.detail.item.raw["type"] == "reset"

    qtbot.waitUntil(lambda: "stuck" in view.flags, timeout=5000)
    view.flags["stuck"].setChecked(True)  # runs in SQL
    qtbot.waitUntil(lambda: _loaded(view, 5), timeout=5000)
    assert all(view.model.record(r).flag == "stuck" for r in range(5))
    assert view.totals.text() == "5 items, 5 stuck (filtered)"
    view.flags["stuck"].setChecked(False)
    qtbot.waitUntil(lambda: view.model.rowCount() == 9, timeout=5000)

    view.filter_box.setText("leftover RICE")  # text inside one item
    qtbot.waitUntil(lambda: _loaded(view, 1), timeout=5000)
    assert "leftover rice" in texts(view.model, 5)[0]


def test_inbox_reads_its_rows_in_chunks_as_the_view_asks(qtbot, window, demo_store, demo_clock, monkeypatch,
                                                         model_tester):
    from daycare_gui.ui.panes.generic import listing

    monkeypatch.setattr(listing, "FIRST", 4)  # the rest come as the view shows them
    pane, view = _inbox(qtbot, window, demo_store)
    model_tester(view.model)
    qtbot.waitUntil(lambda: _loaded(view, 9), timeout=5000)
    posted = [(view.model.record(r).values[0], view.model.record(r).key) for r in range(9)]
    assert posted == sorted(posted) and len(set(posted)) == 9  # in order, none twice, none missed
    assert view.totals.text() == "9 items, 5 stuck"


def test_inbox_per_agent_and_open_agent(qtbot, window, demo_store, demo_clock):
    pane, view = _inbox(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: _loaded(view, 9) and "agent" in view.choices, timeout=5000)
    box = view.choices["agent"]
    box.setCurrentIndex(1)
    agent_id = box.currentData()
    qtbot.waitUntil(lambda: 0 < view.model.rowCount() < 9 and view.model.record(0) is not None, timeout=5000)
    assert {view.model.record(r).links[0].value for r in range(view.model.rowCount())} == {agent_id}

    view.table.selectRow(0)
    view.table.activated.emit(view.table.currentIndex())  # double-click / Enter follows the row's first link
    agents = window.panes["agents"]
    assert window.pane_stack.currentWidget() is agents
    qtbot.waitUntil(lambda: agents.model.key(agents.table.currentIndex().row()) == agent_id, timeout=5000)


def test_inbox_opens_on_an_agents_items(qtbot, window, demo_store, demo_clock):
    """A jump to the inbox with an agent id narrows it to that agent's items (the old deep link)."""
    pane, view = _inbox(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: _loaded(view, 9), timeout=5000)
    agent_id = view.model.record(0).links[0].value
    pane.open_item(agent_id)
    qtbot.waitUntil(lambda: view.model.rowCount() < 9 and view.model.record(0) is not None, timeout=5000)
    assert view.choices["agent"].currentData() == agent_id
