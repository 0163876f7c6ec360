"""Users and Inbox pages over the demo stores: what a user sees, and where the links lead."""

from __future__ import annotations

import pytest

from daycare_gui.stores.daycare.demo.ids import NOW_MS
from daycare_gui.ui.models.roles import StateRole
from tests.ui.conftest import open_and_wait, thread_rows


def open_at(qtbot, window, path, section):
    open_and_wait(qtbot, window, path)
    window.show_section(section)
    return window.panes[section]


def texts(model, column):
    return [model.index(r, column).data() for r in range(model.rowCount())]


# -- users (the shared list pane, on the SQLite demo and the PGlite demo) ------------------------------------
def tree_texts(pane, column):
    tree = pane.tree
    return [tree.topLevelItem(i).text(column) for i in range(tree.topLevelItemCount())
            if not tree.topLevelItem(i).isHidden()]


def _users(qtbot, window, path, count):
    open_and_wait(qtbot, window, path)
    window.show_section("collection:users")
    pane = window.panes["collection:users"]
    qtbot.waitUntil(lambda: pane.tree.topLevelItemCount() == count, timeout=10000)
    return pane


def test_users_owner_first_with_connector_keys(qtbot, window, demo_store):
    pane = _users(qtbot, window, demo_store, 4)
    assert tree_texts(pane, 0)[0] == "Alex Rivera"  # the owner first, whatever the names
    assert tree_texts(pane, 1) == ["★ owner", "", "", ""]
    assert tree_texts(pane, 3)[0] == "telegram:42, whatsapp:+15550104477"
    assert tree_texts(pane, 4)[tree_texts(pane, 0).index("Mia Rivera")] == "Alex Rivera"  # parent shown by name
    assert tree_texts(pane, 5)[0] == "10"  # the owner's agents
    assert pane.summary.text() == "4 rows"
    assert window.nav.text_of("collection:users").endswith("(4)")

    pane.filter_box.setText("discord")
    qtbot.waitUntil(lambda: len(tree_texts(pane, 0)) == 1, timeout=2000)
    assert tree_texts(pane, 0) == ["Jordan Lee"]


def _follow_agents_link(qtbot, window, pane, name, section):
    """Select ``name`` and follow its first link ("Agents of …"): the thread list filtered to them."""
    from PySide6.QtCore import QUrl

    pane.filter_box.clear()
    item = next(pane.tree.topLevelItem(i) for i in range(pane.tree.topLevelItemCount())
                if pane.tree.topLevelItem(i).text(0) == name)
    pane.tree.setCurrentItem(item)
    row = pane.current_row()
    assert row.links[0].label.startswith(f"Agents of {name}")
    pane._link(QUrl("link:0"))  # what a click on the link in the viewer does
    agents = window.panes[section]
    assert window.pane_stack.currentWidget() is agents
    return row.key, agents


def test_user_navigates_to_their_agents(qtbot, window, demo_store):
    from PySide6.QtCore import Qt

    pane = _users(qtbot, window, demo_store, 4)
    sam_id, agents = _follow_agents_link(qtbot, window, pane, "Sam Okafor", "agents")
    qtbot.waitUntil(lambda: "user" in agents.threads.choice_boxes
                    and agents.threads.choice_boxes["user"].currentData() == sam_id, timeout=5000)
    qtbot.waitUntil(lambda: agents.threads.model.rowCount() == 3, timeout=5000)
    assert {r.raw["user_id"] for r in thread_rows(qtbot, agents)} == {sam_id}
    assert agents.threads.summary.text() == "3 agents"

    # Enter on a user follows the same link
    window.show_section("collection:users")
    jordan = next(pane.tree.topLevelItem(i) for i in range(4) if pane.tree.topLevelItem(i).text(0) == "Jordan Lee")
    pane.tree.setCurrentItem(jordan)
    pane.tree.setFocus()
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    assert window.pane_stack.currentWidget() is agents
    qtbot.waitUntil(lambda: agents.threads.choice_boxes["user"].currentData() == pane.current_row().key, timeout=5000)
    qtbot.waitUntil(lambda: agents.threads.model.rowCount() == 1, timeout=5000)
    # (No "home files" link yet: it comes with the Files capability.)


def test_pglite_users_read_like_sqlite_ones_and_lead_to_their_agents(qtbot, window, pglite_demo):
    from tests.pg_helpers import use_test_pglite

    use_test_pglite()
    window.open_path(str(pglite_demo))
    qtbot.waitUntil(lambda: window.store is not None, timeout=120_000)
    window.show_section("collection:users")
    pane = window.panes["collection:users"]
    qtbot.waitUntil(lambda: pane.tree.topLevelItemCount() == 2, timeout=30000)
    headers = [pane.tree.headerItem().text(i) for i in range(pane.tree.columnCount())]
    assert headers == ["Name", "Role", "Nametag", "Connector keys", "Parent user", "Agents", "Created", "Id"]
    assert tree_texts(pane, 0) == ["Alex Rivera", "Sam"]  # created first, first (no owner flag any more)
    assert tree_texts(pane, 3) == ["telegram:1001", "telegram:2002"]
    assert tree_texts(pane, 5) == ["10", "5"]  # (8, and the 2 task agents of the demo's runs)
    sam_id, agents = _follow_agents_link(qtbot, window, pane, "Sam", "agents")
    qtbot.waitUntil(lambda: agents.threads.model.rowCount() == 5, timeout=30000)
    assert {r.values[3] for r in thread_rows(qtbot, agents)} == {"Sam"}


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.cli import main
    from tests.pg_helpers import use_test_pglite

    use_test_pglite()
    root = tmp_path_factory.mktemp("pglite-users") / "store"
    assert main(["demo", str(root), "--generation", "pglite", "--now", "2026-11-18T00:00Z", "--quiet"]) == 0
    return root


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
    # (the page is shown once the agent's conversation is ready to paint, or after PAINT_HOLD_MS on a busy
    # machine, when its agent is selected a moment later: Pane.opens_before_shown)
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is agents
                    and agents.threads.current_key() == agent_id, timeout=5000)


def test_inbox_opens_on_an_agents_items(qtbot, window, demo_store, demo_clock):
    """A jump to the inbox with an agent id narrows it to that agent's items (the old deep link)."""
    pane, view = _inbox(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: _loaded(view, 9), timeout=5000)
    agent_id = view.model.record(0).links[0].value
    pane.open_item(agent_id)
    qtbot.waitUntil(lambda: view.model.rowCount() < 9 and view.model.record(0) is not None, timeout=5000)
    assert view.choices["agent"].currentData() == agent_id
