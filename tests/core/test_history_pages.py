"""history_pages: offset pages, id chunks, session header and the conversation window (demo + a big session)."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.queries.history import page_after, session_end
from daycare_gui.stores.daycare.sqlite.queries.history_pages import (
    conversation_window,
    id_chunk,
    page_at_offset,
    session_header,
)
from daycare_gui.stores.daycare.sqlite.store import open_store

BIG_SESSION = "bigsessionhistorytest0001"


def add_big_session(root, records: int, session_id: str = BIG_SESSION) -> str:
    """Add a session of ``records`` records (a repeating user → call → result → answer pattern) to a store.

    Returns the agent id. Written with ``executemany`` so 200,000 rows take about a second.
    """
    conn = sqlite3.connect(root / "daycare.db")
    agent_id, src = conn.execute("SELECT agent_id, id FROM sessions ORDER BY created_at LIMIT 1").fetchone()
    conn.execute("CREATE TEMP TABLE s AS SELECT * FROM sessions WHERE id = ?", (src,))
    conn.execute("UPDATE s SET id = ?", (session_id,))
    conn.execute("INSERT INTO sessions SELECT * FROM s")

    def rows():
        base = 1_700_000_000_000
        for i in range(records):
            k, at = i % 4, base + i * 1000
            call = f"call_{i - k}"
            if k == 0:
                yield session_id, "user_message", at, json.dumps({"text": f"question {i}", "files": []})
            elif k == 1:
                yield session_id, "assistant_message", at, json.dumps(
                    {"text": f"looking {i}", "files": [], "tokens": None,
                     "toolCalls": [{"type": "toolCall", "id": call, "name": "lookup", "arguments": {"n": i}}]})
            elif k == 2:
                msg = {"role": "toolResult", "toolCallId": call, "toolName": "lookup",
                       "content": [{"type": "text", "text": f"result {i}"}], "isError": False}
                yield session_id, "tool_result", at, json.dumps({"toolCallId": call, "output": {"toolMessage": msg}})
            else:
                yield session_id, "assistant_message", at, json.dumps(
                    {"text": f"answer {i}", "files": [], "toolCalls": [], "tokens": None})

    conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, ?)", rows())
    conn.commit()
    conn.close()
    return agent_id


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("hp") / "daycare"
    write_demo(dest)
    add_big_session(dest, 5_000)
    store = open_store(dest)
    yield store
    store.close()


def _session_with(db, kind: str) -> str:
    return db.scalar("SELECT session_id FROM session_history WHERE type = :t LIMIT 1", {"t": kind})


def test_page_at_offset_matches_keyed_pages(demo):
    db = demo.db
    ids = [r.id for r, _p, _s in page_after(db, BIG_SESSION, -1, 5000)]
    page = page_at_offset(db, BIG_SESSION, 1234, 200)
    assert [r.id for r, _p, _s in page] == ids[1234:1434]
    assert [r.id for r, _p, _s in page_at_offset(db, BIG_SESSION, 4990, 200)] == ids[4990:]
    assert page_at_offset(db, BIG_SESSION, 5000, 200) == []


def test_id_chunks_cover_the_session_in_order(demo):
    db = demo.db
    first = id_chunk(db, BIG_SESSION, -1, 3000)
    rest = id_chunk(db, BIG_SESSION, first[-1], 3000)
    assert len(first) == 3000 and len(rest) == 2000
    assert list(first) + list(rest) == sorted(set(first) | set(rest))
    assert first.itemsize == 8  # compact: 8 bytes a record


def test_session_end_counts_what_follows_a_record_and_names_the_last(demo):
    db = demo.db
    ids = [r.id for r, _p, _s in page_after(db, BIG_SESSION, -1, 5000)]
    assert session_end(db, BIG_SESSION) == (5000, ids[-1])
    assert session_end(db, BIG_SESSION, ids[4899]) == (100, ids[-1])
    assert session_end(db, BIG_SESSION, ids[-1]) == (0, None)  # nothing after the last record
    assert session_end(db, "no-such-session") == (0, None)
    # another session's records are not counted, however their ids interleave
    sid = _session_with(db, "rlm_start")
    assert session_end(db, sid)[0] == db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s",
                                                {"s": sid})


def test_session_header(demo):
    db = demo.db
    sid = _session_with(db, "rlm_start")
    agent_id = db.scalar("SELECT agent_id FROM sessions WHERE id = :s", {"s": sid})
    h = session_header(db, agent_id, sid)
    assert h.found and h.record_count > 0 and h.agent_name
    assert not session_header(db, agent_id, "nope").found


def test_window_pairs_calls_results_rlm_runs_and_rewrites(demo):
    db = demo.db
    sid = _session_with(db, "rlm_start")
    win = conversation_window(db, sid, None)
    kinds = {r.type for r in win.records}
    assert {"rlm_start", "rlm_complete", "assistant_rewrite", "tool_result"} <= kinds
    calls = [c for r in win.records for c in r.tool_calls]
    assert calls and all(c.id in win.results for c in calls)
    run = next(iter(win.rlm_runs.values()))
    assert run[0].type == "rlm_start" and run[-1].type == "rlm_complete"
    rewrite = next(r for r in win.records if r.type == "assistant_rewrite")
    original = win.rewritten[rewrite.id]
    assert original.type == "assistant_message" and original.at == rewrite.assistant_at
    assert win.rewrites[original.at] is rewrite


def test_window_pairs_a_result_outside_the_window(demo):
    db = demo.db
    ids = [r.id for r, _p, _s in page_after(db, BIG_SESSION, -1, 8)]
    call_record = ids[1]  # assistant message with a tool call; its result is the next record
    win = conversation_window(db, BIG_SESSION, call_record, before=0, after=0, span=0)
    assert [r.id for r in win.records] == [call_record]
    (call,) = win.records[0].tool_calls
    assert win.results[call.id].tool_output_text == "result 2"
    assert win.more_after and win.more_before  # the user message before it


def test_window_on_empty_session(demo):
    win = conversation_window(demo.db, "no-such-session", None)
    assert win.records == [] and not win.results


def test_lazy_pages_decode_to_the_same_records_and_big_payloads_come_decoded(demo, tmp_path):
    from daycare_gui.stores.daycare.sqlite.queries.history import (
        LAZY_MAX_CHARS,
        PendingRecord,
        entry_id,
        page_after,
        page_before,
    )

    db = demo.db
    eager = page_after(db, BIG_SESSION, -1, 200)
    lazy = page_after(db, BIG_SESSION, -1, 200, lazy=True)
    assert all(type(e) is PendingRecord for e in lazy)  # nothing decoded yet: the worker only read
    assert [entry_id(e) for e in lazy] == [entry_id(e) for e in eager]
    assert [e.decode() for e in lazy] == eager  # decoding later gives exactly the eager page
    tail = page_before(db, BIG_SESSION, None, 50, lazy=True)
    assert [e.decode() for e in tail] == page_before(db, BIG_SESSION, None, 50)

    # A payload too big to decode where it is shown (a frame's worth) arrives decoded.
    src = demo.paths.db_path
    dest = tmp_path / "daycare.db"
    shutil.copyfile(src, dest)
    conn = sqlite3.connect(dest)
    sid = conn.execute("SELECT session_id FROM session_history LIMIT 1").fetchone()[0]
    big = json.dumps({"text": "x" * (LAZY_MAX_CHARS + 10), "files": []})
    conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'note', 1, ?)", (sid, big))
    conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'note', 2, '{broken')", (sid,))
    conn.commit()
    conn.close()
    from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase

    copy = ReadOnlyDatabase(dest)
    try:
        entries = page_before(copy, sid, None, 2, lazy=True)
        assert type(entries[0]) is not PendingRecord and entries[0][0].text.startswith("xxx")
        broken, problem, _size = entries[1].decode()  # a damaged row decodes to a problem, not an error
        assert problem and broken.type == "note"
    finally:
        copy.close()


@pytest.mark.parametrize("raw, problem", [
    ('{"text": "hi"}', False),
    ('  {"text": "hi"}\n', False),  # space around the object: JSON still, decoded the careful way
    ('{"text": "hi"} {"text": "again"}', True),  # two objects: not one record's data
    ('{"text": "hi"', True),  # cut short
    ('["text", "hi"]', True),  # JSON, but not an object
])
def test_a_rows_data_decodes_as_json_would_take_it(raw, problem):
    from daycare_gui.stores.daycare.sqlite.queries.history import _record

    rec, reason, size = _record((7, "s", "user_message", 1_700_000_000_000, raw, None))
    assert (reason is not None) == problem
    assert size == len(raw)
    if not problem:
        assert rec.data == json.loads(raw) and rec.id == 7
    else:
        assert rec.data == {"_raw": raw}  # kept as stored, for the raw view


def test_a_listed_rows_line_says_what_its_record_says_without_its_tokens_or_files(demo, monkeypatch):
    """The message list paints each row from a lean record (only what its summary reads): every record of
    the demo's sessions, of every type, lists the same line as its whole record; its tokens and files are
    not read to list it (they were a third of the cost of a row the list paints)."""
    from daycare_gui.stores.daycare.records import history
    from daycare_gui.stores.daycare.sqlite.queries.history import PendingRecord, page_after

    db = demo.db
    sessions = [r[0] for r in db.rows("SELECT DISTINCT session_id FROM session_history")]
    pending = [e for sid in sessions for e in page_after(db, sid, -1, 1_000, lazy=True) if type(e) is PendingRecord]
    assert {e.decode()[0].type for e in pending} >= {"user_message", "assistant_message", "tool_result",
                                                      "assistant_rewrite", "rlm_start", "rlm_complete", "note"}
    assert any(e.decode()[0].tokens is not None for e in pending)  # (the demo's assistants have tokens)
    for e in pending:
        whole, problem, size = e.decode()
        line, line_problem, line_size = e.decode_line()
        assert (line.type, line.at, line.id, line.summary(300), line.known_kind, line.is_rlm, line_problem,
                line_size) == (whole.type, whole.at, whole.id, whole.summary(300), whole.known_kind, whole.is_rlm,
                               problem, size)

    def unread(*_args):
        raise AssertionError("read to list a row")

    monkeypatch.setattr(history, "token_entry_from_obj", unread)  # (as the history module reads it)
    monkeypatch.setattr(history, "_files", unread)
    assert all(e.decode_line()[0].summary(300) is not None for e in pending)
