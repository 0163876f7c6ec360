"""What Daycare's search finds in a SQLite store's history, through the shared index it feeds (the search the
window and ``daycare-gui search`` run): words from every kind of record, never an rlm snapshot, a malformed
payload as its text, a live engine's rows still in the WAL, stemming, accents and scripts beyond Latin; and
the store is left byte for byte as it was. (These were asked of Daycare's former index; it is gone.)"""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.fts import MARK_CLOSE, MARK_OPEN
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.common.search_query import SourceFilter, search_source
from daycare_gui.stores.daycare.demo import write_demo
from tests.conftest import snapshot_tree


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture(scope="module")
def demo_master(tmp_path_factory):
    dest = tmp_path_factory.mktemp("search-records") / "daycare"
    write_demo(dest)
    return dest


@pytest.fixture
def store_copy(demo_master, tmp_path):
    dest = tmp_path / "store"
    shutil.copytree(demo_master, dest)
    return dest


def _search(store_dir, *texts, choices=(), batch=None):
    """Build the store's index (as the Search page does) and run each text: {text: hits}."""
    with registry.open_store(store_dir) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            update_source_index(source, index, **({"batch": batch} if batch else {}))
            return {t: search_source(index, t, SourceFilter(choices=tuple(choices)), limit=10_000,
                                     source=source).hits for t in texts}


def _ids(hits) -> list[str]:
    return sorted(h.message_id for h in hits)


def write_rows(store_dir, rows) -> list[str]:
    """Append history rows (type, data dict) to a store copy's first session; their ids."""
    conn = sqlite3.connect(store_dir / "daycare.db")
    try:
        session_id = conn.execute("SELECT id FROM sessions ORDER BY created_at LIMIT 1").fetchone()[0]
        ids = []
        for type_, data in rows:
            cur = conn.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, ?, ?, ?)",
                               (session_id, type_, 1_770_000_000_000, json.dumps(data)))
            ids.append(str(cur.lastrowid))
        conn.commit()
        return ids
    finally:
        conn.close()


def test_the_store_is_byte_identical_after_indexing_and_searching(demo_master):
    before = snapshot_tree(demo_master)
    _search(demo_master, "lisbon", choices=[("agent_kind", "user"), ("lifecycle", "active")])
    _search(demo_master, "the", choices=[("record_type", "note")])
    assert snapshot_tree(demo_master) == before


def test_finds_words_from_every_kind_of_record(demo_master):
    found = {w: {h.kind for h in hits} for w, hits in
             _search(demo_master, "lisbon", "web_search", "gmail_search", "sass", "grocery", "booted").items()}
    assert "user_message" in found["lisbon"] and "tool_result" in found["lisbon"]
    assert "assistant_message" in found["web_search"]  # a tool call's name
    assert "assistant_message" in found["gmail_search"]
    assert "rlm_complete" in found["sass"] or "tool_result" in found["sass"]
    assert "rlm_tool_call" in found["grocery"]  # print output of an rlm step
    assert found["booted"] == {"note"}


def test_rlm_snapshots_are_not_indexed(store_copy):
    snapshot = "QmFzZTY0U25hcHNob3RPbmx5V29yZA"
    write_rows(store_copy, [("rlm_tool_call", {"toolCallId": "t1", "snapshot": snapshot, "printOutput": ["visible"],
                                               "toolCallCount": 1, "toolName": "exec", "toolArgs": {"cmd": "ls"}})])
    found = _search(store_copy, snapshot, "visible")
    assert found[snapshot] == [] and len(found["visible"]) == 1


def test_a_malformed_payload_is_indexed_as_its_text_and_the_rest_as_usual(store_copy):
    ids = write_rows(store_copy, [("user_message", {"text": "before the broken one"}),
                                  ("user_message", {"text": "zanzibar after it"})])
    conn = sqlite3.connect(store_copy / "daycare.db")
    conn.execute("UPDATE session_history SET data = '{\"text\": \"quokka truncated' WHERE id = ?", (ids[0],))
    conn.commit()
    conn.close()
    found = _search(store_copy, "quokka", "zanzibar", batch=7)  # the bad row's batch is read again, checked
    assert _ids(found["quokka"]) == [ids[0]] and _ids(found["zanzibar"]) == [ids[1]]


def test_a_live_store_is_indexed_through_its_wal_and_left_as_it_was(store_copy):
    writer = sqlite3.connect(store_copy / "daycare.db")  # an engine with a row still in its WAL
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    session = writer.execute("SELECT id FROM sessions LIMIT 1").fetchone()[0]
    writer.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, 'note', 1, ?)",
                   (session, '{"text": "wombat in the wal"}'))
    writer.commit()
    try:
        before = {p.name: p.read_bytes() for p in store_copy.glob("daycare.db*") if not p.name.endswith("-shm")}
        assert len(_search(store_copy, "wombat")["wombat"]) == 1
        after = {p.name: p.read_bytes() for p in store_copy.glob("daycare.db*") if not p.name.endswith("-shm")}
        assert after == before
    finally:
        writer.close()


def test_stemming_phrases_prefixes_accents_and_other_scripts(store_copy):
    ids = write_rows(store_copy, [
        ("user_message", {"text": "I was running late to the harbour", "files": []}),
        ("user_message", {"text": "late harbour running", "files": []}),
        ("note", {"text": "zephyrology is a made-up word"}),
        ("user_message", {"text": "Meet at the café near Dvořák square", "files": []}),
        ("user_message", {"text": "Notes in 日本語 and Ελληνικά", "files": []}),
    ])
    found = _search(store_copy, "run", '"running late"', "zephyr*", "zephyr", "cafe", "café", "dvorak",
                    "日本語", "日本*", "ελληνικά", "lisbon")
    assert set(ids[:2]) <= set(_ids(found["run"]))
    assert _ids(found['"running late"']) == [ids[0]]
    assert _ids(found["zephyr*"]) == [ids[2]] and _ids(found["zephyr"]) == []  # a prefix needs the star
    assert _ids(found["cafe"]) == _ids(found["café"]) == _ids(found["dvorak"]) == [ids[3]]
    # unicode61 keeps a run of CJK characters as one token: the whole run or a prefix of it matches
    assert _ids(found["日本語"]) == _ids(found["日本*"]) == [ids[4]]
    assert _ids(found["ελληνικά"]) == [ids[4]]  # case folds beyond Latin (accents stay)
    assert any(f"{MARK_OPEN}Lisbon{MARK_CLOSE}" in h.snippet for h in found["lisbon"])


def test_tool_calls_of_every_shape_are_found_and_none_is_no_text(store_copy):
    """An assistant message's tool calls are found by name and arguments whether they are a list or keyed by
    id; none (an empty list, no key, a scalar) adds no text: the message's words are found as they are."""
    ids = write_rows(store_copy, [
        ("assistant_message", {"text": "listed call", "toolCalls": [{"name": "ocelot_tool", "arguments": {"q": "alpha"}}]}),
        ("assistant_message", {"text": "keyed call", "toolCalls": {"c1": {"name": "ocelot_tool", "arguments": "beta"}}}),
        ("assistant_message", {"text": "mixed call", "toolCalls": [7, "ocelot_word", {"name": "ocelot_tool"}]}),
        ("assistant_message", {"text": "quagga empty", "toolCalls": []}),
        ("assistant_message", {"text": "quagga missing"}),
        ("assistant_message", {"text": "quagga scalar", "toolCalls": "ocelot_word"}),
    ])
    found = _search(store_copy, "ocelot_tool", "alpha", "beta", "ocelot_word", "quagga")
    assert _ids(found["ocelot_tool"]) == sorted(ids[:3])
    assert _ids(found["alpha"]) == [ids[0]] and _ids(found["beta"]) == [ids[1]]
    assert found["ocelot_word"] == []  # (only a call's name and arguments are its text)
    assert _ids(found["quagga"]) == sorted(ids[3:])
