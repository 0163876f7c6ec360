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


def _copy(demo, tmp_path):
    import shutil

    shutil.copytree(demo, tmp_path / "store")
    return tmp_path / "store"


def test_space_is_kept_per_store_fingerprint_privately_and_measured_again_after_a_commit(demo, tmp_path,
                                                                                          monkeypatch):
    import os
    import stat

    from daycare_gui.stores.common import space as shared_space
    from daycare_gui.stores.daycare import space as daycare_space

    root = _copy(demo, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with registry.open_store(root) as opened:
        storage = opened.capability(api.Storage)
        quick = storage.space_quick()
        assert quick.holders_pending and not quick.holders and quick.tables  # tables at once, agents to come
        first = storage.space()
        assert not first.holders_pending and first.holders

        def measured_again(*_a, **_k):
            raise AssertionError("measured again though the store did not change")

        with monkeypatch.context() as patch:  # kept: neither dbstat nor the history is read again
            patch.setattr(daycare_space, "sqlite_tables", measured_again)
            patch.setattr(daycare_space, "_sqlite_agents", measured_again)
            again = storage.space_quick()
        assert again.to_dict() == first.to_dict()
    kept = list((tmp_path / "cache" / "daycare-gui" / "kept").rglob("space*.json"))
    assert len(kept) == 1 and stat.S_IMODE(os.stat(kept[0]).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(kept[0].parent).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(kept[0].parent.parent).st_mode) == 0o700

    top = first.holders[0]
    conn = sqlite3.connect(root / "daycare.db")  # the agent's system writes a big record
    session = conn.execute("SELECT id FROM sessions WHERE agent_id = ? LIMIT 1", (top.name,)).fetchone()[0]
    conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'note', 1, ?)",
                 (session, "x" * 300_000))
    conn.commit()
    conn.close()
    calls = []
    monkeypatch.setattr(daycare_space, "sqlite_tables", lambda fetch, _f=shared_space.sqlite_tables:
                        calls.append(1) or _f(fetch))
    with registry.open_store(root) as opened:
        after = opened.capability(api.Storage).space()
    assert calls == [1]  # the commit changed the fingerprint: measured again
    assert next(h for h in after.holders if h.name == top.name).bytes == top.bytes + 300_000
    assert after.total > first.total and after.holders[0].count == top.count + 1


def test_the_kept_space_goes_when_its_store_goes(demo, tmp_path, monkeypatch):
    import shutil

    from daycare_gui.stores.common.kept import prune_kept

    root = _copy(demo, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with registry.open_store(root) as opened:
        opened.capability(api.Storage).space()
    kept = tmp_path / "cache" / "daycare-gui" / "kept"
    assert list(kept.rglob("space*.json"))
    shutil.rmtree(root)
    prune_kept()  # (what the application does at each start)
    assert not list(kept.rglob("space*.json"))


def test_progress_is_told_per_step_and_raising_from_it_stops_the_measuring(demo, tmp_path, monkeypatch):
    from daycare_gui.stores.daycare import space as daycare_space

    root = _copy(demo, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(daycare_space, "SESSION_CHUNK", 2)
    steps: list[str] = []

    class Stop(Exception):
        pass

    def stop_at_half(step):
        steps.append(step)
        if step.endswith("%") and int(step.split()[-1][:-1]) >= 50:
            raise Stop

    with registry.open_store(root) as opened:
        storage = opened.capability(api.Storage)
        with pytest.raises(Stop):
            storage.space(progress=stop_at_half)
        assert steps[0] == "measuring tables" and "measuring agents: 0%" in steps
        assert storage.space_quick().holders_pending  # a stopped measuring keeps no agents
        done: list[str] = []
        assert storage.space(progress=done.append).holders
    assert done[0] == "measuring agents" and done[-1].startswith("measuring agents: ")  # the tables were kept


def test_advice_says_what_to_do_and_what_it_costs(demo, tmp_path, monkeypatch):
    from daycare_gui.stores.common.wording import byte_size

    root = _copy(demo, tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    conn = sqlite3.connect(root / "daycare.db")  # free pages: what a VACUUM would give back
    conn.execute("CREATE TABLE scratch (x)")
    conn.executemany("INSERT INTO scratch VALUES (?)", [("y" * 4000,)] * 50)
    conn.commit()
    conn.execute("DROP TABLE scratch")
    conn.commit()
    conn.close()
    with registry.open_store(root) as opened:
        report = opened.capability(api.Storage).space()
    assert report.free > 0
    top = report.holders[0]
    assert (f"A VACUUM with Daycare stopped gives back the {byte_size(report.free)} of free pages; it rewrites the whole "
            f"file, which needs about {byte_size(report.total - report.free)} of free disk while it runs.") in report.advice
    growth = next(a for a in report.advice if a.startswith(f"Agent {top.name} holds"))
    assert f"growing about {byte_size(top.per_day)} a day" in growth and "it is where the store grows" in growth
