"""KeyedPages (api/conversations.py): every kind pages a session by key, and what the keyed pages hold is what the
positional ``messages()`` gives. Daycare SQLite and legacy fill it keyed (row ids, history.jsonl lines);
Linggen and CianaParrot answer through the defaults. A jump to the end of a 100,000-record SQLite session
reads by key: no OFFSET reaches SQLite."""

from __future__ import annotations

import json
import shutil

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.records import PendingMessage
from tests.core.test_history_pages import BIG_SESSION, add_big_session

NOW_MS = 1_795_000_000_000


@pytest.fixture(scope="module")
def daycare_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path_factory.mktemp("keyed") / "daycare"
    write_demo(root, now_ms=NOW_MS)
    return root


def _sqlite(demo, tmp_path):
    return shutil.copytree(demo, tmp_path / "daycare")


def _legacy(demo, tmp_path):
    return shutil.copytree(demo, tmp_path / "legacy", ignore=shutil.ignore_patterns("daycare.db*"))


def _linggen(_demo, tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


def _cianaparrot(_demo, tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    return write_demo(tmp_path / "ciana")


STORES = {"daycare-sqlite": _sqlite, "daycare-legacy": _legacy, "linggen": _linggen, "cianaparrot": _cianaparrot}


def _largest(cap):
    sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
    return max(sessions, key=lambda s: cap.message_count(s.ref)).ref


def _same(pending: list[PendingMessage], messages) -> None:
    got = [p.message() for p in pending]
    assert [(m.id, m.kind, m.text, m.at) for m in got] == [(m.id, m.kind, m.text, m.at) for m in messages]


@pytest.mark.parametrize("kind", list(STORES))
def test_keyed_pages_hold_what_positions_give(kind, daycare_demo, tmp_path):
    path = STORES[kind](daycare_demo, tmp_path)
    with registry.open_store(path, live=False) as store:
        cap = store.capability(api.Conversations)
        ref = _largest(cap)
        total = cap.message_count(ref)
        assert total >= 3
        every = cap.messages(ref, 0, total)
        keys = list(cap.key_chunk(ref, None, total + 10))
        assert len(keys) == total and keys == sorted(keys) and len(set(keys)) == total  # ascending, one each
        assert cap.tail(ref) == (total, keys[-1])
        assert cap.tail(ref, keys[0]) == (total - 1, keys[-1])
        assert cap.tail(ref, keys[-1]) == (0, None)
        # first page, a page after a key, the last page, a page before a key, a jump to a position
        _same(cap.page_after(ref, None, 2), every[:2])
        _same(cap.page_after(ref, keys[0], 2), every[1:3])
        _same(cap.page_before(ref, None, 2), every[-2:])
        _same(cap.page_before(ref, keys[-1], 2), every[-3:-1])
        _same(cap.page_at(ref, 1, 2), every[1:3])
        assert [p.key for p in cap.page_after(ref, None, total)] == keys
        # key chunks continue from the last key given
        assert list(cap.key_chunk(ref, keys[1], 2)) == keys[2:4]
        # a message's place by its id; a message that is not there has none
        for position in (0, total // 2, total - 1):
            assert cap.locate(ref, every[position].id) == position
        assert cap.locate(ref, "no-such-message") is None
        # the raw view gets the message as stored
        assert cap.raw(ref, keys[-1]) is not None
        # nothing new after the last key
        assert cap.growth(ref, keys[-1], 10) == (0, keys[-1], [])
        added, last, newest = cap.growth(ref, keys[-3], 10)
        assert (added, last) == (2, keys[-1])
        _same(newest, every[-2:])


def test_daycare_sqlite_pages_are_decoded_only_when_asked(daycare_demo, tmp_path):
    with registry.open_store(_sqlite(daycare_demo, tmp_path), live=False) as store:
        cap = store.capability(api.Conversations)
        page = cap.page_after(cap_ref := _largest(cap), None, 50)
        assert page and not any(p.decoded for p in page)  # read, not decoded: the view decodes what it paints
        first = page[0].message()
        assert page[0].decoded and not page[1].decoded
        assert first is page[0].message()  # decoded once
        assert cap.raw(cap_ref, page[0].key) == store.core.db.scalar(
            "SELECT data FROM session_history WHERE id = :i", {"i": page[0].key})  # the stored text, exactly


def test_daycare_sqlite_message_details_keep_the_old_record_facts(daycare_demo, tmp_path):
    with registry.open_store(_sqlite(daycare_demo, tmp_path), live=False) as store:
        cap = store.capability(api.Conversations)
        ref = _largest(cap)
        messages = [p.message() for p in cap.page_after(ref, None, 500)]
        facts = {label for m in messages for label, _value in m.meta}
        assert {"Session", "Tool call id", "Tool"} <= facts
        assert any(m.kind.startswith("rlm_") for m in messages)  # Daycare's own record kinds keep their name


@pytest.fixture(scope="module")
def big_store(tmp_path_factory, daycare_demo):
    dest = tmp_path_factory.mktemp("keyedbig") / "daycare"
    shutil.copytree(daycare_demo, dest)
    add_big_session(dest, 100_000)
    return dest


def test_last_page_of_a_100000_record_session_issues_no_offset(big_store):
    with registry.open_store(big_store) as store:
        cap = store.capability(api.Conversations)
        db = store.core.db
        statements: list[str] = []
        prepare = db._pool._on_connect

        def traced(conn):
            prepare(conn)
            conn.set_trace_callback(statements.append)

        db._pool._on_connect = traced
        db._pool.dispose()  # connections from now on are traced
        ref = cap.find_session(BIG_SESSION)
        count, last = cap.tail(ref)  # what the view asks first: the count and the last key
        assert count == 100_000
        page = cap.page_before(ref, last + 1, 200)  # the last page, up to the last key counted
        keys = cap.key_chunk(ref, page[0].key - 1, 5)  # keys from there on
        earlier = cap.page_before(ref, page[0].key, 200)  # scrolling up from the end
        assert [p.key for p in page][-1] == last and len(page) == 200 and list(keys) == [p.key for p in page[:5]]
        assert earlier[-1].key < page[0].key and len(earlier) == 200
        assert cap.locate(ref, str(last)) == 99_999
        assert page[-1].message().id == str(last)
        reads = [s for s in statements if "session_history" in s]
        assert reads, "the trace saw no history read"
        assert not [s for s in reads if "OFFSET" in s.upper()], reads


def test_legacy_lines_are_keys_and_raw_is_the_line(daycare_demo, tmp_path):
    with registry.open_store(_legacy(daycare_demo, tmp_path), live=False) as store:
        cap = store.capability(api.Conversations)
        ref = _largest(cap)
        page = cap.page_after(ref, None, 3)
        raw = cap.raw(ref, page[0].key)
        assert isinstance(raw, dict) and raw.get("type") == page[0].message().kind
        assert page[0].message().id == str(page[0].key)  # the line number, as the legacy view always said
        json.dumps(raw)  # plain JSON data
