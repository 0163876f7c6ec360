"""The large demo (about 20 s and 350 MB): only with DAYCARE_GUI_SLOW=1."""

import os
import sqlite3
import time

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.db_rows import build_small
from daycare_gui.stores.daycare.demo.large import LargeLoad

slow = pytest.mark.skipif(os.environ.get("DAYCARE_GUI_SLOW") != "1", reason="set DAYCARE_GUI_SLOW=1 to run")


def test_plan_adds_up_exactly_without_writing():
    # Cheap: the plan alone proves the totals and the largest session without a million inserts.
    small = build_small()
    plan = LargeLoad(small)
    assert sum(plan.counts) + len(small.rows["session_history"]) == 1_000_000
    assert len(plan.counts) + len(small.rows["sessions"]) == 20_000
    assert plan.agents + len(small.rows["agents"]) == 1_000
    assert plan.counts[0] == max(plan.counts) >= 100_000 and min(plan.counts) >= 2


@pytest.mark.slow
@slow
def test_large_demo(tmp_path):
    started = time.perf_counter()
    summary = write_demo(tmp_path / "large", scale="large")
    elapsed = time.perf_counter() - started
    print(f"large demo written in {elapsed:.1f} s")
    assert summary.counts["agents"] == 1_000
    assert summary.counts["sessions"] == 20_000
    assert summary.counts["session_history"] == 1_000_000
    assert summary.largest_session_records >= 100_000
    conn = sqlite3.connect(f"file:{tmp_path / 'large' / 'daycare.db'}?immutable=1", uri=True)
    assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    n = conn.execute("SELECT count(*) FROM session_history WHERE session_id = ?", (summary.largest_session_id,)).fetchone()[0]
    assert n == summary.largest_session_records
    kinds = {r[0] for r in conn.execute("SELECT DISTINCT type FROM session_history")}
    assert len(kinds) == 9
    assert not (tmp_path / "large" / "daycare.db-wal").exists()
    assert elapsed < 120
