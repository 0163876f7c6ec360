"""Today's Daycare on PostgreSQL offers the filters its SQLite generation has (agent kind, lifecycle, user,
record type) and its documents to the shared search: the same hits as filtering by hand, from the window or
the command line (--agent-kind, --type), and a document found with where it lives."""

from __future__ import annotations

import json

import psycopg
import pytest

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_docs import store_documents
from daycare_gui.stores.common.search_index import SourceIndex, update_documents
from daycare_gui.stores.common.search_query import SourceFilter, search_source


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


def _search(url, text, choices=()):
    with registry.open_store(url) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            update_source_index(source, index)
            update_documents(index, store_documents(store, source))
            return search_source(index, text, SourceFilter(choices=tuple(choices)), limit=10_000, source=source)


def test_facets_filter_as_the_rows_say(pg_demo_url):
    with registry.open_store(pg_demo_url) as store:
        facets = {f.name: f for f in store.capability(SearchSource).facets()}
    assert list(facets) == ["agent_kind", "lifecycle", "user", "record_type"]
    with psycopg.connect(pg_demo_url) as conn:
        kinds = {k: {r[0] for r in conn.execute("SELECT id FROM agents WHERE valid_to IS NULL AND kind = %s", (k,))}
                 for k, _label in facets["agent_kind"].choices}
        types = {r[0]: r[1] for r in conn.execute("SELECT id::text, type FROM session_history")}
    everything = _search(pg_demo_url, "the")
    assert everything.hits
    some = 0
    for kind, agents in kinds.items():
        found = _search(pg_demo_url, "the", [("agent_kind", kind)])
        assert {(h.ref.thread_id, h.message_id) for h in found.hits} == {
            (h.ref.thread_id, h.message_id) for h in everything.hits if h.ref.thread_id in agents}, kind
        some += bool(found.hits)
    assert some >= 1
    found = _search(pg_demo_url, "the", [("record_type", "user_message")])
    assert found.hits and {types[h.message_id] for h in found.hits} == {"user_message"}
    assert found.documents == []  # a message filter leaves documents out


def test_documents_of_the_documents_table_are_found(pg_demo_url, capsys):
    with registry.open_store(pg_demo_url) as store:
        from daycare_gui.stores.api import Documents

        docs = store.capability(Documents)
        ref = docs.documents()[0]
        word = next(w for w in docs.read(ref).decode().split() if w.isalpha() and len(w) > 6)
    found = _search(pg_demo_url, word)
    assert ref.id in {d.key for d in found.documents}
    assert main(["search", pg_demo_url, word, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert ref.id in {d["id"] for d in data["documents"]}
    assert main(["search", pg_demo_url, "the", "--json", "--type", "assistant_message", "--agent-kind", "cron"]) == 0
    data = json.loads(capsys.readouterr().out)
    with psycopg.connect(pg_demo_url) as conn:
        crons = {r[0] for r in conn.execute("SELECT id FROM agents WHERE valid_to IS NULL AND kind = 'cron'")}
    hits = [h for g in data["groups"] for s in g["sessions"] for h in s["hits"]]
    assert hits and {g["thread_id"] for g in data["groups"]} <= crons
    assert {h["kind"] for h in hits} == {"assistant_message"} and data["documents"] == []
