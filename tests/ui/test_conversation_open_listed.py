"""A session opened from the Agents page's session list is shown at its end at the count the list gave,
before the view counts it again; the count that follows confirms it or puts the rows back in their places."""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
import threading

import pytest

from tests.core.test_history_pages import BIG_SESSION, add_big_session
from tests.ui.conftest import open_and_wait

RECORDS = 5_000  # many pages: counting is a query of its own, not the first page's length
STALE_BY = 37  # how many messages a stale session list did not count yet


@pytest.fixture(scope="module")
def store(tmp_path_factory, demo_store):
    dest = tmp_path_factory.mktemp("listed") / "daycare"
    shutil.copytree(demo_store, dest)
    agent_id = add_big_session(dest, RECORDS)
    conn = sqlite3.connect(f"file:{dest / 'daycare.db'}?mode=ro", uri=True)
    ids = [r[0] for r in conn.execute("SELECT id FROM session_history WHERE session_id = ? ORDER BY id",
                                      (BIG_SESSION,))]
    conn.close()
    return dest, agent_id, ids


def _agents_page_settled(qtbot, window, path, agent_id):
    """The Agents page with the big session's agent selected, a session other than the big one shown."""
    open_and_wait(qtbot, window, path)
    window.navigate("agents", agent_id)
    page = window.panes["agents"]
    view = page.conversation
    qtbot.waitUntil(lambda: page.sessions.records.proxy_row_of_key(BIG_SESSION) >= 0, timeout=10000)
    qtbot.waitUntil(lambda: view.model.session_id is not None and view.model.counted, timeout=10000)
    row = page.sessions.records.proxy_row_of_key(BIG_SESSION)
    if view.model.session_id == BIG_SESSION:  # the page picked it by itself: show another one first
        page.sessions.table.selectRow(1 if row == 0 else 0)
        qtbot.waitUntil(lambda: view.model.session_id != BIG_SESSION and view.model.counted, timeout=10000)
    return page, view, row


def _hold_the_count(monkeypatch) -> threading.Event:
    """The big session's count waits until the test lets it go."""
    from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

    counting = threading.Event()
    real_tail = SqliteConversations.tail

    def tail(cap, ref, after=None):
        if ref.session_id == BIG_SESSION:
            counting.wait(10)
        return real_tail(cap, ref, after)

    monkeypatch.setattr(SqliteConversations, "tail", tail)
    return counting


def test_a_session_opened_from_its_list_shows_its_end_before_it_is_counted(qtbot, window, store, monkeypatch):
    path, agent_id, ids = store
    page, view, row = _agents_page_settled(qtbot, window, path, agent_id)
    counting = _hold_the_count(monkeypatch)
    model, last = view.model, len(ids) - 1
    page.sessions.table.selectRow(row)
    # the newest messages, at their places, while the view's own count has not come
    qtbot.waitUntil(lambda: model.session_id == BIG_SESSION and model.record(last) is not None, timeout=10000)
    assert not model.counted and model.rowCount() == len(ids)
    assert view.current_row() == last and model.record(last).id == str(ids[-1])
    assert model.record(last - 150).id == str(ids[-151])
    assert f"{len(ids):,}" in view.heading.text()  # the list's count, not "counting messages…"
    counting.set()
    qtbot.waitUntil(lambda: model.counted, timeout=10000)
    assert model.rowCount() == len(ids) and view.current_row() == last  # confirmed: nothing moved
    view.go_first()
    qtbot.waitUntil(lambda: model.record(0) is not None, timeout=10000)
    assert model.record(0).id == str(ids[0])
    qtbot.waitUntil(model.ids_complete, timeout=20000)  # the row keys load once it is counted


def test_a_session_the_list_counted_short_is_shown_at_its_true_end(qtbot, window, store, monkeypatch):
    """A writer appended after the list was read: the newest messages were shown at the list's (lower)
    count; once counted, every row is the message at that position and the view is at the real end."""
    from daycare_gui.stores.daycare.sqlite.conversations import DaycareConversations

    path, agent_id, ids = store
    real_sessions = DaycareConversations.sessions

    def stale(cap, thread_id):
        return [dataclasses.replace(s, message_count=s.message_count - STALE_BY)
                if s.ref.session_id == BIG_SESSION else s for s in real_sessions(cap, thread_id)]

    monkeypatch.setattr(DaycareConversations, "sessions", stale)
    page, view, row = _agents_page_settled(qtbot, window, path, agent_id)
    counting = _hold_the_count(monkeypatch)
    model = view.model
    page.sessions.table.selectRow(row)
    shown = len(ids) - STALE_BY
    qtbot.waitUntil(lambda: model.session_id == BIG_SESSION and model.record(shown - 1) is not None, timeout=10000)
    assert model.rowCount() == shown and not model.counted
    counting.set()
    last = len(ids) - 1
    qtbot.waitUntil(lambda: model.counted and model.record(last) is not None, timeout=10000)
    assert model.rowCount() == len(ids) and view.current_row() == last
    for r in (last, last - 1, shown - 1, last - 199):
        qtbot.waitUntil(lambda r=r: model.record(r) is not None, timeout=10000)
        assert model.record(r).id == str(ids[r])
    assert f"{len(ids):,}" in view.heading.text()


def _record_paints(widget, what) -> list:
    """``what()`` at each of ``widget``'s paints from now on."""
    from PySide6.QtCore import QEvent, QObject

    seen: list = []

    class Spy(QObject):
        def eventFilter(self, _obj, event):  # noqa: N802 (Qt override)
            if event.type() == QEvent.Type.Paint:
                seen.append(what())
            return False

    widget.installEventFilter(Spy(widget))
    return seen


def _record_list_paints(view) -> list[int]:
    """The list's row count at each of its paints from now on."""
    return _record_paints(view.list.viewport(), view.model.rowCount)


def test_a_quick_answer_is_painted_once_with_its_rows_not_after_a_loading_state(qtbot, window, store, monkeypatch):
    from daycare_gui.ui.panes.generic import conversation_view

    monkeypatch.setattr(conversation_view, "LOADING_MS", 60_000)  # every answer counts as quick here
    path, agent_id, ids = store
    page, view, row = _agents_page_settled(qtbot, window, path, agent_id)
    headings = _record_paints(view.heading, view.heading.text)
    lists = _record_list_paints(view)
    page.sessions.table.selectRow(row)
    qtbot.waitUntil(lambda: view.model.session_id == BIG_SESSION and view.model.record(len(ids) - 1) is not None
                    and bool(lists) and lists[-1] == len(ids), timeout=10000)
    # the heading went from the session shown to the one opened, never painted saying it was loading
    assert headings and not [text for text in headings if "Loading" in text]
    assert BIG_SESSION in view.heading.text() and view.end_button.isEnabled()


def test_a_slow_answer_says_the_session_is_loading(qtbot, window, store, monkeypatch):
    from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

    path, agent_id, ids = store
    page, view, row = _agents_page_settled(qtbot, window, path, agent_id)
    reading = threading.Event()
    real_page_before = SqliteConversations.page_before

    def slow(cap, ref, key, n):
        if ref.session_id == BIG_SESSION:
            reading.wait(10)
        return real_page_before(cap, ref, key, n)

    monkeypatch.setattr(SqliteConversations, "page_before", slow)
    paints = _record_list_paints(view)
    page.sessions.table.selectRow(row)
    qtbot.waitUntil(lambda: "Loading session" in view.heading.text(), timeout=10000)
    assert not view.end_button.isEnabled() and "Loading" in view.conversation.toPlainText()
    qtbot.waitUntil(lambda: 0 in paints, timeout=10000)  # the old session's rows are gone from the screen
    reading.set()
    qtbot.waitUntil(lambda: view.model.record(len(ids) - 1) is not None, timeout=10000)
    assert "Loading" not in view.heading.text() and view.current_row() == len(ids) - 1


def test_a_count_that_confirms_the_list_never_moves_a_reader_who_went_elsewhere(qtbot, window, store, monkeypatch):
    """Today's Daycare gives a session's last key as text: the count that confirmed the list's was taken for
    a different one, and the view jumped back to the end under a reader who had gone to the first message."""
    from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

    path, agent_id, ids = store
    page, view, row = _agents_page_settled(qtbot, window, path, agent_id)
    counting = _hold_the_count(monkeypatch)
    held_tail = SqliteConversations.tail

    def tail_as_text(cap, ref, after=None):
        count, last = held_tail(cap, ref, after)
        return count, None if last is None else str(last)

    monkeypatch.setattr(SqliteConversations, "tail", tail_as_text)
    model = view.model
    page.sessions.table.selectRow(row)
    qtbot.waitUntil(lambda: model.session_id == BIG_SESSION and model.record(len(ids) - 1) is not None,
                    timeout=10000)
    view.go_first()
    qtbot.waitUntil(lambda: model.record(0) is not None and view.current_row() == 0, timeout=10000)
    counting.set()
    qtbot.waitUntil(lambda: model.counted, timeout=10000)
    qtbot.wait(100)
    assert view.current_row() == 0 and model.record(0).id == str(ids[0])  # still where the reader went


def test_a_session_is_painted_at_its_final_layout_not_once_before_it(qtbot, window, store, monkeypatch):
    """Another session's heading may take another line and its Go to box more room: the view is laid out with
    them before its list paints, so the new rows are drawn once, at the list's final height (laid out after
    a paint, the list was drawn twice, the second time a line shorter)."""
    from daycare_gui.ui.panes.generic import conversation_view
    from daycare_gui.ui.panes.generic.conversation_opening import SessionOpening

    monkeypatch.setattr(conversation_view, "LOADING_MS", 60_000)  # one answer, painted once
    real_heading = SessionOpening._set_heading

    def heading(view, *args, **kwargs):  # the big session's heading a line longer than the others'
        real_heading(view, *args, **kwargs)
        if view.ref is not None and view.ref.session_id == BIG_SESSION:
            view.heading.setText(view.heading.text() + "<br>a line more")

    monkeypatch.setattr(SessionOpening, "_set_heading", heading)
    path, agent_id, ids = store
    page, view, row = _agents_page_settled(qtbot, window, path, agent_id)
    viewport = view.list.viewport()
    qtbot.wait(200)  # (the page's own layout settled)
    before = viewport.height()
    paints = _record_paints(viewport, lambda: (view.model.session_id, viewport.height()))
    page.sessions.table.selectRow(row)
    qtbot.waitUntil(lambda: view.model.session_id == BIG_SESSION and view.model.record(len(ids) - 1) is not None,
                    timeout=10000)
    qtbot.wait(300)
    assert viewport.height() < before  # (the heading did take a line more)
    assert {h for sid, h in paints if sid == BIG_SESSION} == {viewport.height()}
