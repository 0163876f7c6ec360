"""bench/export.py on a small demo store: it runs end to end, reports every format beside its baseline, and
leaves no file behind in the temporary folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from daycare_gui.stores.daycare.demo import write_demo

REPO = Path(__file__).resolve().parents[2]


def test_export_bench_reports_each_format_beside_the_raw_rows(tmp_path):
    store = tmp_path / "daycare"
    write_demo(store)
    temp = tmp_path / "tmp"
    temp.mkdir()
    out = subprocess.run([sys.executable, str(REPO / "bench" / "export.py"), "--store", str(store), "--runs", "1"],
                         env=dict(os.environ, TMPDIR=str(temp)), capture_output=True, text=True, timeout=300,
                         cwd=REPO)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["records"] >= 10 and result["baseline"]["bytes"] > 0
    for fmt in ("md", "html", "jsonl"):
        assert result[fmt]["messages"] == result["records"] and result[fmt]["ratio"] is not None
    assert result["read"]["messages"] == result["records"]
    assert list(temp.iterdir()) == []
