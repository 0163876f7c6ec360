"""History pages and chunks of row keys hold exactly what the store holds: the same rows in id order, each
payload the same string, odd ones included (a BLOB, a REAL time, NUL and control characters, any script);
the chunks of keys are read as one value SQLite builds (see history_pages.id_chunk)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.queries.history import (
    _PAGE_SELECT,
    page_after,
    page_before,
    session_growth,
)
from daycare_gui.stores.daycare.sqlite.queries.history_pages import id_chunk
from daycare_gui.stores.daycare.sqlite.store import open_store

ODD = "oddpayloadsession00000001"

PAYLOADS = [
    ("user_message", 1_700_000_000_000, json.dumps({"text": 'quotes " and \\ backslashes, a tab\t and a\nnewline'})),
    ("user_message", 1_700_000_001_000, json.dumps({"text": "emoji 🦜 · CJK 漢字 · RTL שלום · \u2028 separator"},
                                                   ensure_ascii=False)),
    ("user_message", 1_700_000_002_000, '{"text": "a NUL \u0000 and a bell \u0007 inside"}'),
    ("user_message", 1_700_000_002_200, '{"text": "raw separators \u001e and \u001f inside"}'),
    ("assistant_message", 1_700_000_003_000, "{not json at all"),
    ("note", 1_700_000_004_000, ""),
    ("rlm_tool_call", 1_700_000_006_000, json.dumps({"toolName": "run", "snapshot": "x" * 5000})),
    ("tool_result", 1_700_000_007_000, json.dumps({"toolCallId": "c", "output": {"text": "y" * 40_000}})),
    ("user_message", 1_700_000_008_000, " " + json.dumps({"text": "space before the object"})),
]


def _store(tmp_path, *, odd: str | None):
    root = tmp_path / "daycare"
    write_demo(root)
    conn = sqlite3.connect(root / "daycare.db")
    src = conn.execute("SELECT id FROM sessions LIMIT 1").fetchone()[0]
    conn.execute("CREATE TEMP TABLE s AS SELECT * FROM sessions WHERE id = ?", (src,))
    conn.execute("UPDATE s SET id = ?", (ODD,))
    conn.execute("INSERT INTO sessions SELECT * FROM s")
    rows = list(PAYLOADS)
    if odd is not None:  # one row of what Daycare never writes, among the others
        rows.insert(3, {"blob": ("user_message", 1_700_000_002_500, b'{"text": "stored as a BLOB"}'),
                        "real": ("user_message", 1_700_000_002_500.123, json.dumps({"text": "a REAL time"}))}[odd])
    conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, ?)",
                     [(ODD, *row) for row in rows])
    conn.commit()
    conn.close()
    return open_store(root)


def _row_by_row(db, order: str = "") -> list[tuple]:
    return [tuple(r) for r in db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s ORDER BY id {order}", {"s": ODD})]


@pytest.mark.parametrize("odd", [None, "blob", "real"],
                         ids=["text payloads", "a BLOB payload", "a REAL time of 16 digits"])
def test_pages_and_key_chunks_hold_every_odd_row_as_stored_in_id_order(tmp_path, odd):
    extra = odd is not None
    store = _store(tmp_path, odd=odd)
    try:
        db = store.db
        expected = _row_by_row(db)
        assert len(expected) == len(PAYLOADS) + extra
        ids = [r[0] for r in expected]

        def rows(page) -> list[tuple]:  # (what each entry was made from: the row as read)
            return [tuple(e._row[:6]) if hasattr(e, "_row") else None for e in page]

        lazy = page_after(db, ODD, -1, 100, lazy=True)
        eager = page_after(db, ODD, -1, 100)
        assert [e.id if hasattr(e, "id") and not isinstance(e, tuple) else e[0].id for e in lazy] == ids
        assert [rec.id for rec, _problem, _size in eager] == ids
        for got, want in zip(rows(lazy), expected):
            if got is not None:  # (a large payload comes decoded: compared below through its record)
                assert got == want
        # every record, and what the list says of it, as the row-by-row read made them
        from daycare_gui.stores.daycare.sqlite.queries.history import _record

        assert [(r.type, r.at, r.text, p, size) for r, p, size in eager] == \
            [(r.type, r.at, r.text, p, size) for r, p, size in (_record(row) for row in expected)]
        # a user's text comes back exactly as written: quotes, tabs, NUL, emoji, any script
        written = [json.loads(d)["text"] for t, _at, d in PAYLOADS
                   if t == "user_message" and d.startswith("{") and "\u0000" not in d and "\u001e" not in d]
        # (raw control characters: not JSON)
        shown = [r.text for r, p, _size in eager if r.type == "user_message" and p is None]
        assert len(written) == 2 and all(text in shown for text in written)
        assert [r[0].id for r in page_before(db, ODD, None, 3)] == ids[-3:]
        assert [r[0].id for r in page_before(db, ODD, ids[4], 3)] == ids[1:4]
        added, last, grown = session_growth(db, ODD, ids[1], 4)
        assert (added, last) == (len(ids) - 2, ids[-1]) and [r[0].id for r in grown] == ids[-4:]
        assert list(id_chunk(db, ODD, ids[0], 100)) == ids[1:]
    finally:
        store.close()


@pytest.mark.parametrize("odd", [None, "blob", "real"],
                         ids=["text payloads", "a BLOB payload", "a REAL time of 16 digits"])
def test_every_lazy_page_of_two_rows_holds_the_rows_as_stored(tmp_path, odd, monkeypatch):
    """A list's pages are read as one row SQLite builds where their rows allow it, and row by row where
    they do not (a BLOB, a REAL time, a NUL or a separator inside a payload): every page of two rows, after
    any key and before any key, holds exactly the rows a row-by-row read gives, in id order — and both ways
    of reading were taken."""
    store = _store(tmp_path, odd=odd)
    try:
        db = store.db
        expected = _row_by_row(db)
        ids = [r[0] for r in expected]
        statements = []
        fetch = db.fetch
        monkeypatch.setattr(db, "fetch", lambda sql, params=None: statements.append(sql) or fetch(sql, params))

        def rows(page) -> list[tuple]:
            return [tuple(e._row[:6]) if hasattr(e, "_row") else (e[0].id,) for e in page]

        def want(part) -> list[tuple]:
            return [r if len(r[4] or "") <= 16_384 and isinstance(r[4], str) else (r[0],) for r in part]

        one_row = row_by_row = 0
        for i, key in enumerate([-1, *ids]):
            for page, part in ((page_after(db, ODD, key, 2, lazy=True), expected[i:i + 2]),
                               (page_before(db, ODD, key if key != -1 else None, 2, lazy=True),
                                expected[max(0, i - 3):i - 1] if key != -1 else expected[-2:])):
                assert rows(page) == want(part)
            one_row += sum("group_concat" in sql for sql in statements)
            row_by_row += sum("group_concat" not in sql for sql in statements)
            statements.clear()
        assert one_row and row_by_row  # (each page asks in one row first; odd ones are then read row by row)
    finally:
        store.close()


def test_a_session_holding_text_that_is_not_utf8_pages_with_replacement_characters(tmp_path):
    """A payload stored as text that is not UTF-8 (another tool's bytes, a character cut in half) made
    Python's sqlite3 fail the whole page, so the session could not be paged at all, and its error quoted
    that payload (a secret in it too). Every page now reads: that payload with U+FFFD where its bytes break,
    every other row exactly as stored, by the one-row read and row by row alike."""
    store = _store(tmp_path, odd=None)
    try:
        db = store.db
        good = _row_by_row(db)
        store.close()
        with sqlite3.connect(db.path) as conn:
            conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES "
                         "(?, 'user_message', 1700000009000, CAST(? AS TEXT))",
                         (ODD, b'{"text": "token=hunter2secret \xff cut"}'))
        conn.close()
        store = open_store(tmp_path / "daycare")
        db = store.db
        every = _row_by_row(db)
        assert every[:-1] == good
        assert every[-1][4] == '{"text": "token=hunter2secret \ufffd cut"}'

        def ids(page) -> list[int]:  # (a large payload's row comes decoded: a tuple with its record first)
            return [e[0].id if isinstance(e, tuple) else e.id for e in page]

        for read in (lambda: page_after(db, ODD, -1, 100, lazy=True), lambda: page_before(db, ODD, None, 3, lazy=True)):
            page = read()
            assert ids(page) == [r[0] for r in every[-len(page):]]
            assert [tuple(e._row[:6]) for e in page if hasattr(e, "_row")] == \
                [r for r in every[-len(page):] if len(r[4]) <= 16_384]
        last = page_before(db, ODD, None, 1, lazy=True)[0]
        assert last.decode()[0].data["text"] == "token=hunter2secret \ufffd cut"
        # the next statement on the same connections reads as before (the replacing decoder was put back)
        assert _row_by_row(db)[:-1] == good
        assert [tuple(e._row[:6]) for e in page_after(db, ODD, -1, 2, lazy=True)] == good[:2]
    finally:
        store.close()


def test_a_time_stored_as_text_or_out_of_range_is_no_time_and_says_so(tmp_path):
    """SQLite keeps what it is given: another tool's row may hold its time as text or as a REAL. A whole
    REAL is its milliseconds; text, or a number no integer could hold, is no time (the list says "time
    unknown"), and the record's problem says why without quoting the value. The other rows are as before,
    and every way of reading the session (its pages, the conversation, an export) reads it."""
    from daycare_gui.stores.common.export.formats import utc

    store = _store(tmp_path, odd=None)
    try:
        good = _row_by_row(store.db)
        store.close()
        with sqlite3.connect(tmp_path / "daycare" / "daycare.db") as conn:
            conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
                             [(ODD, "yesterday api_key=hunter2secret", json.dumps({"text": "a time as text"})),
                              (ODD, 1e30, json.dumps({"text": "a time out of range"})),
                              (ODD, 1_700_000_010_000.75, json.dumps({"text": "a REAL time"}))])
        conn.close()
        store = open_store(tmp_path / "daycare")
        db = store.db
        assert _row_by_row(db)[:len(good)] == good
        for page in (page_after(db, ODD, -1, 100), page_before(db, ODD, None, 3)):
            text, huge, real = [(rec.text, rec.at, problem) for rec, problem, _size in page[-3:]]
            assert text == ("a time as text", None, "its time is stored as text, not as milliseconds")
            assert huge == ("a time out of range", None, "its time is stored as a number out of range, not as milliseconds")
            assert real == ("a REAL time", 1_700_000_010_000, None)
        lazy = page_before(db, ODD, None, 3, lazy=True)
        assert [e.decode_line()[0].at for e in lazy] == [None, None, 1_700_000_010_000]
        assert "hunter2secret" not in repr([e.decode() for e in lazy])
        assert utc("yesterday") == "yesterday" and utc(None) == "" and utc(0) == "1970-01-01 00:00:00 UTC"
    finally:
        store.close()


def test_a_record_says_why_it_shows_less_than_it_holds():
    """A record of a type no reader knows, or a message whose text is stored as something other than text,
    has a problem (the view then shows it as stored); a record that reads, even an empty one, has none."""
    from daycare_gui.stores.daycare.records.history import history_record_from

    def problem(type_, data):
        return history_record_from(type_, 1, data, id=1, session_id="s").read_problem()

    assert problem("user_message", {"text": 5}) == "its text is stored as a number, not as text"
    assert problem("assistant_message", {"text": ["a", "b"]}) == "its text is stored as a list, not as text"
    assert problem("memory_digest", {"summary": "x"}) == "unknown record type 'memory_digest'"
    assert problem("assistant_message", {"text": "ok", "toolCalls": "read_file"}) == \
        "its tool calls are stored as text, not as a list of calls (Raw JSON shows them)"
    assert problem("assistant_message", {"text": "ok", "toolCalls": [{"name": "a"}, 5]}).startswith(
        "its tool calls are stored as a list holding other values")
    assert problem("assistant_message", {"text": "ok", "toolCalls": [{"id": "c", "name": "read_file"}]}) is None
    assert problem("user_message", {"text": "hello"}) is None
    assert problem("assistant_message", {"text": "", "toolCalls": []}) is None  # (empty, as Daycare may write it)
    assert problem("tool_result", {"toolCallId": "c", "output": 5}) is None  # (a result's output may be any JSON)
