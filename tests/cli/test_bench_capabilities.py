"""bench/capabilities.py on a small demo store: it runs end to end, reports each figure beside its baseline as
one JSON line, costs the same records as its grouped SQL, and leaves no file behind in the temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from daycare_gui.stores.daycare.demo import write_demo

REPO = Path(__file__).resolve().parents[2]


def test_capabilities_bench_reports_every_figure_beside_its_baseline(tmp_path):
    store = tmp_path / "daycare"
    write_demo(store)
    temp = tmp_path / "tmp"
    temp.mkdir()
    out = subprocess.run([sys.executable, str(REPO / "bench" / "capabilities.py"), "--store", str(store), "--runs",
                          "1", "--task-runs", "300", "--cache", str(tmp_path / "cache")],
                         env=dict(os.environ, TMPDIR=str(temp), QT_QPA_PLATFORM="offscreen"), capture_output=True,
                         text=True, timeout=600, cwd=REPO)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["costs_records"] == result["baseline_costs_records"] > 0
    assert result["runs_listed"] == 304  # the demo's own four and the 300 added
    for f in result["figures"]:
        assert f["value"] is not None and f["baseline"] is not None and f["ratio"] is not None, f
    assert {"space_quick_ratio", "costs_ratio", "runs_read_ratio", "runs_first_screen_ratio"} <= set(result)
    assert list(temp.iterdir()) == []
