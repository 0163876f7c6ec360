"""Opening a PGlite store says what it does (copy in MB, PGlite start), stops when cancelled without
leaving a copy, and asks, waits or copies at once when Daycare's engine is running on it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from daycare_gui.cli import main
from daycare_gui.stores.common import opening
from daycare_gui.stores.daycare.paths import resolve_paths
from daycare_gui.stores.daycare.pg.folder_copy import copy_pglite
from daycare_gui.stores.daycare.pg.open import open_pglite
from tests.conftest import snapshot_tree


def test_copy_reports_megabytes_and_stops_when_cancelled(pglite_fixture, tmp_path, monkeypatch):
    from daycare_gui.stores.daycare.pg import folder_copy

    monkeypatch.setattr(folder_copy, "CHUNK", 1 << 20)
    folder = pglite_fixture / "daycare.pglite"
    before = snapshot_tree(folder)
    seen = []
    size = copy_pglite(folder, tmp_path / "whole", lambda d, t, m: seen.append((d, t, m)))
    # every file but the pid file and the WAL segments PostgreSQL recycled (a copy to read leaves them out)
    assert size == sum(len(b) for rel, b in before.items() if b is not None and rel != "postmaster.pid"
                       and not folder_copy._recycled_wal(folder / rel, Path(rel)))
    total = seen[-1][1]
    assert total == -(-size // (1 << 20)) and seen[-1][0] == total
    assert seen[-1][2] == f"Copying the store ({total} of {total} MB)…"
    assert [d for d, _t, _m in seen] == sorted(d for d, _t, _m in seen)  # only forward

    steps = []
    with pytest.raises(opening.OpenCancelled, match="copying"):
        copy_pglite(folder, tmp_path / "part", cancelled=lambda: steps.append(1) or len(steps) > 5)
    assert 0 < sum(f.stat().st_size for f in (tmp_path / "part").rglob("*") if f.is_file()) < size
    assert snapshot_tree(folder) == before


def _engine_running(root):
    (root / "engine.pid").write_text(str(os.getpid()))  # a live process: the engine "runs"


def test_engine_running_ask_refuses_before_copying(pglite_fixture):
    _engine_running(pglite_fixture)
    before = snapshot_tree(pglite_fixture / "daycare.pglite")
    with opening.reporting(while_running=opening.ASK), pytest.raises(opening.EngineRunning, match="engine is running"):
        open_pglite(resolve_paths(pglite_fixture))
    stages = []
    with opening.reporting(lambda d, t, m: stages.append(m), lambda: bool(stages), while_running=opening.WAIT), \
            pytest.raises(opening.OpenCancelled, match="waiting"):
        open_pglite(resolve_paths(pglite_fixture))
    assert stages[0].startswith("Waiting for Daycare's engine to stop (process ")
    assert snapshot_tree(pglite_fixture / "daycare.pglite") == before


def test_engine_running_wait_opens_once_it_stops(pglite_fixture):
    _engine_running(pglite_fixture)
    stages = []

    def progress(_done, _total, message):
        stages.append(message)
        if message.startswith("Waiting"):
            (pglite_fixture / "engine.pid").unlink(missing_ok=True)  # the engine stops

    with opening.reporting(progress, while_running=opening.WAIT):
        store = open_pglite(resolve_paths(pglite_fixture))
    with store:
        assert not store.summary().engine_running and store.writes_blocked() is None
        assert not any("engine is running" in n for n in store.summary().notes)
    assert [s.split(" (")[0] for s in stages if not s.startswith("Copying") or "(0 of" in s] == [
        "Waiting for Daycare's engine to stop", "Copying the store", "Starting PGlite 0.3.15…", "Reading the store…"]


def test_engine_running_copy_now_says_it_may_be_behind_and_blocks_writes(pglite_fixture, monkeypatch):
    from daycare_gui.stores.daycare.pg import copy_index

    monkeypatch.setattr(copy_index, "INDEX_COPY", True)  # off by default (see its comment); it must still work
    _engine_running(pglite_fixture)
    before = snapshot_tree(pglite_fixture / "daycare.pglite")
    with open_pglite(resolve_paths(pglite_fixture)) as store:  # the command line's default: copy now
        # the copy is indexed when asked; the user's folder never is
        assert store.db.scalar("SELECT count(*) FROM pg_indexes WHERE indexname = 'daycare_gui_history_by_session'") == 1
        assert store.summary().engine_running
        assert any("may be a moment behind" in n for n in store.summary().notes)
        assert "engine is running" in store.writes_blocked()
    assert snapshot_tree(pglite_fixture / "daycare.pglite") == before


def test_inspect_prints_the_stages_on_stderr(pglite_fixture, capsys):
    assert main(["inspect", str(pglite_fixture), "--json"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("Copying the store (") and err[0].endswith(" MB)…")
    assert err[1:] == ["Starting PGlite 0.3.15…", "Reading the store…"]


def test_charts_read_tokens_and_cost_per_model_and_day(pg_demo_url):
    from daycare_gui.stores import api, registry

    with registry.open_store(pg_demo_url) as store:
        charts = store.capability(api.Charts)
        tokens, cost = charts.tokens_per_day(), charts.cost_per_day()
        # the hourly table as Daycare left it, summed here by model (the charts sum it by day and model)
        raw = {m: (int(t), float(c)) for m, t, c in store.db.rows(
            "SELECT model, sum(input_tokens + output_tokens), sum(cost) FROM token_stats_hourly GROUP BY model")}
    assert raw and all("/" in m for m in raw)  # named "<provider>/<model>", as Daycare's increment names them
    assert {t.series for t in tokens} == set(raw) == {c.series for c in cost}
    for model, (n, usd) in raw.items():
        assert sum(t.value for t in tokens if t.series == model) == n
        assert round(sum(c.value for c in cost if c.series == model), 4) == round(usd, 4)
    assert [t.day for t in tokens] == sorted(t.day for t in tokens)
    assert len({t.day for t in tokens}) > 1  # spread over days, one point per day and model


def test_pages_read_by_keyset_match_the_session_in_any_order(pg_demo_url):
    from daycare_gui.stores import api, registry
    from daycare_gui.stores.records import SessionRef

    with registry.open_store(pg_demo_url) as store:
        conv = store.capability(api.Conversations)
        sid, agent = store.db.rows("SELECT h.session_id, s.agent_id FROM session_history h JOIN sessions s "
                                   "ON s.id = h.session_id GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1")[0]
        ref = SessionRef(agent, sid)
        total = conv.message_count(ref)
        assert total >= 6
        whole = [m.id for m in conv.messages(ref, 0, total)]
        for order in (range(0, total, 2), reversed(range(0, total, 2)), (4, 2, 0, 1, 3, total - 2, 0)):
            fresh = store.capability(api.Conversations)
            fresh.__dict__.pop("_keys", None)
            for start in order:
                assert [m.id for m in fresh.messages(ref, start, 2)] == whole[start:start + 2], (list(order), start)
        assert conv.messages(ref, total, 5) == [] and len(conv.messages(ref, total - 1, 5)) == 1
