"""bench/palette.py on a small demo store: it runs end to end and reports every figure beside its baselines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from daycare_gui.stores.daycare.demo import write_demo
from tests.conftest import snapshot_tree

REPO = Path(__file__).resolve().parents[2]


def test_palette_bench_reports_latency_beside_the_baselines(tmp_path):
    store = tmp_path / "store" / "daycare"
    write_demo(store)
    before = snapshot_tree(store)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, str(REPO / "bench" / "palette.py"), "--store", str(store), "--runs", "1"],
                         env=env, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    for series in ("palette", "core", "scan", "sql"):
        assert result[f"{series}_p50_ms"] <= result[f"{series}_p95_ms"] <= result[f"{series}_max_ms"]
    assert result["items"] > 50 and result["keystrokes"] > 20
    assert snapshot_tree(store) == before  # nothing written to the store
