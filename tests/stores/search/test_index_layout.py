"""The search index's layout (version 4: rows in an ordinary table FTS5 reads as its external content, tags as
the index's own short tokens) answers every search exactly as the layout before it did (one FTS5 table of
every column, the tags' keys as text): the same hits in the same order, the same snippets, under every filter.
An index of the former layout left on disk is rebuilt, not misread."""

from __future__ import annotations

import sqlite3

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.fts import TOKENIZER, match_expression
from daycare_gui.stores.common.fts_search import find_matches, tags_any, where_clause
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.common.search_query import COUNT_CAP, RANK_WINDOW, SourceFilter, search_source
from daycare_gui.stores.common.search_tags import facet_tag, role_tag, thread_tag
from daycare_gui.stores.daycare.demo import write_demo

# The layout before version 4, as it was written (every column in the FTS5 table, tags as their keys).
FORMER_SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL, session_id TEXT NOT NULL,
    messages INTEGER NOT NULL DEFAULT 0, UNIQUE (thread_id, session_id)
);
CREATE VIRTUAL TABLE messages USING fts5(
    body, tags, session UNINDEXED, message_id UNINDEXED, role UNINDEXED, kind UNINDEXED, at UNINDEXED,
    position UNINDEXED, tokenize = '{TOKENIZER}'
);
"""


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("index-layout") / "daycare"
    write_demo(dest)
    return dest


def _former_copy(index: SourceIndex) -> sqlite3.Connection:
    """The index's rows written in the former layout (in memory), the tags turned back into their keys."""
    keys = {f"t{n}": tag for n, tag in index.conn.execute("SELECT id, tag FROM tag_ids")}
    old = sqlite3.connect(":memory:")
    old.executescript(FORMER_SCHEMA)
    old.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?)", index.conn.execute("SELECT * FROM sessions"))
    rows = index.conn.execute("SELECT id, body, tags, session, message_id, role, kind, at, position "
                              "FROM message_rows ORDER BY id").fetchall()
    old.executemany("INSERT INTO messages(rowid, body, tags, session, message_id, role, kind, at, position) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(r[0], r[1], " ".join(keys[t] for t in r[2].split()), *r[3:]) for r in rows])
    return old


def _former_search(old: sqlite3.Connection, text: str, flt: SourceFilter, newest_first: bool) -> list[tuple]:
    """A search as the former layout ran it: filter terms on the tags' keys."""
    expr = f"body : ({match_expression(text)})"
    if flt.roles:
        expr += " AND tags : " + tags_any([role_tag(r) for r in flt.roles])
    if flt.thread_id is not None:
        expr += " AND tags : " + tags_any([thread_tag(flt.thread_id)])
    for name, value in flt.choices:
        expr += " AND tags : " + tags_any([facet_tag(name, value)])
    parts, params = where_clause("messages", expr, flt.since, flt.until)
    found = find_matches(old, "messages", "rowid, session, message_id, role, kind, at, position", " AND ".join(parts),
                         params, limit=200, newest_first=newest_first, count_cap=COUNT_CAP, rank_window=RANK_WINDOW)
    refs = dict((r[0], (r[1], r[2])) for r in old.execute("SELECT id, thread_id, session_id FROM sessions"))
    return [(r[0], refs[r[1]], r[2], r[3] or "", r[4] or "", r[5], r[6], r[7]) for r in found.rows]


def _searches(index: SourceIndex) -> list[tuple[str, SourceFilter, bool]]:
    """Words common and rare (from the index's own vocabulary), operators, and every kind of filter."""
    index.conn.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, messages, 'row')")
    common = [r[0] for r in index.conn.execute("SELECT term FROM temp.vocab WHERE term NOT LIKE 't%' "
                                               "ORDER BY doc DESC, term LIMIT 4")]
    rare = [r[0] for r in index.conn.execute("SELECT term FROM temp.vocab WHERE doc BETWEEN 2 AND 5 "
                                             "AND term NOT GLOB '*[0-9]*' ORDER BY term LIMIT 3")]
    thread, = index.conn.execute("SELECT thread_id FROM sessions ORDER BY messages DESC LIMIT 1").fetchone()
    low, high = index.conn.execute("SELECT min(at), max(at) FROM message_rows").fetchone()
    middle = (low + high) // 2
    filters = [SourceFilter(), SourceFilter(roles=("assistant",)), SourceFilter(roles=("tool", "user")),
               SourceFilter(roles=("nobody",)), SourceFilter(thread_id=thread), SourceFilter(thread_id="no such"),
               SourceFilter(choices=(("record_type", "tool_result"),)), SourceFilter(since=middle),
               SourceFilter(until=middle), SourceFilter(roles=("assistant",), thread_id=thread, since=low)]
    texts = common + rare + ["lisbon", "flight*", "weather OR calendar", '"the weather"', "report -draft"]
    assert len(texts) >= 10
    return [(t, f, newest) for t in texts for f in filters for newest in (False, True)]


@pytest.mark.parametrize("feed", [True, False], ids=["copied inside SQLite", "streamed"])
def test_every_search_answers_as_the_former_layout_did(demo, feed, monkeypatch):
    from daycare_gui.stores.daycare.sqlite.search import DaycareSqliteSearch

    if not feed:
        monkeypatch.setattr(DaycareSqliteSearch, "sqlite_feed", lambda self: None)
    with registry.open_store(demo) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            update_source_index(source, index, batch=40)  # several batches, places counted across them
            old = _former_copy(index)
            compared = nonempty = 0
            for text, flt, newest in _searches(index):
                hits = search_source(index, text, flt, limit=200, newest_first=newest, documents=False).hits
                got = [(h.seq, (h.ref.thread_id, h.ref.session_id), h.message_id, h.role, h.kind, h.at, h.position,
                        h.snippet) for h in hits]
                assert got == _former_search(old, text, flt, newest), (text, flt, newest)
                compared += 1
                nonempty += bool(got)
    assert compared >= 200 and nonempty >= compared // 3  # (most searches find something: nothing vacuous)


def test_an_index_of_the_former_layout_is_rebuilt_not_misread(demo, index_dir):
    with registry.open_store(demo) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            update_source_index(source, index)
            path, meta = index.path, index.meta()
            expected = search_source(index, "lisbon", SourceFilter(roles=("assistant",)), documents=False).hits
            old = _former_copy(index)
        assert expected
        # the same file as version 3 wrote it: its tables, its rows, its meta (same store, cursor and rows)
        for sidecar in ("", "-wal", "-shm"):
            path.with_name(path.name + sidecar).unlink(missing_ok=True)
        former = sqlite3.connect(path)
        former.executescript(FORMER_SCHEMA)
        former.executemany("INSERT INTO meta VALUES (?, ?)", [(k, "3" if k == "version" else v) for k, v in meta.items()])
        former.executemany("INSERT INTO sessions VALUES (?, ?, ?, ?)", old.execute("SELECT * FROM sessions"))
        former.executemany("INSERT INTO messages(rowid, body, tags, session, message_id, role, kind, at, position) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", old.execute(
                               "SELECT rowid, body, tags, session, message_id, role, kind, at, position FROM messages"))
        former.commit()
        former.close()
        with SourceIndex.for_source(source) as index:
            built = update_source_index(source, index)
            assert built.status == "rebuilt" and "format 3" in built.reason
            assert index.conn.execute("SELECT count(*) FROM message_rows").fetchone()[0] == built.rows == int(meta["rows"])
            assert not index.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'messages_content'").fetchall()
            found = search_source(index, "lisbon", SourceFilter(roles=("assistant",)), documents=False).hits
            assert found == expected

