"""Export benchmark: the largest session of a large store exported to each format, beside a plain loop that
writes the same session's raw rows.

    python bench/export.py [--store DIR] [--runs N] [--cache DIR]

Without ``--store`` it uses (writing it once) the large demo store of ``bench/run.py`` under
``bench/.cache/large``. Each figure is measured in a fresh subprocess (so its peak memory is its own) and
reported as the median of ``--runs`` runs. The baseline reads ``session_history.data`` of the session with
``sqlite3`` in id order and writes each row and a newline — what any export has to do at least; "read"
is the session's neutral records read page by page without writing (the share of the data layer). Exports
go through ``export_to_file`` exactly as the window and ``daycare-gui export --out`` do (the store opened
read-only, the session found by id, records streamed page by page, secrets masked, the file written
atomically). Files go to a temporary folder removed at the end. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

FORMATS = ("md", "html", "jsonl")


def _peak_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _largest(db_path: Path) -> tuple[str, int]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro&immutable=1", uri=True)
    sid, n = conn.execute("SELECT session_id, count(*) AS n FROM session_history GROUP BY session_id "
                          "ORDER BY n DESC LIMIT 1").fetchone()
    conn.close()
    return sid, n


def child_baseline(db_path: str, session_id: str, out: str) -> dict:
    started = time.perf_counter()
    conn = sqlite3.connect(f"file:{db_path}?mode=ro&immutable=1", uri=True)
    with open(out, "w", encoding="utf-8") as f:
        for (data,) in conn.execute("SELECT data FROM session_history WHERE session_id = ? ORDER BY id",
                                    (session_id,)):
            f.write(data)
            f.write("\n")
    conn.close()
    return {"seconds": time.perf_counter() - started, "peak_mb": _peak_mb(), "bytes": os.path.getsize(out)}


def child_export(store: str, session_id: str, fmt: str, out: str) -> dict:
    started = time.perf_counter()
    from daycare_gui.stores import api, registry
    from daycare_gui.stores.common.export import export_to_file

    with registry.open_store(store, live=False) as opened:
        cap = opened.capability(api.Conversations)
        ref = cap.find_session(session_id)
        written = export_to_file(cap, ref, fmt, out)
    return {"seconds": time.perf_counter() - started, "peak_mb": _peak_mb(), "bytes": os.path.getsize(out),
            "messages": written}


def child_read(store: str, session_id: str) -> dict:
    """Only the reading: the session's neutral records, page by page, as every format gets them."""
    started = time.perf_counter()
    from daycare_gui.stores import api, registry

    with registry.open_store(store, live=False) as opened:
        cap = opened.capability(api.Conversations)
        count = sum(1 for _ in cap.iter_messages(cap.find_session(session_id)))
    return {"seconds": time.perf_counter() - started, "peak_mb": _peak_mb(), "bytes": 0, "messages": count}


def _child(args: list[str]) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=1800)
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    raise RuntimeError(f"child {args[0]} failed:\n{proc.stderr[-3000:]}")


def _median_of(runs: list[dict]) -> dict:
    return {key: round(statistics.median(r[key] for r in runs), 3) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a Daycare data directory (default: the cached large demo store)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; medians are reported (default 3)")
    parser.add_argument("--cache", default=str(HERE / ".cache"), help="where the large demo store is kept")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        result = {"baseline": child_baseline, "read": child_read, "export": child_export}[mode](*rest)
        print("BENCH " + json.dumps(result))
        return 0

    from run import _store  # the same large demo store as bench/run.py

    from daycare_gui.stores.daycare.paths import resolve_paths

    store = _store(args, Path(args.cache))
    db_path = resolve_paths(store).db_path
    session_id, records = _largest(db_path)
    tmp = tempfile.mkdtemp(prefix="daycare-bench-export-")
    try:
        base = _median_of([_child(["baseline", str(db_path), session_id, f"{tmp}/raw.jsonl"])
                           for _ in range(args.runs)])
        result = {"store": str(store), "session_id": session_id, "records": records, "runs": args.runs,
                  "baseline": base}
        print(f"largest session {session_id}: {records:,} records; median of {args.runs} runs", file=sys.stderr)
        print(f"{'':<22}{'seconds':>9}{'× baseline':>12}{'peak MB':>9}{'MB out':>8}")
        print(f"{'raw rows (baseline)':<22}{base['seconds']:>9.2f}{'1.0':>12}{base['peak_mb']:>9.0f}"
              f"{base['bytes'] / 1e6:>8.1f}")
        for fmt in ("read", *FORMATS):
            child = ["read", str(store), session_id] if fmt == "read" else \
                ["export", str(store), session_id, fmt, f"{tmp}/out.{fmt}"]
            m = _median_of([_child(child) for _ in range(args.runs)])
            m["ratio"] = round(m["seconds"] / base["seconds"], 2) if base["seconds"] else None
            result[fmt] = m
            label = "records read, no file" if fmt == "read" else f"export {fmt}"
            print(f"{label:<22}{m['seconds']:>9.2f}{m['ratio']:>12}{m['peak_mb']:>9.0f}{m['bytes'] / 1e6:>8.1f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
