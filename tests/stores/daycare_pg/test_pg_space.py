"""Daycare's space on PGlite and a real PostgreSQL server: every table's bytes are what the server's
pg_total_relation_size says; the agents' bytes are the history's pg_column_size summed per agent, measured
in steps of record ids (progress told, a raise from it stops), shown after a quick first part that names the
agents still to measure, and on PGlite kept by the folder's fingerprint so the next open shows them at once."""

from __future__ import annotations

import os

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare import space as daycare_space

AGENTS_SQL = ("SELECT s.agent_id, SUM(pg_column_size(h.data)), COUNT(*) FROM session_history h "
              "JOIN sessions s ON s.id = h.session_id GROUP BY s.agent_id")


def _tables_match_the_server(report, db) -> None:
    assert report.method == "pg_total_relation_size" and report.tables
    for line in report.tables:
        fn = "pg_relation_size" if line.kind == "index" else "pg_total_relation_size"
        [(size,)] = db.rows(f"SELECT {fn}(to_regclass(:n))", {"n": f'"{line.name}"'})
        assert line.bytes == size, line.name
    [(total,)] = db.rows("SELECT pg_database_size(current_database())")
    assert report.total == total


def _expected_agents(db) -> dict:
    return {str(a): (int(b), int(n)) for a, b, n in db.rows(AGENTS_SQL)}


def test_server_tables_take_pg_total_relation_size_and_agents_come_after_the_quick_part(pg_demo_url, tmp_path,
                                                                                       monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(daycare_space, "HISTORY_CHUNK", 5, raising=False)  # several steps on the small demo
    with registry.open_store(pg_demo_url) as opened:
        storage = opened.capability(api.Storage)
        quick = storage.space_quick()
        assert quick.holders_pending and not quick.holders and quick.tables  # the tables at once
        _tables_match_the_server(quick, opened.db)
        steps: list[str] = []
        report = storage.space(progress=steps.append)
        _tables_match_the_server(report, opened.db)
        expected = _expected_agents(opened.db)
        assert storage.space_quick().holders_pending  # a server's agents are never kept: it changes under us
    assert {h.name: (h.bytes, h.count) for h in report.holders} == expected
    assert [h.bytes for h in report.holders] == sorted((b for b, _n in expected.values()), reverse=True)
    assert len([s for s in steps if s.startswith("measuring agents: ")]) > 2
    assert report.wal is None or report.wal > 0  # (the server's log, where the role may list it)
    assert not (tmp_path / "cache").exists()


def test_pglite_agents_are_measured_in_steps_then_kept_until_the_folder_changes(pglite_demo, tmp_path,
                                                                                 monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(daycare_space, "HISTORY_CHUNK", 7, raising=False)
    monkeypatch.setattr(daycare_space, "WAL_ADVICE", 1, raising=False)  # the demo's log is small

    class Stop(Exception):
        pass

    def stop_at_half(step):
        if step.endswith("%") and int(step.split()[-1][:-1]) >= 50:
            raise Stop

    with registry.open_store(pglite_demo) as opened:
        storage = opened.capability(api.Storage)
        assert storage.space_quick().holders_pending
        with pytest.raises(Stop):
            storage.space(progress=stop_at_half)
        assert storage.space_quick().holders_pending  # a stopped measuring keeps nothing
        first = storage.space()
        _tables_match_the_server(first, opened.db)
        assert {h.name: (h.bytes, h.count) for h in first.holders} == _expected_agents(opened.db)
        assert any(h.detail.endswith(" in 1 session") for h in first.holders)  # (not "1 sessions")

        def measured_again(*_a, **_k):
            raise AssertionError("the history was read again though the store did not change")

        with monkeypatch.context() as patch:
            patch.setattr(daycare_space, "_pg_agents", measured_again)
            again = storage.space_quick()
        assert not again.holders_pending and again.holders == first.holders
    wal = pglite_demo / "daycare.pglite" / "pg_wal"
    assert first.wal == sum(f.stat().st_size for f in wal.rglob("*") if f.is_file()) > 0  # the log, as on disk
    assert any(a.startswith("The write-ahead log takes") and "never delete files in pg_wal by hand" in a
               for a in first.advice)
    kept = list((tmp_path / "cache" / "daycare-gui" / "kept").rglob("space*.json"))
    assert len(kept) == 1 and oct(os.stat(kept[0]).st_mode & 0o777) == "0o600"

    # Daycare writes the folder (here: a file's time moves): the next open measures again.
    control = pglite_demo / "daycare.pglite" / "global" / "pg_control"
    st = control.stat()
    os.utime(control, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    with registry.open_store(pglite_demo) as opened:
        assert opened.capability(api.Storage).space_quick().holders_pending
