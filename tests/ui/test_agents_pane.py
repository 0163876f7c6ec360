"""The agents pane over a demo store: keyed model, SQL filters, sessions, opening a session."""

from tests.ui.conftest import open_and_wait


def test_agents_table_filters_and_opens_sessions(qtbot, window, demo_store, model_tester):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    model_tester(pane.model, pane.sessions_model)  # through every key load, chunk fetch and filter below
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    # rows arrive on demand (the view asked for the visible ones): then the real name replaces "…"
    qtbot.waitUntil(lambda: pane.model.record(0) is not None, timeout=5000)
    assert pane.model.index(0, 0).data() == pane.model.record(0).name
    for row in range(pane.model.rowCount()):
        pane.model.index(row, 0).data()
    qtbot.waitUntil(lambda: all(pane.model.record(r) is not None for r in range(pane.model.rowCount())), timeout=5000)
    kinds = {pane.model.record(r).type for r in range(pane.model.rowCount())}
    assert kinds == {"user", "cron", "system", "subagent", "app", "permanent"}

    pane.kind_box.setCurrentIndex(pane.kind_box.findData("cron"))
    qtbot.waitUntil(lambda: 0 < pane.model.rowCount() < 15, timeout=5000)
    for row in range(pane.model.rowCount()):
        pane.model.index(row, 0).data()
    qtbot.waitUntil(lambda: all(pane.model.record(r) is not None for r in range(pane.model.rowCount())), timeout=5000)
    assert all(pane.model.record(r).type == "cron" for r in range(pane.model.rowCount()))
    n = pane.model.rowCount()
    assert pane.summary.text() == f"{n} agent{'s' if n != 1 else ''}"
    pane.kind_box.setCurrentIndex(0)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)

    # selecting an agent details it, lists its sessions and selects the active one
    qtbot.waitUntil(lambda: pane.model.record(0) is not None, timeout=5000)
    pane.table.selectRow(0)
    agent = pane.model.record(0)
    qtbot.waitUntil(lambda: pane.sessions_model.rowCount() > 0, timeout=5000)
    sessions = [pane.sessions_model.record(r) for r in range(pane.sessions_model.rowCount())]
    assert {s.agent_id for s in sessions} == {agent.id}
    assert pane.sessions_label.text() == f"Sessions ({len(sessions)}) — press Enter on a session to read it"
    active = next((s for s in sessions if s.is_active), sessions[-1])
    assert pane.sessions_model.record(pane.sessions.currentIndex().row()) is active
    assert window.detail.item.title == f"Agent {agent.name}"


def test_text_filter_runs_in_sql(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    pane.filter_box.setText("no-such-agent-anywhere")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 0, timeout=5000)
    assert pane.summary.text() == "0 agents"


def test_time_range_filter(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    # the shared demo store is dated at a fixed day in the past: nothing was updated "today"
    pane.time_box.setCurrentIndex(pane.time_box.findData(1))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 0, timeout=5000)
    pane.time_box.setCurrentIndex(0)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)


def _click_header(qtbot, pane, column):
    from PySide6.QtCore import QPoint, Qt

    header = pane.table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def _column_texts(qtbot, pane, column):
    """What the user reads down one column, once every row has arrived."""
    model = pane.model
    for row in range(model.rowCount()):
        model.index(row, 0).data()  # rows are fetched when first shown
    qtbot.waitUntil(lambda: all(model.record(r) is not None for r in range(model.rowCount())), timeout=5000)
    return [model.index(r, column).data() for r in range(model.rowCount())]


def test_every_header_click_really_sorts(qtbot, window, demo_store, model_tester):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    model_tester(pane.model)  # through every re-sort below
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    header = pane.table.horizontalHeader()
    numbers = lambda texts: [int(t.replace(",", "") or 0) for t in texts]  # noqa: E731

    for column, key in ((0, str.lower), (6, None), (3, str.lower), (1, None)):
        before = pane.model.keys()
        _click_header(qtbot, pane, column)
        assert header.sortIndicatorSection() == column
        ascending = header.sortIndicatorOrder().name == "AscendingOrder"
        qtbot.waitUntil(lambda b=before: pane.model.keys() != b, timeout=5000)
        texts = _column_texts(qtbot, pane, column)
        values = numbers(texts) if column == 6 else [key(t) if key else t for t in texts]
        assert values == sorted(values, reverse=not ascending), (column, texts)
        assert len(set(values)) > 1  # the column really varies, so the order means something

        before = pane.model.keys()
        _click_header(qtbot, pane, column)  # again: the other way round
        qtbot.waitUntil(lambda b=before: pane.model.keys() != b, timeout=5000)
        texts = _column_texts(qtbot, pane, column)
        values = numbers(texts) if column == 6 else [key(t) if key else t for t in texts]
        assert values == sorted(values, reverse=ascending), (column, texts)


def test_a_column_that_cannot_sort_shows_no_arrow(qtbot):
    from PySide6.QtCore import Qt

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
    from PySide6.QtCore import Qt

    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    qtbot.waitUntil(lambda: pane.model.record(0) is not None or pane.model.index(0, 0).data() is None, timeout=5000)
    qtbot.waitUntil(lambda: pane.model.record(0) is not None, timeout=5000)
    pane.table.setFocus()
    pane.table.selectRow(0)
    agent = pane.model.record(0)
    qtbot.waitUntil(lambda: pane.sessions_model.rowCount() > 0, timeout=5000)
    qtbot.waitUntil(lambda: pane.sessions.currentIndex().isValid(), timeout=5000)  # the active session, for Enter
    assert window.detail.item.title == f"Agent {agent.name}"

    # moving into the sessions list and onto a session describes that session
    session_row = pane.sessions.currentIndex().row()
    pane.sessions.setFocus()
    other = 0 if session_row != 0 else min(1, pane.sessions_model.rowCount() - 1)
    if other != session_row:
        qtbot.keyClick(pane.sessions, Qt.Key.Key_Up if other < session_row else Qt.Key.Key_Down)
    else:  # one session: a click on it
        rect = pane.sessions.visualRect(pane.sessions_model.index(session_row, 0))
        qtbot.mouseClick(pane.sessions.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.detail.item.title.startswith("Session ")


def test_dead_agents_are_greyed_in_the_palettes_colour(qtbot, window, demo_store):
    from PySide6.QtCore import Qt

    from daycare_gui.ui.theme import colours

    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    for row in range(pane.model.rowCount()):
        pane.model.index(row, 0).data()
    qtbot.waitUntil(lambda: all(pane.model.record(r) is not None for r in range(pane.model.rowCount())), timeout=5000)
    rows = range(pane.model.rowCount())
    dead = [r for r in rows if pane.model.record(r).lifecycle == "dead"]
    assert dead and len(dead) < len(rows)
    for row in rows:
        brush = pane.model.index(row, 2).data(Qt.ItemDataRole.ForegroundRole)
        if row in dead:
            assert brush.color().name() == colours().states["dead"]
        else:
            assert brush is None


def test_rows_past_the_first_screen_are_read_when_a_view_asks(qtbot, model_tester):
    from daycare_gui.ui.models.columns import Column
    from daycare_gui.ui.models.keyed_model import PLACEHOLDER, KeyedTableModel
    from daycare_gui.ui.panes.agents import FIRST_ROWS
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
    qtbot.waitUntil(lambda: pane.summary.text().startswith("Could not read the agents:"), timeout=5000)
    assert "malformed" in pane.summary.text() or "damaged" in pane.summary.text()
