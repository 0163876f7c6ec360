"""Today's Daycare is searched through the shared index: a PostgreSQL server's history indexed
incrementally by id (rows added later are all that the next run reads), and a PGlite folder (the real one
Daycare 7c3c466c wrote) searched from the command line without a byte of it changing."""

from __future__ import annotations

import json

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.api import Conversations, SearchSource
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.common.search_query import SourceFilter, search_source
from tests.conftest import snapshot_tree


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


def _build_and_search(url, text, flt=SourceFilter()):
    with registry.open_store(url) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            built = update_source_index(source, index)
            return built, search_source(index, text, flt), store.capability(Conversations).threads()


def test_server_history_indexed_incrementally_by_id(pg_fresh_url):
    import psycopg

    built, results, threads = _build_and_search(pg_fresh_url, "Lisbon")
    assert built.status == "updated" and built.added == built.rows > 50
    assert results.total > 0
    thread_ids = {t.id for t in threads}
    assert {h.ref.thread_id for h in results.hits} <= thread_ids  # hits open in the shared conversation view
    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:
        session_id = conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (%s, 'user_message', %s, %s)",
                     (session_id, 1_795_000_000_000, json.dumps({"text": "where is the axolotl?"})))
    again, found, _ = _build_and_search(pg_fresh_url, "axolotl", SourceFilter(roles=("user",)))
    assert (again.status, again.added, again.rows) == ("updated", 1, built.rows + 1)
    assert [(h.ref.session_id, h.role) for h in found.hits] == [(session_id, "user")]
    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:  # the newest record is deleted
        conn.execute("DELETE FROM session_history WHERE id = (SELECT max(id) FROM session_history)")
    rebuilt, gone, _ = _build_and_search(pg_fresh_url, "axolotl")
    assert rebuilt.status == "rebuilt" and rebuilt.rows == built.rows and gone.total == 0


def test_pglite_folder_searched_from_the_command_line(pglite_fixture, capsys, index_dir):
    before = snapshot_tree(pglite_fixture)
    assert main(["search", str(pglite_fixture), "hello OR help", "--json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["kind"] == "daycare" and data["total"] == 2
    hits = [(g["thread_id"], s["session_id"], h["role"]) for g in data["groups"] for s in g["sessions"]
            for h in s["hits"]]
    assert sorted(hits) == [("a1", "s1", "assistant"), ("a1", "s1", "user")]
    assert "indexed 3 messages" in err
    assert list((index_dir / "sources").glob("*.sqlite"))
    assert snapshot_tree(pglite_fixture) == before  # PGlite read a private copy; the folder is untouched


def test_the_feed_reads_ahead_in_batches_and_a_stopped_build_leaves_nothing_reading(pg_fresh_url, monkeypatch):
    """The history is read a batch ahead while the last one is indexed: every record still comes once, in
    order, and a build that stops early (cancelled, closed) leaves no reader behind and the store usable."""
    import threading

    from daycare_gui.stores.daycare.pg.search_source import PgSearchSource

    monkeypatch.setattr(PgSearchSource, "BATCH", 7)  # many batches
    with registry.open_store(pg_fresh_url) as store:
        source = store.capability(SearchSource)
        ids = [int(cursor) for cursor, _ref, _m in source.messages(None)]
        assert ids == sorted(set(ids)) and len(ids) > 50
        stream = source.messages(str(ids[3]))
        assert [next(stream)[0] for _ in range(10)] == [str(i) for i in ids[4:14]]
        stream.close()
        assert not [t for t in threading.enumerate() if t.name.startswith("search-feed")]
        with SourceIndex.for_source(source) as index:  # cancelled after two batches, then finished
            calls = iter(range(10**6))
            cancelled = update_source_index(source, index, batch=7, cancel=lambda: next(calls) >= 2)
            assert cancelled.status == "cancelled" and cancelled.rows == 14
            assert not [t for t in threading.enumerate() if t.name.startswith("search-feed")]
            done = update_source_index(source, index)
            assert done.rows == len(ids) and search_source(index, "Lisbon").total > 0


def test_the_lean_rows_say_what_the_messages_say_and_index_alike(pg_fresh_url, tmp_path, monkeypatch):
    """``index_rows`` (what the index reads, made without whole messages) says of every record, of every type
    and of data that is no JSON object, exactly what its message says; the index built from them is the one
    built from the messages."""
    import psycopg

    from daycare_gui.stores.daycare.pg.search_source import PgSearchSource

    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:
        session_id = conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
        for data in ('"a bare string"', '[1, 2]', json.dumps({"text": "files", "files": [
                {"id": "f1", "name": "plan.pdf", "mimeType": "application/pdf", "size": 3, "path": "/tmp/plan.pdf"}]})):
            conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (%s, 'user_message', 1, %s)",
                         (session_id, data))

    def index(folder, lean: bool):
        monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / folder))
        if not lean:
            monkeypatch.setattr(PgSearchSource, "index_rows", lambda self, after: None)
        with registry.open_store(pg_fresh_url) as store:
            source = store.capability(SearchSource)
            rows = list(source.index_rows(None) or ())
            messages = [(c, ref.thread_id, ref.session_id, m.id, m.role, m.kind, m.at, m.text, m.tool_calls,
                         m.tool_result, m.attachments) for c, ref, m in source.messages(None)]
            with SourceIndex.for_source(source) as index:
                update_source_index(source, index, batch=9)
                stored = index.conn.execute("SELECT m.*, s.thread_id, s.session_id FROM message_rows AS m "
                                            "JOIN sessions AS s ON s.id = m.session ORDER BY m.id").fetchall()
        monkeypatch.undo()
        return rows, messages, stored

    rows, messages, lean = index("lean", True)
    _none, _same, whole = index("whole", False)
    assert rows == messages and len({r[5] for r in rows}) >= 6  # (record types: the demo's and the odd ones)
    assert any(r[10] == ("plan.pdf",) for r in rows) and any(r[4] == "event" and r[7] == "" for r in rows)
    assert lean == whole and len(lean) == len(rows)
