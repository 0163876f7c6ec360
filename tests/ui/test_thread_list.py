"""The shared thread list (Agents, Projects, Chats) on the Daycare SQLite demo, the PGlite demo and
Linggen: keyed model, the store's filters and sorts, sessions beside, the detail of what was picked."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from tests.ui.conftest import open_and_wait, thread_rows

NAME, KIND, LIFECYCLE, USER, SESSIONS = 0, 1, 2, 3, 4


def _agents(qtbot, window, store, count=15):
    open_and_wait(qtbot, window, store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == count, timeout=10000)
    return pane


def _all(qtbot, pane):
    return thread_rows(qtbot, pane)


def test_agents_table_filters_and_opens_sessions(qtbot, window, demo_store, model_tester):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    threads = pane.threads
    model_tester(threads.model, pane.sessions.records.model)  # through every key load, chunk fetch and filter
    qtbot.waitUntil(lambda: threads.model.rowCount() == 15, timeout=5000)
    # rows arrive on demand (the view asked for the visible ones): then the real name replaces "…"
    qtbot.waitUntil(lambda: threads.model.record(0) is not None, timeout=5000)
    assert threads.model.index(0, NAME).data() == threads.model.record(0).values[NAME]
    assert {r.values[KIND] for r in _all(qtbot, pane)} == {"user", "cron", "system", "subagent", "app", "permanent"}
    assert threads.caption.text() == "<b>Agents</b> (15)" and threads.summary.text() == ""

    qtbot.waitUntil(lambda: "kind" in threads.choice_boxes, timeout=5000)
    kind = threads.choice_boxes["kind"]
    kind.setCurrentIndex(kind.findData("cron"))
    qtbot.waitUntil(lambda: 0 < threads.model.rowCount() < 15, timeout=5000)
    assert all(r.values[KIND] == "cron" for r in _all(qtbot, pane))
    n = threads.model.rowCount()
    assert threads.summary.text() == f"{n} agent{'s' if n != 1 else ''}"
    kind.setCurrentIndex(0)
    qtbot.waitUntil(lambda: threads.model.rowCount() == 15, timeout=5000)

    # selecting an agent details it, lists its sessions and selects the active one (the last one else)
    qtbot.waitUntil(lambda: threads.model.record(0) is not None, timeout=5000)
    threads.table.selectRow(0)
    agent = threads.model.record(0)
    qtbot.waitUntil(lambda: pane.sessions.records.model.rowCount() > 0
                    and pane.sessions.current() is not None
                    and pane.sessions.current().ref.thread_id == agent.key, timeout=5000)
    sessions = pane.sessions.records.visible_records()
    assert {s.ref.thread_id for s in sessions} == {agent.key}
    assert len(sessions) == agent.values[SESSIONS]
    assert pane.sessions.caption.text() == f"<b>Sessions</b> ({len(sessions)})"
    active = next((s for s in sessions if s.status == "active"), sessions[-1])
    assert pane.sessions.current() is active
    assert window.detail.item.title == f"Agent {agent.values[NAME]}"


def test_text_filter_runs_in_the_store(qtbot, window, demo_store):
    pane = _agents(qtbot, window, demo_store)
    pane.filter_box.setText("no-such-agent-anywhere")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 0, timeout=5000)
    assert pane.threads.summary.text() == "0 agents"


def test_time_range_filter(qtbot, window, demo_store):
    pane = _agents(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: pane.threads.time_box is not None, timeout=5000)
    # the shared demo store is dated at a fixed day in the past: nothing was updated "today"
    pane.threads.time_box.setCurrentIndex(pane.threads.time_box.findData(1))
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 0, timeout=5000)
    pane.threads.time_box.setCurrentIndex(0)
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 15, timeout=5000)


def _click_header(qtbot, table, column):
    header = table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def _column_texts(qtbot, pane, column):
    """What the user reads down one column, once every row has arrived."""
    _all(qtbot, pane)
    model = pane.threads.model
    return [model.index(r, column).data() for r in range(model.rowCount())]


def _assert_header_clicks_sort(qtbot, pane, columns):
    table = pane.threads.table
    header = table.horizontalHeader()
    numbers = lambda texts: [int(t.replace(",", "") or 0) for t in texts]  # noqa: E731
    for column, numeric in columns:
        for turn in range(2):  # once, then again the other way round
            before = pane.threads.model.keys()
            _click_header(qtbot, table, column)
            assert header.sortIndicatorSection() == column
            ascending = header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
            qtbot.waitUntil(lambda b=before: pane.threads.model.keys() != b, timeout=5000)
            texts = _column_texts(qtbot, pane, column)
            values = numbers(texts) if numeric else [t.casefold() for t in texts]
            assert values == sorted(values, reverse=not ascending), (column, texts)
            if turn == 0:
                assert len(set(values)) > 1  # the column really varies, so the order means something


def test_every_header_click_really_sorts(qtbot, window, demo_store, model_tester):
    pane = _agents(qtbot, window, demo_store)
    model_tester(pane.threads.model)  # through every re-sort below
    tokens = pane.threads.columns_titles.index("Tokens")
    _assert_header_clicks_sort(qtbot, pane, ((NAME, False), (tokens, True), (USER, False), (KIND, False)))
    # Sessions is counted per row read, not sorted by the store: a click leaves the arrow where it was
    header = pane.threads.table.horizontalHeader()
    shown = header.sortIndicatorSection()
    _click_header(qtbot, pane.threads.table, SESSIONS)
    assert header.sortIndicatorSection() == shown


def test_a_column_that_cannot_sort_shows_no_arrow(qtbot):
    from daycare_gui.ui.models.columns import Column
    from daycare_gui.ui.models.keyed_model import KeyedTableModel
    from daycare_gui.ui.widgets.tables import make_table, sort_only

    model = KeyedTableModel([Column("A", str), Column("B", str)], worker=None, fetch=dict, channel="t")
    asked = []
    model.sort_requested.connect(lambda column, order: asked.append(column))
    view = make_table(model)
    qtbot.addWidget(view)
    view.setSortingEnabled(True)
    view.horizontalHeader().setSortIndicator(0, Qt.SortOrder.AscendingOrder)
    sort_only(view, {0})
    view.horizontalHeader().setSortIndicator(1, Qt.SortOrder.AscendingOrder)  # what a click on "B" does
    assert view.horizontalHeader().sortIndicatorSection() == 0


def test_selecting_an_agent_describes_the_agent_not_its_session(qtbot, window, demo_store):
    pane = _agents(qtbot, window, demo_store)
    threads = pane.threads
    qtbot.waitUntil(lambda: threads.model.record(0) is not None, timeout=5000)
    threads.table.setFocus()
    threads.table.selectRow(0)
    agent = threads.model.record(0)
    qtbot.waitUntil(lambda: pane.sessions.current() is not None
                    and pane.sessions.current().ref.thread_id == agent.key, timeout=5000)  # ready for reading
    qtbot.waitUntil(lambda: pane.conversation.model.rowCount() > 0, timeout=5000)
    assert window.detail.item.title == f"Agent {agent.values[NAME]}"
    assert "### System prompt" in (window.detail.item.markdown or "")  # what the agent is told, beside

    # moving into the sessions list and onto a session describes that session
    table = pane.sessions.table
    session_row = table.currentIndex().row()
    table.setFocus()
    if pane.sessions.records.model.rowCount() > 1:
        qtbot.keyClick(table, Qt.Key.Key_Up if session_row > 0 else Qt.Key.Key_Down)
        # (with its messages: test_a_sessions_details_come_with_its_messages)
        qtbot.waitUntil(lambda: window.detail.item.title.startswith("Session "), timeout=5000)


def _agent_with_sessions(qtbot, window, demo_store):
    """The Agents page with an agent of two sessions or more selected, its conversation shown."""
    pane = _agents(qtbot, window, demo_store)
    threads = pane.threads
    qtbot.waitUntil(lambda: threads.model.record(0) is not None, timeout=5000)
    for row in range(threads.model.rowCount()):
        threads.table.selectRow(row)
        key = threads.model.record(row).key
        qtbot.waitUntil(lambda k=key: pane.sessions.current() is not None
                        and pane.sessions.current().ref.thread_id == k, timeout=5000)
        if pane.sessions.records.model.rowCount() > 1:
            break
    qtbot.waitUntil(lambda: pane.conversation.model.rowCount() > 0 and not window.worker.is_busy(), timeout=5000)
    return pane


def test_a_sessions_details_come_with_its_messages(qtbot, window, demo_store):
    """A session clicked is described in the Details dock with its messages, in one repaint, not at the
    click: painting the dock then held the interpreter lock while the worker read the session's page."""
    pane = _agent_with_sessions(qtbot, window, demo_store)
    described = window.detail.item
    table = pane.sessions.table
    other = 0 if table.currentIndex().row() != 0 else 1
    window.worker.hold()  # the session's page is still being read
    try:
        table.selectRow(other)
        assert window.detail.item is described  # not yet: it comes with the messages
    finally:
        window.worker.release()
    wanted = pane.sessions.current().ref
    qtbot.waitUntil(lambda: window.detail.item.title.startswith("Session "), timeout=5000)
    assert pane.conversation.ref == wanted and ("Session", wanted.session_id) in window.detail.item.fields


def test_a_session_left_before_its_messages_does_not_describe_itself_elsewhere(qtbot, window, demo_store):
    pane = _agent_with_sessions(qtbot, window, demo_store)
    table = pane.sessions.table
    other = 0 if table.currentIndex().row() != 0 else 1
    window.worker.hold()
    try:
        table.selectRow(other)
        window.show_section("overview")  # gone before the session's page was read
    finally:
        window.worker.release()
    qtbot.waitUntil(lambda: pane.conversation.ref == pane.sessions.current().ref
                    and not window.worker.is_busy(), timeout=5000)
    qtbot.wait(80)  # (past the view's LOADING_MS)
    assert window.detail.item is None or not window.detail.item.title.startswith("Session ")


def test_dead_agents_are_greyed_in_the_palettes_colour(qtbot, window, demo_store):
    from daycare_gui.ui.theme import colours

    pane = _agents(qtbot, window, demo_store)
    rows = _all(qtbot, pane)
    dead = [i for i, r in enumerate(rows) if r.values[LIFECYCLE] == "dead"]
    assert dead and len(dead) < len(rows)
    for i in range(len(rows)):
        brush = pane.threads.model.index(i, LIFECYCLE).data(Qt.ItemDataRole.ForegroundRole)
        if i in dead:
            assert brush.color().name() == colours().states["dead"]
        else:
            assert brush is None


def test_rows_past_the_first_screen_are_read_when_a_view_asks(qtbot, model_tester):
    from daycare_gui.ui.models.columns import Column
    from daycare_gui.ui.models.keyed_model import PLACEHOLDER, KeyedTableModel
    from daycare_gui.ui.panes.generic.thread_list import FIRST_ROWS
    from daycare_gui.ui.worker import DbWorker

    keys = [f"agent-{i:03d}" for i in range(500)]
    asked: list[list[str]] = []

    def fetch(ids):
        asked.append(list(ids))
        return {i: i.upper() for i in ids if i != "agent-003"}  # agent-003 was deleted meanwhile

    worker = DbWorker("test-keyed")
    try:
        model = KeyedTableModel([Column("Name", lambda name: name)], worker, fetch, channel="test")
        model.set_keys(keys)
        model.seed_rows(FIRST_ROWS, fetch(keys[:FIRST_ROWS]))  # read together with the keys
        model_tester(model)  # from here on (it reads the first row, which is there already)
        del asked[:]
        assert model.index(0, 0).data() == "AGENT-000" and model.is_loaded(FIRST_ROWS - 1)
        assert model.is_loaded(3) and model.record(3) is None  # gone: not asked for again
        assert not model.is_loaded(FIRST_ROWS)
        assert model.index(150, 0).data() == PLACEHOLDER  # shown before it is read
        qtbot.waitUntil(lambda: model.is_loaded(150), timeout=5000)
        assert model.index(150, 0).data() == "AGENT-150"
        assert asked == [keys[FIRST_ROWS:model.chunk_size]]  # the rest of the first chunk, once
    finally:
        worker.shutdown()


def test_a_database_the_agents_cannot_be_read_from_says_so(qtbot, window, fixture_copy):
    """A damaged daycare.db (its header whole, later pages not): the agent list says it could not be read
    instead of staying empty with nothing said."""
    root = fixture_copy("daycare-808af509")
    db = root / "daycare.db"
    data = bytearray(db.read_bytes())
    data[12288:24576] = b"\xa5" * 12288
    db.write_bytes(bytes(data))
    window.open_path(str(root))
    qtbot.waitUntil(lambda: window.store is not None, timeout=10000)
    window.show_section("agents")
    pane = window.pane("agents")
    summary = pane.threads.summary
    qtbot.waitUntil(lambda: summary.text().startswith("Could not read the agents:"), timeout=5000)
    assert "malformed" in summary.text() or "damaged" in summary.text()


def test_a_legacy_store_lists_its_agent_folders_with_the_same_filters(qtbot, window, fixture_copy):
    from daycare_gui.stores import api
    from daycare_gui.stores.registry import open_store

    root = fixture_copy("daycare-808af509", with_db=False)
    with open_store(root) as store:
        expected = len(store.capability(api.Conversations).threads())
    pane = _agents(qtbot, window, root, expected)
    qtbot.waitUntil(lambda: "kind" in pane.threads.choice_boxes, timeout=5000)
    assert "user" not in pane.threads.choice_boxes  # legacy agents have no users yet
    assert [r.values[NAME] for r in _all(qtbot, pane)]


# -- today's Daycare (PGlite) and another kind ------------------------------------------------------------
@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.cli import main
    from tests.pg_helpers import use_test_pglite

    use_test_pglite()
    root = tmp_path_factory.mktemp("pglite-threads") / "store"
    assert main(["demo", str(root), "--generation", "pglite", "--now", "2026-11-18T00:00Z", "--quiet"]) == 0
    return root


def test_pglite_agents_offer_the_same_filters_and_sorts(qtbot, window, pglite_demo, model_tester):
    from tests.pg_helpers import use_test_pglite

    use_test_pglite()
    window.open_path(str(pglite_demo))
    qtbot.waitUntil(lambda: window.store is not None, timeout=120_000)
    window.show_section("agents")
    pane = window.panes["agents"]
    threads = pane.threads
    model_tester(threads.model)
    qtbot.waitUntil(lambda: threads.model.rowCount() == 15, timeout=30000)  # (13, and 2 task agents)
    assert threads.columns_titles == ("Name", "Kind", "Lifecycle", "User", "Sessions", "Created", "Updated")
    qtbot.waitUntil(lambda: {"kind", "lifecycle", "user"} <= set(threads.choice_boxes), timeout=30000)
    user = threads.choice_boxes["user"]
    sam = user.findText("Sam")
    user.setCurrentIndex(sam)
    qtbot.waitUntil(lambda: 0 < threads.model.rowCount() < 15, timeout=30000)
    assert {r.values[USER] for r in _all(qtbot, pane)} == {"Sam"}
    user.setCurrentIndex(0)
    qtbot.waitUntil(lambda: threads.model.rowCount() == 15, timeout=30000)  # (13, and 2 task agents)
    _assert_header_clicks_sort(qtbot, pane, ((NAME, False), (KIND, False), (USER, False)))


def test_linggen_projects_list_sorts_and_filters_by_words(qtbot, window, tmp_path):
    from daycare_gui.stores.linggen import write_demo

    open_and_wait(qtbot, window, write_demo(tmp_path / "linggen"))
    window.show_section("conversations")
    pane = window.panes["conversations"]
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 1, timeout=10000)
    assert pane.threads.columns_titles == ("Name", "Workspace", "Sessions", "Updated")
    names = [r.values[NAME] for r in _all(qtbot, pane)]
    _assert_header_clicks_sort(qtbot, pane, ((NAME, False), (2, True)))
    pane.filter_box.setText(names[0])
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 1, timeout=5000)
    assert [r.values[NAME] for r in _all(qtbot, pane)] == [names[0]]


def test_the_agents_list_is_asked_for_before_the_page_around_it_is_built(qtbot, window, demo_store, monkeypatch):
    """The Agents page asks the worker for its filters, keys and first rows before it builds the conversation
    view and the session list, so the store is read while the page is made (on the 1M-record demo the list
    came up that much later when the read was asked for only once the page was whole)."""
    from daycare_gui.ui.panes.generic import conversations

    asked: list[str] = []
    built = conversations.ConversationView.__init__

    def view_built(self, *args, **kwargs):
        asked.append("view built")
        built(self, *args, **kwargs)

    monkeypatch.setattr(conversations.ConversationView, "__init__", view_built)
    open_and_wait(qtbot, window, demo_store)
    submit = window.worker.submit

    def submitted(channel, *args, **kwargs):
        asked.append(channel)
        return submit(channel, *args, **kwargs)

    monkeypatch.setattr(window.worker, "submit", submitted)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 15, timeout=10000)
    assert asked.index("thread-filters") < asked.index("view built")


def test_the_agents_columns_are_fitted_to_the_rows_on_screen(qtbot, window, demo_store, monkeypatch):
    """The columns are as wide as the first screen's cells: measuring them asks for no row below the screen
    (each cell measured costs the model and the delegate a call in Python; fifty rows of them were ~40 ms of
    the 1M-record demo's first list)."""
    from daycare_gui.ui.panes.generic.thread_list import ThreadList

    measured: list[int] = []
    fit = ThreadList._fit_columns

    def fitting(self):
        data = self.model.data

        def asked(index, role=Qt.ItemDataRole.DisplayRole):
            measured.append(index.row())
            return data(index, role)

        self.model.data = asked
        try:
            fit(self)
        finally:
            del self.model.data
        on_screen.append(self.table.rowAt(self.table.viewport().height() - 1))

    on_screen: list[int] = []
    monkeypatch.setattr(ThreadList, "_fit_columns", fitting)
    window.resize(1000, 480)  # fewer rows on screen than the demo's 15 agents
    _agents(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: bool(on_screen), timeout=10000)
    assert measured and 0 <= on_screen[0] < 14
    assert max(measured) <= on_screen[0]


def test_an_agents_page_opened_at_an_agent_measures_no_more_rows_than_a_table_does(
        qtbot, window, demo_store, monkeypatch):
    """Opened at an agent (a link, Jump To), the page is shown once the agent is selected: its columns are
    fitted while it is hidden, where Qt's "rows on screen" means every row (a 535 ms freeze on the 1M-record
    demo's 874 agents): the table's own limit holds then."""
    from daycare_gui.stores.daycare.demo.db_rows import build_small
    from daycare_gui.ui.panes.generic.thread_list import ThreadList
    from daycare_gui.ui.widgets import tables

    monkeypatch.setattr(tables, "SIZE_HINT_ROWS", 5)  # fewer than the demo's 15 agents
    fits: list[tuple[bool, int]] = []
    fit = ThreadList._fit_columns

    def fitting(self):
        data = self.model.data
        rows: list[int] = []

        def asked(index, role=Qt.ItemDataRole.DisplayRole):
            rows.append(index.row())
            return data(index, role)

        self.model.data = asked
        try:
            fit(self)
        finally:
            del self.model.data
        fits.append((self.table.isVisible(), max(rows, default=-1)))

    monkeypatch.setattr(ThreadList, "_fit_columns", fitting)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("agents", build_small().agents["cron_digest"])
    qtbot.waitUntil(lambda: bool(fits), timeout=10000)
    assert fits[0][0] is False  # fitted before the page was shown
    assert 0 <= fits[0][1] < 5
