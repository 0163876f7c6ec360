"""Daycare's "history" page, now the shared conversation view (generic/conversation_view.py): opened from
Agents with Enter, a conversation with paired tool results, Python runs, rewrites with their reason, raw
JSON in the detail pane, and a 200,000-record session paged by key."""

from __future__ import annotations

import re
import shutil
import sqlite3

import pytest
from PySide6.QtCore import Qt, QUrl

from tests.core.test_history_pages import BIG_SESSION, add_big_session
from tests.ui.conftest import open_and_wait

BIG = 200_000


def _rlm_session(path):
    conn = sqlite3.connect(f"file:{path / 'daycare.db'}?mode=ro&immutable=1", uri=True)
    sid, agent_id = conn.execute(
        "SELECT h.session_id, s.agent_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
        "WHERE h.type = 'rlm_start' AND h.data LIKE '%groceries%' LIMIT 1").fetchone()
    snapshot_id = conn.execute("SELECT id FROM session_history WHERE session_id = ? AND type = 'rlm_tool_call' "
                               "LIMIT 1", (sid,)).fetchone()[0]
    conn.close()
    return agent_id, sid, snapshot_id


def _text(pane) -> str:
    return pane.conversation.toPlainText()


def test_open_a_session_and_read_the_conversation(qtbot, window, demo_store, model_tester):
    agent_id, session_id, snapshot_record = _rlm_session(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", (agent_id, session_id, None))  # (the Agents page reads a session beside its list)

    pane = window.panes.get("history")
    assert pane is not None  # shown once its first page is read (or after a moment at most)
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane, timeout=5000)
    model_tester(pane.model)  # through the pages fetched while reading below
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0 and "Groceries" in _text(pane), timeout=5000)
    # opened at the session's last record
    assert pane.current_row() == pane.model.rowCount() - 1
    assert "messages" in pane.heading.text() and pane.position.text().startswith(f"{pane.model.rowCount()} of")

    text = _text(pane)
    # the run_python call with its tool_result text, under the assistant message that made it
    assert "→ run_python" in text
    assert "run_python result" in text and "23 grocery payments, total 486.73 EUR" in text
    # the attached file
    assert "📎" in text and ".csv" in text
    # the rewrite says why, and its text
    assert "Rewrite" in text and "Rewritten: run_python_say_after_trim" in text
    # the Python run is one block under its call, folded, and opens to its steps: the code, the tools it
    # called and what it printed
    assert "Run · 6 steps · 2 tool calls" in text and "expand" in text and "import csv, io" not in text
    run_link = re.search(r'href="(run:[^"]+)"', pane.conversation.toHtml()).group(1)  # its "expand" link
    pane.conversation.anchorClicked.emit(QUrl(run_link))
    text = _text(pane)
    assert "Python start" in text and "Python done" in text and "collapse" in text
    assert "import csv, io" in text and "Printed:" in text and "→ say" in text
    assert text.count("23 grocery payments, total 486.73 EUR [(") <= 3  # the run's output, not the call's result again

    # one click on a step's "raw" shows the full stored data, snapshot included, in the detail pane
    assert f"raw:{snapshot_record}" in pane.conversation.toHtml()
    pane.conversation.anchorClicked.emit(QUrl(f"raw:{snapshot_record}"))
    qtbot.waitUntil(lambda: window.detail.item is not None and f"id {snapshot_record}" in window.detail.item.title,
                    timeout=5000)
    assert '"snapshot"' in window.detail.item.raw
    assert window.detail.tabs.currentWidget() is window.detail.raw  # the raw view is what is shown
    qtbot.waitUntil(lambda: '"snapshot"' in window.detail.raw.toPlainText(), timeout=5000)
    pane.conversation.anchorClicked.emit(QUrl(run_link))  # folded again
    assert "import csv, io" not in _text(pane)

    # Home goes to the first record (the user's question), and the detail pane follows the selection
    qtbot.keyClick(pane.list, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert pane.current_row() == 0
    qtbot.waitUntil(lambda: window.detail.item is not None and window.detail.item.title.startswith("User"),
                    timeout=5000)
    qtbot.waitUntil(lambda: "How much did we spend on groceries" in _text(pane), timeout=5000)


def test_open_at_a_record_and_unknown_session(qtbot, window, demo_store):
    agent_id, session_id, snapshot_record = _rlm_session(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", (agent_id, session_id, snapshot_record))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: pane.model.record(max(pane.current_row(), 0)) is not None
                    and pane.model.record(pane.current_row()).id == str(snapshot_record), timeout=5000)
    # a step inside a Python run opens with its run expanded
    qtbot.waitUntil(lambda: "Python → tool" in _text(pane) and "collapse" in _text(pane), timeout=5000)
    window.navigate("history", (agent_id, "no-such-session", None))
    qtbot.waitUntil(lambda: "No session" in pane.heading.text(), timeout=5000)
    assert pane.model.rowCount() == 0


@pytest.fixture(scope="module")
def big_store(tmp_path_factory, demo_store):
    dest = tmp_path_factory.mktemp("bigpane") / "daycare"
    shutil.copytree(demo_store, dest)
    agent_id = add_big_session(dest, BIG)
    return dest, agent_id


def test_a_200k_session_opens_at_its_end_and_jumps_by_key(qtbot, window, big_store):
    path, agent_id = big_store
    open_and_wait(qtbot, window, path)
    window.navigate("history", (agent_id, BIG_SESSION, None))
    pane = window.panes["history"]
    model = pane.model
    qtbot.waitUntil(lambda: model.rowCount() == BIG, timeout=10000)
    last = BIG - 1
    qtbot.waitUntil(lambda: model.record(last) is not None, timeout=10000)
    assert pane.current_row() == last
    assert model.rows_fetched <= 2 * model.page_size  # the last page, not the session
    qtbot.waitUntil(lambda: f"answer {last}" in _text(pane), timeout=10000)
    assert "result 199998" in _text(pane)  # tool result paired with its call near the end

    pane.go_first()
    qtbot.waitUntil(lambda: model.record(0) is not None, timeout=10000)
    assert model.record(0).text == "question 0"
    pane.go_last()
    assert pane.current_row() == last

    pane.goto_box.setValue(123_457)  # 1-based position
    pane.goto_box.lineEdit().returnPressed.emit()
    qtbot.waitUntil(lambda: model.record(123_456) is not None, timeout=10000)
    assert pane.current_row() == 123_456
    assert model.record(123_456).text == "question 123456"

    jumps = range(0, BIG, BIG // 20)  # jumps all over: the cache stays bounded
    for row in jumps:
        pane.go_to_row(row)
        qtbot.waitUntil(lambda r=row: model.record(r) is not None, timeout=10000)
        assert model.cached_pages() <= model.max_pages
    # at most the two pages a screen can straddle per jump, plus the few above: never the session
    assert model.rows_fetched <= (2 * len(jumps) + 8) * model.page_size < BIG // 10

    # open at a given record deep inside (as search results do)
    target = model.record(jumps[-1])  # still cached: it was the last jump
    window.navigate("history", (agent_id, BIG_SESSION, target.id))
    qtbot.waitUntil(lambda: model.record(max(pane.current_row(), 0)) is not None
                    and model.record(pane.current_row()).id == target.id, timeout=10000)


def test_opening_at_the_first_record_shows_it_before_the_session_is_counted(qtbot, window, big_store,
                                                                           monkeypatch, model_tester):
    import threading

    from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

    path, agent_id = big_store
    open_and_wait(qtbot, window, path)
    first_id = sqlite3.connect(f"file:{path / 'daycare.db'}?mode=ro&immutable=1", uri=True).execute(
        "SELECT min(id) FROM session_history WHERE session_id = ?", (BIG_SESSION,)).fetchone()[0]
    counting = threading.Event()  # the count waits until the test has looked at the first page
    real_tail = SqliteConversations.tail  # the count (and the last key, which a live view grows from)
    monkeypatch.setattr(SqliteConversations, "tail",
                        lambda cap, ref, after=None: (counting.wait(10), real_tail(cap, ref, after))[1])
    pane = window.pane("history")
    model = pane.model
    model_tester(model)  # through the first page, the count arriving and the jump
    window.navigate("history", (agent_id, BIG_SESSION, first_id))
    qtbot.waitUntil(lambda: model.session_id == BIG_SESSION and model.record(0) is not None, timeout=10000)
    assert pane.current_row() == 0 and model.record(0).id == str(first_id) and not model.counted
    assert "counting" in pane.heading.text()
    pane.go_last()  # before the count: it goes to the session's end once that is known
    assert pane.current_row() == 0
    counting.set()
    qtbot.waitUntil(lambda: model.rowCount() == BIG and pane.current_row() == BIG - 1, timeout=10000)
    assert f"{BIG:,}" in pane.heading.text() and pane.goto_box.maximum() == BIG
    assert model.record(BIG - 1) is not None  # the last page came with the count: End was ready at once
    pane.go_first()
    qtbot.waitUntil(lambda: model.record(0) is not None and model.record(0).id == str(first_id), timeout=10000)
    qtbot.waitUntil(model.ids_complete, timeout=20000)  # row keys load once the count is known


def test_scrolling_reads_the_next_screen_ahead_but_a_jump_does_not(qtbot, window, big_store):
    path, agent_id = big_store
    open_and_wait(qtbot, window, path)
    window.navigate("history", (agent_id, BIG_SESSION, None))
    pane = window.panes["history"]
    model = pane.model
    qtbot.waitUntil(lambda: model.rowCount() == BIG and model.is_loaded(BIG - 1), timeout=10000)
    pane.go_first()
    qtbot.waitUntil(lambda: model.is_loaded(0), timeout=10000)
    assert not model.is_loaded(model.page_size)  # the jump read only the page it shows
    bar = pane.list.verticalScrollBar()
    bar.setValue(bar.value() + 120)  # scrolling down, less than a page: the screen is still on page 0
    # the two pages past the screen come without the view asking for them, and nothing further
    qtbot.waitUntil(lambda: model.is_loaded(model.page_size) and model.is_loaded(2 * model.page_size),
                    timeout=10000)
    assert not model.is_loaded(3 * model.page_size)


def test_a_legacy_session_lists_its_records(qtbot, window, fixture_copy, model_tester):
    from tests.ui.conftest import open_and_wait as _open

    root = fixture_copy("daycare-808af509", with_db=False)
    _open(qtbot, window, root)
    window.navigate("history", ("legacy", "agentusr1", 0))
    pane = window.panes["history"]
    model_tester(pane.model)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2, timeout=5000)
    rows = [pane.model.index(r).data() for r in range(2)]
    assert "hello" in rows[0] and "hi!" in rows[1]
    assert pane.current_row() == 1 and pane.list.hasFocus()  # opened at the end, like a database session
    assert pane.goto_box.isEnabled() and pane.position.text() == "2 of 2"
    qtbot.waitUntil(lambda: "hello" in pane.conversation.toPlainText(), timeout=5000)
    qtbot.keyClick(pane.list, Qt.Key.Key_Up)
    # the record under the cursor, in the detail pane (which follows once the list has painted)
    qtbot.waitUntil(lambda: window.detail.item is not None and window.detail.item.markdown == "hello", timeout=5000)
    qtbot.waitUntil(lambda: pane.view._window is not None and pane.view._window.focus_id == pane.model.record(0).id,
                    timeout=5000)
    assert "hi!" in pane.conversation.toPlainText()


def test_a_session_that_cannot_be_counted_says_so(qtbot, window, big_store, monkeypatch):
    """A damaged index can make the count fail after the first page was shown: the heading says the messages
    were not counted and why, instead of "counting messages…" for good; the page shown stays."""
    from daycare_gui.stores.common.sqlite_ro import DatabaseError
    from daycare_gui.ui.models import session_reads

    def broken(cap, ref, size):
        raise DatabaseError("database disk image is malformed")

    monkeypatch.setattr(session_reads, "count_with_last_page", broken)
    path, agent_id = big_store
    open_and_wait(qtbot, window, path)
    first_id = sqlite3.connect(f"file:{path / 'daycare.db'}?mode=ro&immutable=1", uri=True).execute(
        "SELECT min(id) FROM session_history WHERE session_id = ?", (BIG_SESSION,)).fetchone()[0]
    window.navigate("history", (agent_id, BIG_SESSION, first_id))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: "not counted" in pane.heading.text(), timeout=10000)
    assert "malformed" in pane.heading.text() and "counting" not in pane.heading.text()
    assert pane.model.record(0) is not None and pane.model.record(0).id == str(first_id)
