"""A session opened at its end where no list counted it (a link, Jump To) shows its last messages before it is
counted: they are read by key and placed from the end; the count that follows places them at their rows,
keeps the reader where they went, and puts the session's true end on screen when a writer appended."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from tests.core.test_history_pages import BIG_SESSION, add_big_session
from tests.ui.conftest import open_and_wait
from tests.ui.test_conversation_open_listed import _hold_the_count

RECORDS = 5_037  # its last page holds 37 rows: the screen's rows at the end span two pages


@pytest.fixture(scope="module")
def store(tmp_path_factory, demo_store):
    dest = tmp_path_factory.mktemp("from-end") / "daycare"
    shutil.copytree(demo_store, dest)
    agent_id = add_big_session(dest, RECORDS)
    return dest, agent_id


def _ids(path) -> list[int]:
    conn = sqlite3.connect(f"file:{path / 'daycare.db'}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT id FROM session_history WHERE session_id = ? ORDER BY id",
                                           (BIG_SESSION,))]
    finally:
        conn.close()


def _opened_by_link(qtbot, window, path, agent_id, monkeypatch):
    open_and_wait(qtbot, window, path)
    qtbot.waitUntil(lambda: not window.bg_worker.is_busy(), timeout=10000)  # (start-up's background jobs done)
    counting = _hold_the_count(monkeypatch)
    window.navigate("history", (agent_id, BIG_SESSION, None))
    view = window.panes["history"].view
    model = view.model
    qtbot.waitUntil(lambda: model.session_id == BIG_SESSION and model.rowCount() > 0
                    and model.record(model.rowCount() - 1) is not None, timeout=10000)
    return view, model, counting


def test_a_link_shows_the_sessions_last_messages_before_they_are_counted(qtbot, window, store, monkeypatch):
    path, agent_id = store
    ids = _ids(path)
    view, model, counting = _opened_by_link(qtbot, window, path, agent_id, monkeypatch)
    shown = model.rowCount()
    # the newest messages, the last of them current, while the count is held
    assert not model.counted
    assert [model.record(r).id for r in range(shown)] == [str(i) for i in ids[-shown:]]
    assert view.current_row() == shown - 1
    assert "counting messages" in view.heading.text()
    assert view.position.text() == "last"
    # no position is offered that is not the session's: the box says it is counting
    assert not view.goto_box.isEnabled() and view.goto_box.text() == "counting…"
    assert view.end_button.isEnabled() and view.raw_button.isEnabled()
    # the conversation beside is read meanwhile (on the background worker: the count, slow on some stores,
    # holds only the page worker, which the rows shown from the end do not need)
    qtbot.waitUntil(lambda: "Loading" not in view.conversation.toPlainText(), timeout=5000)
    assert not model.counted and model.record(shown - 1).text[:20] in view.conversation.toPlainText()
    fetched = model.rows_fetched
    counting.set()
    qtbot.waitUntil(lambda: model.counted, timeout=10000)
    last = len(ids) - 1
    assert model.rowCount() == len(ids) and view.current_row() == last
    # the rows on screen are at their places at once, the page above the last one too: no row waits
    for r in (last, last - 36, last - 37, last - 150, last - 236):
        assert model.is_loaded(r) and model.record(r).id == str(ids[r])
    # only what the pages at the end lacked was read for that (37 rows), not the rows shown again (the
    # first page is read too once counted, so that First is ready)
    assert model.rows_fetched - fetched - (200 if model.is_loaded(0) else 0) == 37
    assert f"{len(ids):,}" in view.heading.text() and view.position.text() == f"{len(ids):,} of {len(ids):,}"
    assert view.goto_box.isEnabled() and view.goto_box.suffix() == f" of {len(ids):,}"
    view.goto_box.setValue(10)
    view.goto_button.click()
    qtbot.waitUntil(lambda: model.record(9) is not None, timeout=10000)
    assert view.current_row() == 9 and model.record(9).id == str(ids[9])


def test_the_reader_keeps_the_message_they_moved_to_when_the_count_comes(qtbot, window, store, monkeypatch):
    path, agent_id = store
    ids = _ids(path)
    view, model, counting = _opened_by_link(qtbot, window, path, agent_id, monkeypatch)
    shown = model.rowCount()
    view.go_to_row(shown - 6)
    view.list.scrollTo(model.index(shown - 60))  # and scrolled up further, the current row off screen
    assert view.position.text() == "5 before the last"
    top = view.list.rowAt(0)
    counting.set()
    qtbot.waitUntil(lambda: model.counted, timeout=10000)
    assert view.current_row() == len(ids) - 6 and model.record(len(ids) - 6).id == str(ids[-6])
    # the same messages stay on screen: placed at their rows, not moved under the reader
    assert view.list.rowAt(0) == len(ids) - (shown - top)


def test_first_pressed_before_the_count_goes_to_the_first_message(qtbot, window, store, monkeypatch):
    path, agent_id = store
    ids = _ids(path)
    view, model, counting = _opened_by_link(qtbot, window, path, agent_id, monkeypatch)
    view.go_first()  # row 0 is the 200th message from the end until counted: not moved there
    assert view.current_row() == model.rowCount() - 1
    counting.set()
    qtbot.waitUntil(lambda: model.counted and view.current_row() == 0 and model.record(0) is not None,
                    timeout=10000)
    assert model.record(0).id == str(ids[0])


def test_a_writer_that_appended_before_the_count_puts_the_true_end_on_screen(qtbot, window, store, monkeypatch,
                                                                             tmp_path):
    path, agent_id = store
    copy = tmp_path / "daycare"
    shutil.copytree(path, copy)
    view, model, counting = _opened_by_link(qtbot, window, copy, agent_id, monkeypatch)
    conn = sqlite3.connect(copy / "daycare.db")
    with conn:
        for n in range(3):
            conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, ?)",
                         (BIG_SESSION, "user_message", 1_800_000_000_000 + n, '{"text": "late", "files": []}'))
    conn.close()
    ids = _ids(copy)
    counting.set()
    last = len(ids) - 1
    qtbot.waitUntil(lambda: model.counted and model.rowCount() == len(ids), timeout=10000)
    assert view.current_row() == last
    for r in (last, last - 3, last - 150):
        qtbot.waitUntil(lambda r=r: model.record(r) is not None, timeout=10000)
        assert model.record(r).id == str(ids[r])


def test_a_session_shorter_than_a_page_is_counted_as_it_opens(qtbot, window, demo_store):
    # (immutable: a read-only connection to a WAL database leaves a -wal file in the shared demo behind)
    conn = sqlite3.connect(f"file:{demo_store / 'daycare.db'}?mode=ro&immutable=1", uri=True)
    agent_id, sid, n = conn.execute(
        "SELECT s.agent_id, s.id, count(*) FROM sessions s JOIN session_history h ON h.session_id = s.id "
        "GROUP BY s.id ORDER BY count(*) DESC LIMIT 1").fetchone()
    conn.close()
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", (agent_id, sid, None))
    view = window.panes["history"].view
    qtbot.waitUntil(lambda: view.model.session_id == sid and view.model.rowCount() == n, timeout=10000)
    assert view.model.counted and view.current_row() == n - 1
    assert view.position.text() == f"{n} of {n}" and view.goto_box.isEnabled()
