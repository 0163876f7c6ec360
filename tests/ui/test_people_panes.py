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


# -- inbox --------------------------------------------------------------------------------------------
@pytest.fixture
def demo_clock(monkeypatch):
    """Ages and stuck flags against the demo's own 'now' (its items are posted relative to it)."""
    from daycare_gui.ui.panes.inbox import InboxPane

    monkeypatch.setattr(InboxPane, "clock", staticmethod(lambda: NOW_MS))


def test_inbox_oldest_first_with_stuck_marked(qtbot, window, demo_store, demo_clock, model_tester):
    pane = open_at(qtbot, window, demo_store, "inbox")
    model_tester(pane.model)  # through loading, the stuck-only filter and the text filter
    qtbot.waitUntil(lambda: pane.model.rowCount() == 9, timeout=5000)
    records = pane.model.records()
    assert [e.item.posted_at for e in records] == sorted(e.item.posted_at for e in records)
    states = [pane.model.index(r, 0).data(StateRole) for r in range(9)]
    assert states.count("stuck") == 5 and states[:5] == ["stuck"] * 5
    assert texts(pane.model, 1)[0] == "9d"
    assert texts(pane.model, 2).count("stuck") == 5
    assert all(name and "no such agent" not in name for name in texts(pane.model, 4))
    assert pane.summary.text().startswith("9 items, 5 stuck")
    assert isinstance(window.detail.item.raw, dict) and window.detail.item.raw["type"] == "reset"

    pane.stuck_only.setChecked(True)  # runs in SQL
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5, timeout=5000)
    assert all(e.stuck for e in pane.model.records())
    assert pane.summary.text().startswith("5 matching items, 5 stuck")
    pane.stuck_only.setChecked(False)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 9, timeout=5000)

    pane.filter_box.setText("leftover RICE")  # text inside one item
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1, timeout=5000)
    assert "leftover rice" in texts(pane.model, 5)[0]


def test_inbox_pages_by_key_as_it_scrolls(qtbot, window, demo_store, demo_clock, monkeypatch, model_tester):
    from daycare_gui.ui.panes import inbox as inbox_module

    monkeypatch.setattr(inbox_module, "PAGE", 4)
    pane = open_at(qtbot, window, demo_store, "inbox")
    model_tester(pane.model)  # through every page appended
    pane.table.resize(pane.table.width(), 600)  # room for more rows than a page: the view asks for the rest
    qtbot.waitUntil(lambda: pane.model.rowCount() == 9 and not pane.model.has_more(), timeout=5000)
    posted = [(e.item.posted_at, e.item.id) for e in pane.model.records()]
    assert posted == sorted(posted) and len(set(posted)) == 9  # in order, none twice, none missed
    assert pane.summary.text().startswith("9 items, 5 stuck")


def test_inbox_per_agent_and_open_agent(qtbot, window, demo_store, demo_clock):
    pane = open_at(qtbot, window, demo_store, "inbox")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 9 and pane.agent_box.count() > 1, timeout=5000)
    pane.agent_box.setCurrentIndex(1)
    agent_id = pane.agent_box.currentData()
    qtbot.waitUntil(lambda: pane.model.rowCount() < 9, timeout=5000)
    assert {e.agent_id for e in pane.model.records()} == {agent_id}

    pane.table.selectRow(0)
    pane.table.activated.emit(pane.table.currentIndex())  # double-click / Enter
    agents = window.panes["agents"]
    assert window.pane_stack.currentWidget() is agents
    qtbot.waitUntil(lambda: agents.model.key(agents.table.currentIndex().row()) == agent_id, timeout=5000)
