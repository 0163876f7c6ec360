"""Live follow: how soon a record a writer commits shows in the open conversation, and what it costs the GUI.

    python bench/live.py [--store DIR] [--rate 100] [--records 1000] [--platform offscreen]

A private copy of the store (default: the cached large demo store, see ``bench/stalls.py``) has its largest
session open in the real window, at its end. A writer process (``tests/ui/live_writer.py``: WAL, **no busy
timeout**, like Daycare's engine) appends ``--rate`` records a second, one commit each, until ``--records``
are written. For every record: latency = when the window had its row inserted (cached, view at the end)
minus when the writer's commit returned (both wall clock, same machine). Meanwhile a 1 ms timer on the GUI
thread measures the longest stall. The baseline is a bare ``sqlite3`` loop in its own process polling the
same session by key every 5 ms (a ``mode=ro`` reader, no GUI) under the same writer. Both runs count the
writer's SQLITE_BUSY failures (goal: none). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from bench.stalls import _largest_session, _store  # noqa: E402


def _writer(db: Path, sid: str, rate: float, records: int, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.ui.live_writer", str(db), sid, str(rate), str(records),
                             str(out)], cwd=str(REPO))


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(len(values) * q))], 1) if values else float("nan")


def child_window(store: str, rate: float, records: int, out: str) -> None:
    from PySide6.QtCore import QSettings, Qt, QTimer

    from daycare_gui.stores.daycare.paths import resolve_paths
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    db = resolve_paths(store).db_path
    agent, sid, count = _largest_session(db)
    # In the parent's work folder, which it removes once this process has ended (settings are saved late).
    tmp = str(Path(out).parent / "window")
    os.makedirs(tmp, exist_ok=True)
    app = make_application(sys.argv[:1])
    window = MainWindow(QSettings(os.path.join(tmp, "settings.ini"), QSettings.Format.IniFormat))
    window.resize(1280, 800)
    window.show()

    def spin(cond, timeout=300.0):
        end = time.perf_counter() + timeout
        while not cond():
            app.processEvents()
            if time.perf_counter() > end:
                raise TimeoutError("benchmark step timed out")
            time.sleep(0.0005)

    window.open_path(store)
    spin(lambda: window.store is not None)
    spin(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy())
    window.navigate("history", (agent, sid, None))
    pane = window.panes["history"]
    model = pane.model
    spin(lambda: model.session_id == sid and model.rowCount() == count and pane.current_row() == count - 1)
    spin(lambda: not window.worker.is_busy())

    shown: dict[int, float] = {}

    def grown(first: int, last: int) -> None:
        now = time.time()
        for row in range(first, last + 1):
            key = model.key_of(row)  # the record's id (session_history.id): the view's key
            if key is not None:
                shown[key] = now

    model.grown.connect(grown)
    ticks: list[float] = []
    meter = QTimer()
    meter.setTimerType(Qt.TimerType.PreciseTimer)
    meter.setInterval(1)
    meter.timeout.connect(lambda: ticks.append(time.perf_counter()))
    meter.start()
    idle_until = time.perf_counter() + 3  # the same window with no writer: the machine's own noise
    spin(lambda: time.perf_counter() > idle_until)
    idle = sorted((b - a) * 1000 for a, b in zip(ticks, ticks[1:]))
    ticks.clear()
    result_file = Path(tmp) / "writer.json"
    writer = _writer(db, sid, rate, records, result_file)
    spin(lambda: model.rowCount() >= count + records or writer.poll() not in (None, 0), timeout=records / rate + 120)
    writer.wait(timeout=60)
    meter.stop()
    written = json.loads(result_file.read_text())
    latencies = [(shown[i] - t) * 1000 for i, t in written["commits"] if i in shown]
    gaps = sorted((b - a) * 1000 for a, b in zip(ticks, ticks[1:]))
    Path(out).write_text(json.dumps({
        "p50_ms": _pct(latencies, 0.5), "p95_ms": _pct(latencies, 0.95), "max_ms": _pct(latencies, 1.0),
        "rows_shown": len(latencies), "written": written["written"], "writer_busy": written["busy"],
        "followed_to_end": pane.at_end() and pane.current_row() == model.rowCount() - 1,
        "max_stall_ms": round(gaps[-1], 1) if gaps else None, "p99_stall_ms": _pct(gaps, 0.99),
        "idle_max_stall_ms": round(idle[-1], 1) if idle else None,
        "db_mode": window.opened.core.db.mode.name, "session_records": count}))
    window.close()


def child_poll(db: str, sid: str, rate: float, records: int, out: str) -> None:
    """The baseline: the least a reader can do — poll by key every 5 ms on a plain read-only connection."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, isolation_level=None)
    last = conn.execute("SELECT max(id) FROM session_history WHERE session_id = ?", (sid,)).fetchone()[0] or -1
    result_file = Path(out + ".writer")
    writer = _writer(Path(db), sid, rate, records, result_file)
    seen: dict[int, float] = {}
    while len(seen) < records and writer.poll() in (None, 0):
        for (rid,) in conn.execute("SELECT id FROM session_history WHERE session_id = ? AND id > ? ORDER BY id",
                                   (sid, last)):
            seen[rid] = time.time()
            last = rid
        if writer.poll() == 0 and len(seen) >= records:
            break
        time.sleep(0.005)
    writer.wait(timeout=60)
    written = json.loads(result_file.read_text())
    latencies = [(seen[i] - t) * 1000 for i, t in written["commits"] if i in seen]
    Path(out).write_text(json.dumps({
        "p50_ms": _pct(latencies, 0.5), "p95_ms": _pct(latencies, 0.95), "max_ms": _pct(latencies, 1.0),
        "rows_shown": len(latencies), "written": written["written"], "writer_busy": written["busy"]}))


def _measure(mode: str, store: Path, args, env: dict) -> dict:
    from daycare_gui.stores.daycare.paths import resolve_paths

    work = Path(tempfile.mkdtemp(prefix="daycare-bench-live-"))
    try:
        copy = work / store.name
        shutil.copytree(store, copy)
        out = work / "result.json"
        db = resolve_paths(copy).db_path
        if mode == "window":
            child = ["window", str(copy), str(args.rate), str(args.records), str(out)]
        else:
            child = ["poll", str(db), _largest_session(db)[1], str(args.rate), str(args.records), str(out)]
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *child], env=env,
                              capture_output=True, text=True, timeout=1800, cwd=str(REPO))
        if not out.exists():
            raise RuntimeError(f"{mode} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
        return json.loads(out.read_text())
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a Daycare data directory (default: the cached large demo store)")
    parser.add_argument("--rate", type=float, default=100, help="records a second the writer appends")
    parser.add_argument("--records", type=int, default=1000, help="records the writer appends")
    parser.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM for the window")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        if mode == "window":
            child_window(rest[0], float(rest[1]), int(rest[2]), rest[3])
        else:
            child_poll(rest[0], rest[1], float(rest[2]), int(rest[3]), rest[4])
        return 0
    store = _store(args.store)
    env = dict(os.environ, QT_QPA_PLATFORM=args.platform, PYTHONPATH=str(REPO))
    env["DAYCARE_GUI_SEARCH_DIR"] = tempfile.mkdtemp(prefix="daycare-bench-index-")  # never the user cache
    try:
        results = {name: _measure(name, store, args, env) for name in ("window", "poll")}
    finally:
        shutil.rmtree(env["DAYCARE_GUI_SEARCH_DIR"], ignore_errors=True)
    print(f"Live follow: commit → row shown, writer at {args.rate:g} records/s, {args.records:,} records "
          "(busy_timeout=0)")
    for name, label in (("window", "daycare-gui window"), ("poll", "bare sqlite3 poll (5 ms)")):
        r = results[name]
        stall = (f", longest GUI stall {r['max_stall_ms']} ms (p99 {r['p99_stall_ms']}; idle window "
                 f"{r['idle_max_stall_ms']} ms)" if "max_stall_ms" in r else "")
        print(f"  {label:26} p50 {r['p50_ms']} ms  p95 {r['p95_ms']} ms  max {r['max_ms']} ms  "
              f"rows {r['rows_shown']}/{r['written']}  writer SQLITE_BUSY {r['writer_busy']}{stall}")
    print(json.dumps({"live_follow": results, "rate": args.rate, "records": args.records, "store": str(store),
                      "goal": "writer never SQLITE_BUSY; no GUI stall over 50 ms"}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
