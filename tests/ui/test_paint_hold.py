"""Opening a session from another page: the window keeps showing the previous page until the session's
first page is read (a moment), then switches to it with the page in it — never an empty page first. A
read that does not come back in time does not keep the previous page up; a page chosen meanwhile wins."""

from __future__ import annotations

from tests.ui.conftest import open_and_wait


def _a_session(window):
    return window.opened.core.db.fetch("SELECT agent_id, id FROM sessions ORDER BY id LIMIT 1")[0]


def _on_the_overview(qtbot, window, store, monkeypatch, hold_ms: int) -> None:
    """``store`` open on the Overview, with a page waiting at most ``hold_ms`` for its item."""
    monkeypatch.setattr(type(window), "PAINT_HOLD_MS", hold_ms)
    open_and_wait(qtbot, window, store)
    window.show_section("overview")


def _switches(window) -> list:
    """(page shown, whether the History pane had its rows then) each time the window switches page."""
    seen = []

    def changed(_index):
        pane = window.pane_stack.currentWidget()
        history = window.panes.get("history")
        seen.append((pane, history is not None and history.model.rowCount() > 0 and history.model.is_loaded(0)))

    window.pane_stack.currentChanged.connect(changed)
    return seen


def test_the_page_is_shown_once_the_session_is_read(qtbot, window, demo_store, monkeypatch):
    _on_the_overview(qtbot, window, demo_store, monkeypatch, 60_000)  # only the read can end the wait here
    overview = window.panes["overview"]
    window.nav.setFocus()
    agent_id, session_id = _a_session(window)
    switches = _switches(window)
    window.worker.hold()  # the read waits, as a slow disk would make it
    window.navigate("history", (agent_id, session_id, None))
    pane = window.panes["history"]
    assert window.pane_stack.currentWidget() is overview  # the Overview stays up; nothing half-built shows
    assert window.detail_dock.isHidden()  # nor does the Details dock appear beside it
    window.worker.release()
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane, timeout=10000)
    assert switches == [(pane, True)]  # one switch, with the session's rows already in it
    assert pane.model.session_id == session_id and not window.detail_dock.isHidden()
    assert pane.list.hasFocus()  # the keyboard goes on in the records, though they were read while hidden
    qtbot.waitUntil(lambda: pane.list.rows.rows_rendered > 0, timeout=5000)  # and painted with them


def test_a_read_that_does_not_come_back_does_not_keep_the_old_page(qtbot, window, demo_store, monkeypatch):
    _on_the_overview(qtbot, window, demo_store, monkeypatch, 50)
    agent_id, session_id = _a_session(window)
    window.worker.hold()
    try:
        window.navigate("history", (agent_id, session_id, None))
        pane = window.panes["history"]
        assert window.pane_stack.currentWidget() is not pane
        qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane, timeout=5000)  # shown, read or not
        assert pane.model.session_id != session_id  # (the read really had not come)
    finally:
        window.worker.release()


def test_a_session_that_cannot_be_read_is_shown_too(qtbot, window, demo_store, monkeypatch):
    _on_the_overview(qtbot, window, demo_store, monkeypatch, 60_000)
    window.navigate("history", ("no-agent", "no-such-session", None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: "No session" in pane.heading.text(), timeout=5000)
    assert window.pane_stack.currentWidget() is pane  # with its message, at once


def test_a_page_chosen_while_waiting_wins(qtbot, window, demo_store, monkeypatch):
    """The user opens a session, then picks another page before it is read: the session's read arriving
    late must not pull the window back to it."""
    _on_the_overview(qtbot, window, demo_store, monkeypatch, 60_000)
    agent_id, session_id = _a_session(window)
    window.worker.hold()
    window.navigate("history", (agent_id, session_id, None))
    window.show_section("agents")
    agents = window.panes["agents"]
    assert window.pane_stack.currentWidget() is agents
    window.worker.release()
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: pane.model.session_id == session_id, timeout=10000)
    qtbot.wait(20)
    assert window.pane_stack.currentWidget() is agents


def test_the_shared_conversations_page_waits_until_its_messages_are_shown(qtbot, window, chatlog, monkeypatch):
    """Another kind's conversation: the page selects the thread, then the session, then reads its messages
    (three reads); the window switches to it once the messages are there — never half-filled."""
    from daycare_gui.stores.records import SessionRef

    _on_the_overview(qtbot, window, chatlog, monkeypatch, 60_000)
    overview = window.panes["overview"]
    window.worker.hold()
    window.navigate("conversations", SessionRef("home", "b"))
    pane = window.panes["conversations"]
    assert window.pane_stack.currentWidget() is overview
    shown_with = []
    window.pane_stack.currentChanged.connect(lambda _i: shown_with.append(pane.shown_text()))
    window.worker.release()
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane, timeout=10000)
    assert shown_with and "again" in shown_with[0]  # switched to with the session's messages in it
    window.show_section("overview")
    window.navigate("conversations", "no-such-thread")  # nothing to read: shown at once
    assert window.pane_stack.currentWidget() is pane


def test_a_long_session_is_counted_after_its_first_page_is_painted(qtbot, window, tmp_path, monkeypatch):
    """Counting a long session is work on the other core; started while the page paints, it slowed that
    paint by half on a two-core machine. So the count starts once the list has painted."""
    from daycare_gui.stores.daycare.demo import write_demo
    from daycare_gui.ui.models import session_reads
    from tests.core.test_history_pages import BIG_SESSION, add_big_session

    root = tmp_path / "daycare"
    write_demo(root)
    agent_id = add_big_session(root, 1_000)
    open_and_wait(qtbot, window, root)
    first_id = window.opened.core.db.fetch("SELECT min(id) FROM session_history WHERE session_id = :s",
                                     {"s": BIG_SESSION})[0][0]
    pane = window.pane("history")
    drawn_when_counted = []
    real = session_reads.count_with_last_page

    def count(cap, ref, size):
        drawn_when_counted.append(pane.list.rows.rows_rendered)
        return real(cap, ref, size)

    monkeypatch.setattr(session_reads, "count_with_last_page", count)
    before = pane.list.rows.rows_rendered
    window.navigate("history", (agent_id, BIG_SESSION, first_id))  # at the first record: shown, then counted
    qtbot.waitUntil(lambda: bool(drawn_when_counted) and pane.model.rowCount() == 1_000, timeout=10000)
    assert drawn_when_counted[0] > before  # the rows were on screen before the count began


def test_closing_the_store_while_a_page_waits(qtbot, window, demo_store, monkeypatch):
    """The store is closed while a session is being read: the waiting page goes with the store, and
    the end of the wait finds nothing to show (no error, the welcome page stays)."""
    _on_the_overview(qtbot, window, demo_store, monkeypatch, 50)
    agent_id, session_id = _a_session(window)
    window.worker.hold()
    try:
        window.navigate("history", (agent_id, session_id, None))
        window.close_store()
        qtbot.wait(120)  # past the wait
        assert window.central.currentWidget() is window.welcome and window.pane_stack.count() == 0
    finally:
        window.worker.release()


def test_the_details_stay_with_the_page_still_shown(qtbot, window, demo_store, monkeypatch):
    """While the previous page stays up for the session being read, the Details dock keeps describing what
    was selected on it; it is emptied when the session's page is shown (emptied at the click, it was
    painted twice: empty at once, then again with the session)."""
    from daycare_gui.ui.context import DetailItem

    _on_the_overview(qtbot, window, demo_store, monkeypatch, 60_000)
    agent_id, session_id = _a_session(window)
    picked = DetailItem("Agent picked before", (("Name", "before"),), None)
    window.show_detail(picked)
    window.worker.hold()
    window.navigate("history", (agent_id, session_id, None))
    assert window.detail.item is picked  # the page it describes is still the one on screen
    window.worker.release()
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane, timeout=10000)
    assert window.detail.item is not picked  # gone with its page
    assert "Agent picked before" not in window.detail.heading.text()
