"""Opening a session from another page: the window keeps showing the previous page until the session's
first page is read (a moment), then paints once with it — never an empty page first. A read that does
not come back in time does not keep the window frozen."""

from __future__ import annotations

from tests.ui.conftest import open_and_wait


def _a_session(window):
    return window.store.db.fetch("SELECT agent_id, id FROM sessions ORDER BY id LIMIT 1")[0]


def test_the_window_paints_again_once_the_session_is_read(qtbot, window, demo_store, monkeypatch):
    monkeypatch.setattr(type(window), "PAINT_HOLD_MS", 60_000)  # only the read can end the hold here
    open_and_wait(qtbot, window, demo_store)
    window.show_section("overview")
    agent_id, session_id = _a_session(window)
    window.worker.hold()  # the read waits, as a slow disk would make it
    window.navigate("history", (agent_id, session_id, None))
    assert not window.updatesEnabled()  # the Overview stays on screen; nothing half-built is painted
    window.worker.release()
    pane = window.panes["history"]
    drawn = pane.list.rows.rows_rendered
    qtbot.waitUntil(lambda: window.updatesEnabled(), timeout=10000)
    assert pane.model.session_id == session_id and pane.model.is_loaded(pane.current_row())
    assert pane.list.rows.rows_rendered > drawn  # painted at once, with its rows: not some time later


def test_a_read_that_does_not_come_back_does_not_freeze_the_window(qtbot, window, demo_store, monkeypatch):
    monkeypatch.setattr(type(window), "PAINT_HOLD_MS", 50)
    open_and_wait(qtbot, window, demo_store)
    agent_id, session_id = _a_session(window)
    window.worker.hold()
    try:
        window.navigate("history", (agent_id, session_id, None))
        assert not window.updatesEnabled()
        qtbot.waitUntil(lambda: window.updatesEnabled(), timeout=5000)  # painting again, read or not
        assert window.panes["history"].model.session_id != session_id  # (the read really had not come)
    finally:
        window.worker.release()


def test_a_session_that_cannot_be_read_ends_the_hold_too(qtbot, window, demo_store, monkeypatch):
    monkeypatch.setattr(type(window), "PAINT_HOLD_MS", 60_000)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", ("no-agent", "no-such-session", None))
    assert not window.updatesEnabled()
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: "No session" in pane.heading.text(), timeout=5000)
    assert window.updatesEnabled()


def test_the_shared_conversations_page_holds_until_its_messages_are_shown(qtbot, window, chatlog, monkeypatch):
    """Another kind's conversation: the page selects the thread, then the session, then reads its messages
    (three reads); the window paints once, when the messages are there — never the page half-filled."""
    from daycare_gui.stores.records import SessionRef

    monkeypatch.setattr(type(window), "PAINT_HOLD_MS", 60_000)
    open_and_wait(qtbot, window, chatlog)
    window.show_section("overview")
    window.worker.hold()
    window.navigate("conversations", SessionRef("home", "b"))
    assert not window.updatesEnabled()
    window.worker.release()
    pane = window.panes["conversations"]
    qtbot.waitUntil(lambda: window.updatesEnabled(), timeout=10000)
    assert "again" in pane.shown_text()  # painted with the session's messages in it
    window.navigate("conversations", "no-such-thread")  # nothing to read: painting again at once
    assert window.updatesEnabled()


def test_a_long_session_is_counted_after_its_first_page_is_painted(qtbot, window, tmp_path, monkeypatch):
    """Counting a long session is work on the other core; started while the page paints, it slowed that
    paint by half on a two-core machine. So the count starts once the list has painted."""
    from daycare_gui.core.demo import write_demo
    from daycare_gui.ui.models.history_model import HistoryModel
    from tests.core.test_history_pages import BIG_SESSION, add_big_session

    root = tmp_path / "daycare"
    write_demo(root)
    agent_id = add_big_session(root, 1_000)
    open_and_wait(qtbot, window, root)
    first_id = window.store.db.fetch("SELECT min(id) FROM session_history WHERE session_id = :s",
                                     {"s": BIG_SESSION})[0][0]
    pane = window.pane("history")
    drawn_when_counted = []
    real = HistoryModel.count_with_last_page

    def count(db, sid, size):
        drawn_when_counted.append(pane.list.rows.rows_rendered)
        return real(db, sid, size)

    monkeypatch.setattr(HistoryModel, "count_with_last_page", staticmethod(count))
    before = pane.list.rows.rows_rendered
    window.navigate("history", (agent_id, BIG_SESSION, first_id))  # at the first record: shown, then counted
    qtbot.waitUntil(lambda: bool(drawn_when_counted) and pane.model.rowCount() == 1_000, timeout=10000)
    assert drawn_when_counted[0] > before  # the rows were on screen before the count began
