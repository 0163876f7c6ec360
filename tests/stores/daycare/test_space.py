"""Daycare's space on disk, measured for the SQLite demo and the real PGlite store: every table's and
index's bytes are what SQLite's dbstat / PostgreSQL's pg_total_relation_size say for the same store, the
agents are ranked by the bytes of their history, and nothing is written."""

from __future__ import annotations

import sqlite3

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.demo import write_demo
from tests.conftest import snapshot_tree


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("space") / "store"
    write_demo(root)
    return root


def test_sqlite_tables_and_indexes_take_what_dbstat_says_and_agents_rank_by_history_bytes(demo):
    before = snapshot_tree(demo)
    with registry.open_store(demo) as opened:
        report = opened.capability(api.Storage).space()
    assert snapshot_tree(demo) == before
    conn = sqlite3.connect(f"file:{demo / 'daycare.db'}?immutable=1", uri=True)
    try:
        expected = dict(conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        history = dict(conn.execute("SELECT s.agent_id, SUM(length(h.data)) FROM session_history h "
                                    "JOIN sessions s ON s.id = h.session_id GROUP BY s.agent_id"))
    finally:
        conn.close()
    assert report.method == "dbstat"
    assert {t.name: t.bytes for t in report.tables} == expected
    assert next(t for t in report.tables if t.name == "idx_session_history_session").kind == "index"
    assert report.total == page * pages and report.free == 0 and report.wal == 0
    assert {h.name: h.bytes for h in report.holders} == history
    assert [h.bytes for h in report.holders] == sorted(history.values(), reverse=True)
    assert report.holders_title == "Agents" and "history records" in report.holders[0].detail
    folders = {f.name: f for f in report.folders}
    assert folders["agents/"].count and folders["users/"].bytes > 0
    assert any(a.startswith(f"Agent {report.holders[0].name} holds") for a in report.advice)


def test_pglite_tables_take_what_pg_total_relation_size_says(pglite_store):
    with registry.open_store(pglite_store) as opened:
        report = opened.capability(api.Storage).space()
        db = opened.db
        assert report.method == "pg_total_relation_size" and report.tables
        for line in report.tables:
            fn = "pg_relation_size" if line.kind == "index" else "pg_total_relation_size"
            [(size,)] = db.rows(f"SELECT {fn}(to_regclass(:n))", {"n": f'"{line.name}"'})
            assert line.bytes == size, line.name
        [(total,)] = db.rows("SELECT pg_database_size(current_database())")
        assert report.total == total
        history = dict(db.rows("SELECT s.agent_id, SUM(pg_column_size(h.data)) FROM session_history h "
                               "JOIN sessions s ON s.id = h.session_id GROUP BY s.agent_id"))
    assert {h.name: h.bytes for h in report.holders} == {str(k): int(v) for k, v in history.items()}
    assert "session_history" in {t.name for t in report.tables}
