"""Building, updating and searching the index over a demo store; the store is never written."""

from __future__ import annotations

import pytest

from daycare_gui.stores.daycare.sqlite.fts_index import SearchFilter, index_path, search, update_index
from daycare_gui.stores.daycare.sqlite.fts_index.build import staleness
from daycare_gui.stores.daycare.sqlite.fts_index.index import MARK_CLOSE, MARK_OPEN, store_key
from tests.conftest import snapshot_tree
from tests.core.search.conftest import sql, write_rows


def _ids(results):
    return [h.record_id for h in results.hits]


def test_index_lives_outside_the_store_and_is_keyed_by_it(store_copy, demo_master, index_dir, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    assert index.path.parent == index_dir
    assert not str(index.path).startswith(str(store_copy))
    assert store_key(store_copy / "daycare.db") != store_key(demo_master / "daycare.db")
    assert index_path(store_copy / "daycare.db") == index.path  # the env override is the default dir


def test_store_is_byte_identical_after_build_and_search(demo_master, open_pair):
    before = snapshot_tree(demo_master)
    db, index = open_pair(demo_master)
    update_index(db, index)
    search(index, db, "lisbon", SearchFilter(kinds=("user",), lifecycles=("active",)))
    search(index, db, "the", SearchFilter(record_types=("note",), since=0, until=2**62))
    update_index(db, index)
    db.close()
    assert snapshot_tree(demo_master) == before


def test_finds_words_from_every_kind_of_record(store_copy, open_pair):
    db, index = open_pair(store_copy)
    result = update_index(db, index)
    assert result.status == "updated" and result.rows == result.added > 100
    found = {w: {h.type for h in search(index, db, w).hits} for w in
             ("lisbon", "web_search", "gmail_search", "sass", "grocery", "booted")}
    assert "user_message" in found["lisbon"] and "tool_result" in found["lisbon"]
    assert "assistant_message" in found["web_search"]  # a tool call's name
    assert "assistant_message" in found["gmail_search"]
    assert "rlm_complete" in found["sass"] or "tool_result" in found["sass"]
    assert "rlm_tool_call" in found["grocery"]  # print output of an rlm step
    assert found["booted"] == {"note"}


def test_rlm_snapshots_are_not_indexed(store_copy, open_pair):
    snapshot = "QmFzZTY0U25hcHNob3RPbmx5V29yZA"
    write_rows(store_copy, [("rlm_tool_call", {"toolCallId": "t1", "snapshot": snapshot, "printOutput": ["visible"],
                                               "toolCallCount": 1, "toolName": "exec", "toolArgs": {"cmd": "ls"}})])
    db, index = open_pair(store_copy)
    update_index(db, index)
    assert search(index, db, snapshot).hits == []
    assert len(search(index, db, "visible").hits) == 1


def test_a_malformed_payload_is_indexed_as_its_text_and_the_rest_as_usual(store_copy, open_pair):
    ids = write_rows(store_copy, [("user_message", {"text": "before the broken one"}),
                                  ("user_message", {"text": "zanzibar after it"})])
    sql(store_copy, "UPDATE session_history SET data = '{\"text\": \"quokka truncated' WHERE id = ?", (ids[0],))
    db, index = open_pair(store_copy)
    update_index(db, index, batch=7)  # small batches: the bad row's batch is read again, the others not
    assert [h.record_id for h in search(index, db, "quokka").hits] == [ids[0]]
    assert [h.record_id for h in search(index, db, "zanzibar").hits] == [ids[1]]
    assert index.state().rows == sql(store_copy, "SELECT count(*) FROM session_history")[0][0]


def test_a_live_store_is_indexed_through_its_wal_and_left_as_it_was(store_copy, open_pair):
    import sqlite3

    writer = sqlite3.connect(store_copy / "daycare.db")  # an engine with a row still in its WAL
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    session = writer.execute("SELECT id FROM sessions LIMIT 1").fetchone()[0]
    writer.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, 'note', 1, ?)",
                   (session, '{"text": "wombat in the wal"}'))
    writer.commit()
    try:
        before = {p.name: p.read_bytes() for p in store_copy.glob("daycare.db*") if not p.name.endswith("-shm")}
        db, index = open_pair(store_copy)
        update_index(db, index)
        assert len(search(index, db, "wombat").hits) == 1
        assert index.conn.execute("PRAGMA database_list").fetchall()[1:] == []  # the store is detached again
        after = {p.name: p.read_bytes() for p in store_copy.glob("daycare.db*") if not p.name.endswith("-shm")}
        assert after == before
    finally:
        writer.close()


def test_stemming_phrases_prefixes(store_copy, open_pair):
    ids = write_rows(store_copy, [
        ("user_message", {"text": "I was running late to the harbour", "files": []}),
        ("user_message", {"text": "late harbour running", "files": []}),
        ("note", {"text": "zephyrology is a made-up word"}),
    ])
    db, index = open_pair(store_copy)
    update_index(db, index)
    assert set(ids[:2]) <= set(_ids(search(index, db, "run")))
    assert _ids(search(index, db, '"running late"')) == [ids[0]]
    assert _ids(search(index, db, "zephyr*")) == [ids[2]]
    assert _ids(search(index, db, "zephyr")) == []  # a prefix needs the star


def test_diacritics_and_unicode(store_copy, open_pair):
    ids = write_rows(store_copy, [
        ("user_message", {"text": "Meet at the café near Dvořák square", "files": []}),
        ("user_message", {"text": "Notes in 日本語 and Ελληνικά", "files": []}),
    ])
    db, index = open_pair(store_copy)
    update_index(db, index)
    assert _ids(search(index, db, "cafe")) == [ids[0]]
    assert _ids(search(index, db, "café")) == [ids[0]]
    assert _ids(search(index, db, "dvorak")) == [ids[0]]
    # unicode61 keeps a run of CJK characters as one token: the whole run or a prefix of it matches
    assert _ids(search(index, db, "日本語")) == [ids[1]]
    assert _ids(search(index, db, "日本*")) == [ids[1]]
    assert _ids(search(index, db, "ελληνικά")) == [ids[1]]  # case folds beyond Latin (accents stay)


def test_snippets_mark_matches(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    hit = search(index, db, "lisbon").hits[0]
    assert f"{MARK_OPEN}Lisbon{MARK_CLOSE}" in hit.snippet


@pytest.mark.parametrize("text", ['"unterminated', "AND OR", "*", "NEAR(", "a:b", '"', "-", "OR OR lisbon OR"])
def test_fts_syntax_in_user_input_does_not_crash(store_copy, open_pair, text):
    db, index = open_pair(store_copy)
    update_index(db, index)
    search(index, db, text)  # no exception is the point


def test_grouped_by_agent_then_session(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    results = search(index, db, "lisbon")
    agents = [g.agent_id for g in results.groups]
    assert len(agents) == len(set(agents)) >= 2
    for group in results.groups:
        assert group.name and group.kind != "?"
        sessions = [s.session_id for s in group.sessions]
        assert len(sessions) == len(set(sessions))
        for s in group.sessions:
            assert all(h.session_id == s.session_id and h.agent_id == group.agent_id for h in s.hits)
    assert sum(g.hit_count for g in results.groups) == len(results.hits) == results.total


def test_incremental_update_indexes_only_new_rows(store_copy, open_pair):
    db, index = open_pair(store_copy)
    first = update_index(db, index)
    again = update_index(db, index)
    assert again.status == "up to date" and again.added == 0 and again.last_id == first.last_id
    db.close()
    new = write_rows(store_copy, [("note", {"text": "quokka one"}), ("note", {"text": "quokka two"})])
    db, index = open_pair(store_copy)
    seen = []
    result = update_index(db, index, progress=lambda d, t: seen.append((d, t)))
    assert result.status == "updated" and result.added == 2
    assert result.last_id == max(new) and index.state().last_id == max(new)
    assert seen[0] == (0, 2) and seen[-1] == (2, 2)
    assert sorted(_ids(search(index, db, "quokka"))) == new


def test_cancel_keeps_progress_and_resumes(store_copy, open_pair):
    db, index = open_pair(store_copy)
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 2  # two batches, then stop

    first = update_index(db, index, batch=20, cancel=cancel)
    assert first.status == "cancelled" and first.added == 40
    assert index.state().rows == 40
    rest = update_index(db, index, batch=20)
    assert rest.status == "updated" and rest.added == rest.rows - 40
    assert staleness(db, index) == ("incremental", "")


def test_rebuild_when_history_shrank(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    db.close()
    victim = sql(store_copy, "SELECT id FROM session_history WHERE type = 'note' ORDER BY id LIMIT 1")[0][0]
    sql(store_copy, "DELETE FROM session_history WHERE id = ?", (victim,))
    db, index = open_pair(store_copy)
    verdict, reason = staleness(db, index)
    assert verdict == "rebuild" and "shrank" in reason
    result = update_index(db, index)
    assert result.status == "rebuilt"
    assert victim not in _ids(search(index, db, "booted", limit=1000))


def test_rebuild_when_indexed_rows_changed(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    sample_id = index.state().fingerprint[0][0]
    db.close()
    sql(store_copy, "UPDATE session_history SET data = ? WHERE id = ?", ('{"text": "rewritten wombat"}', sample_id))
    db, index = open_pair(store_copy)
    assert staleness(db, index)[0] == "rebuild"
    assert update_index(db, index).status == "rebuilt"
    assert _ids(search(index, db, "wombat")) == [sample_id]


def test_rebuild_when_history_was_replaced(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    db.close()
    sql(store_copy, "DELETE FROM session_history")
    write_rows(store_copy, [("note", {"text": "fresh start"})])
    db, index = open_pair(store_copy)
    result = update_index(db, index)
    assert result.status == "rebuilt" and result.rows == 1


def test_filters_run_in_sql(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    everything = search(index, db, "lisbon", limit=1000)
    kinds = {g.kind for g in everything.groups}
    assert {"user", "subagent"} <= kinds
    only_sub = search(index, db, "lisbon", SearchFilter(kinds=("subagent",)), limit=1000)
    assert {g.kind for g in only_sub.groups} == {"subagent"}
    lifecycles = {g.lifecycle for g in everything.groups}
    for life in lifecycles:
        got = search(index, db, "lisbon", SearchFilter(lifecycles=(life,)), limit=1000)
        assert got.hits and {g.lifecycle for g in got.groups} == {life}
    users = {r[0] for r in db.rows("SELECT DISTINCT user_id FROM agents")}
    per_user = [search(index, db, "lisbon", SearchFilter(user_id=u), limit=1000) for u in users]
    assert sum(len(r.hits) for r in per_user) == len(everything.hits)
    assert search(index, db, "lisbon", SearchFilter(user_id="nobody")).hits == []
    types = search(index, db, "lisbon", SearchFilter(record_types=("tool_result",)), limit=1000)
    assert types.hits and {h.type for h in types.hits} == {"tool_result"}
    ats = sorted(h.at for h in everything.hits)
    middle = ats[len(ats) // 2]
    later = search(index, db, "lisbon", SearchFilter(since=middle), limit=1000)
    earlier = search(index, db, "lisbon", SearchFilter(until=middle), limit=1000)
    assert all(h.at >= middle for h in later.hits) and all(h.at < middle for h in earlier.hits)
    assert len(later.hits) + len(earlier.hits) == len(everything.hits)
    one = everything.hits[0].agent_id
    assert {h.agent_id for h in search(index, db, "lisbon", SearchFilter(agent_id=one)).hits} == {one}


def test_newest_first_orders_by_record_id(store_copy, open_pair):
    db, index = open_pair(store_copy)
    update_index(db, index)
    ids = _ids(search(index, db, "lisbon", newest_first=True))
    assert ids == sorted(ids, reverse=True)


def test_many_matches_rank_within_the_newest(store_copy, open_pair, monkeypatch):
    import daycare_gui.stores.daycare.sqlite.fts_index.query as q

    monkeypatch.setattr(q, "RANK_WINDOW", 5)
    monkeypatch.setattr(q, "COUNT_CAP", 4)
    db, index = open_pair(store_copy)
    update_index(db, index)
    results = search(index, db, "the", limit=3)
    assert results.total_capped and results.ranked_within == 5 and len(results.hits) == 3
    newest = _ids(search(index, db, "the", newest_first=True, limit=5))
    assert set(_ids(results)) <= set(newest)


def test_fixture_store_is_searchable_and_untouched(fixture_copy, open_pair):
    store = fixture_copy("daycare-808af509")
    before = snapshot_tree(store)
    db, index = open_pair(store)
    result = update_index(db, index)
    assert result.rows == db.count("session_history")
    word = None
    for (text,) in db.rows("SELECT json_extract(data, '$.text') FROM session_history "
                           "WHERE type = 'user_message' AND json_valid(data) LIMIT 20"):
        words = [w for w in (text or "").split() if w.isalpha() and len(w) > 4]
        if words:
            word = words[0]
            break
    if word is not None:
        assert search(index, db, word).hits
    search(index, db, "x", SearchFilter(user_id="someone", kinds=("user",)))
    db.close()
    assert snapshot_tree(store) == before
