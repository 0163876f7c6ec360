"""How long the GUI thread stalls while a person holds the Down arrow in the largest session.

    python bench/stalls.py [--store DIR] [--records 1000] [--key-ms 30] [--writer-rate 100] [--runs 1]

Two measurements, each in a fresh subprocess on the real window (``QT_QPA_PLATFORM=offscreen`` unless
``--platform`` says otherwise):

* ``arrow``: the History pane open at the first record of the store's largest session; Down is pressed every
  ``--key-ms`` (a held key's auto-repeat) until ``--records`` records have been passed, then the pane settles;
* ``arrow_with_writer``: the same on a private copy of the store while another process appends
  ``--writer-rate`` records a second to that session, one commit each, as a live engine does (the window
  reads through the WAL and its file watcher sees every commit).

A 1 ms precise timer on the GUI thread records when it gets to run; a gap between two of its ticks is
time the event loop could not react (key handling, painting, model work, a Python thread holding the
GIL). Reported per measurement: the longest gap, the 99th percentile, how many gaps exceeded 50 ms (the
project's goal: none), and the key presses per second actually reached. The last line is one JSON object.

Without ``--store`` it uses (and writes once, like ``bench/run.py``) the large demo store in
``bench/.cache/large``. The store itself is never written: the writer works on a temporary copy.

Every temporary folder (the children's settings, the writer's copy, the search index folder) lives in one
folder the parent makes and removes when it ends — normally, on an error, on Ctrl+C or on SIGTERM. A
child cannot clean up after itself: QSettings writes its file again when it is destroyed at exit.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = HERE / ".cache"
sys.path.insert(0, str(REPO))

STALL_MS = 50


def _largest_session(db: Path) -> tuple[str, str, int]:
    # immutable: a read-only open of a checkpointed store would create -wal/-shm files beside it
    live = Path(str(db) + "-wal").exists()
    conn = sqlite3.connect(f"file:{db}?mode=ro" + ("" if live else "&immutable=1"), uri=True)
    try:
        sid, n = conn.execute("SELECT session_id, count(*) AS n FROM session_history GROUP BY session_id "
                              "ORDER BY n DESC LIMIT 1").fetchone()
        agent = conn.execute("SELECT agent_id FROM sessions WHERE id = ?", (sid,)).fetchone()[0]
    finally:
        conn.close()
    return agent, sid, n


# ---------------------------------------------------------------------------------------------------
# children
def child_arrow(store: str, records: int, key_ms: int) -> None:
    from PySide6.QtCore import QEvent, QSettings, Qt, QTimer
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from daycare_gui.stores.daycare.paths import resolve_paths
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    agent, sid, count = _largest_session(resolve_paths(store).db_path)
    settings = os.path.join(os.environ["DAYCARE_BENCH_TMP"], f"settings-{os.getpid()}.ini")  # the parent's
    app = make_application(sys.argv[:1])
    window = MainWindow(QSettings(settings, QSettings.Format.IniFormat))
    window.resize(1280, 800)
    window.show()

    def spin(cond, timeout=120.0):
        end = time.perf_counter() + timeout
        while not cond():
            app.processEvents()
            if time.perf_counter() > end:
                raise TimeoutError("benchmark step timed out")
            time.sleep(0.001)

    window.open_path(store)
    spin(lambda: window.store is not None)
    spin(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy())  # start-up jobs done
    window.navigate("history", (agent, sid, None))
    pane = window.panes["history"]
    model = pane.model
    spin(lambda: model.session_id == sid and model.rowCount() > 0)
    pane.go_first()
    spin(lambda: model.record(0) is not None and not window.worker.is_busy())
    pane.list.setFocus()
    settle = time.perf_counter() + 0.5
    spin(lambda: time.perf_counter() > settle)

    ticks: list[float] = []
    meter = QTimer()
    meter.setTimerType(Qt.TimerType.PreciseTimer)
    meter.setInterval(1)
    meter.timeout.connect(lambda: ticks.append(time.perf_counter()))
    pressed = [0]

    def press() -> None:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(pane.list, QKeyEvent(kind, Qt.Key.Key_Down, Qt.KeyboardModifier.NoModifier))
        pressed[0] += 1
        if pressed[0] >= records:
            keys.stop()

    keys = QTimer()
    keys.setTimerType(Qt.TimerType.PreciseTimer)
    keys.setInterval(key_ms)
    keys.timeout.connect(press)
    meter.start()
    started = time.perf_counter()
    keys.start()
    spin(lambda: pressed[0] >= records, timeout=600)
    keys_done = time.perf_counter()
    row = pane.current_row()
    # then the pane settles: the last row's page, its details and conversation
    spin(lambda: model.record(row) is not None and window.detail.item is not None
         and str(model.record(row).id) in window.detail.item.title)
    settle = time.perf_counter() + 0.6
    spin(lambda: time.perf_counter() > settle)
    meter.stop()
    gaps = sorted((b - a) * 1000 for a, b in zip(ticks, ticks[1:]))
    out = {
        "max_stall_ms": round(gaps[-1], 1),
        "p99_stall_ms": round(gaps[int(len(gaps) * 0.99)], 1),
        "stalls_over_50ms": sum(1 for g in gaps if g > STALL_MS),
        "keys_per_s": round(records / (keys_done - started), 1),
        "target_keys_per_s": round(1000 / key_ms, 1),
        "rows_moved": row,
        "session_records": count,
        "pages_fetched": model.pages_fetched,
        "db_mode": window.opened.core.db.mode.name,
    }
    print("BENCH " + json.dumps(out), flush=True)
    window.close()


def child_writer(db: str, session_id: str, rate: float, stop_file: str) -> None:
    """Append ``rate`` records a second to ``session_id``, one commit each, until ``stop_file`` appears."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=5000")
    period = 1.0 / rate
    next_at = time.perf_counter()
    n = 0
    while not os.path.exists(stop_file):
        data = json.dumps({"text": f"live record {n} appended while the window reads"})
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
                     (session_id, int(time.time() * 1000), data))
        n += 1
        next_at += period
        time.sleep(max(0.0, next_at - time.perf_counter()))
    conn.close()
    print(f"BENCH {json.dumps({'written': n})}", flush=True)


# ---------------------------------------------------------------------------------------------------
# parent
def _run_child(args: list[str], env: dict) -> dict:
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args], env=env,
                          capture_output=True, text=True, timeout=1200, cwd=str(REPO))
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    raise RuntimeError(f"child {args[0]} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def _store(path: str | None) -> Path:
    if path:
        return Path(path)
    dest = CACHE / "large"
    if not (dest / "daycare.db").exists():
        from daycare_gui.stores.daycare.demo import write_demo

        shutil.rmtree(dest, ignore_errors=True)
        print(f"writing the large demo store to {dest} (once; about 30 s)…", file=sys.stderr)
        write_demo(dest, scale="large")
    return dest


def measure_arrow(store: Path, args, env: dict) -> dict:
    return _run_child(["arrow", str(store), str(args.records), str(args.key_ms)], env)


def measure_arrow_with_writer(store: Path, args, env: dict) -> dict:
    from daycare_gui.stores.daycare.paths import resolve_paths

    work = Path(tempfile.mkdtemp(prefix="writer-", dir=env["DAYCARE_BENCH_TMP"]))
    try:
        copy = work / store.name
        shutil.copytree(store, copy)
        db = resolve_paths(copy).db_path
        _agent, sid, _n = _largest_session(db)
        stop = work / "stop"
        writer = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--child", "writer", str(db), sid,
                                   str(args.writer_rate), str(stop)], env=env, stdout=subprocess.PIPE, text=True)
        try:
            wal = Path(str(db) + "-wal")
            end = time.time() + 30
            while not (wal.exists() and wal.stat().st_size > 0):  # a live engine: the WAL holds commits
                if time.time() > end or writer.poll() is not None:
                    raise RuntimeError("the writer did not start")
                time.sleep(0.05)
            result = _run_child(["arrow", str(copy), str(args.records), str(args.key_ms)], env)
        finally:
            stop.touch()
            out, _ = writer.communicate(timeout=30)
        written = next((json.loads(line[6:]) for line in out.splitlines() if line.startswith("BENCH ")), {})
        result["records_written"] = written.get("written")
        result["writer_rate"] = args.writer_rate
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a Daycare data directory (default: the cached large demo store)")
    parser.add_argument("--records", type=int, default=1000, help="records to arrow through (default 1000)")
    parser.add_argument("--key-ms", type=int, default=30, help="key auto-repeat interval (default 30 ms)")
    parser.add_argument("--writer-rate", type=float, default=100, help="records a second the writer appends")
    parser.add_argument("--runs", type=int, default=1, help="runs per measurement; the worst is reported")
    parser.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM for the children")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        if mode == "arrow":
            child_arrow(rest[0], int(rest[1]), int(rest[2]))
        elif mode == "writer":
            child_writer(rest[0], rest[1], float(rest[2]), rest[3])
        return 0

    # SIGTERM ends the run like Ctrl+C does, so the finally below removes the temporary folder either way.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    store = _store(args.store)
    tmp = tempfile.mkdtemp(prefix="daycare-bench-stalls-")
    env = dict(os.environ, QT_QPA_PLATFORM=args.platform, PYTHONPATH=str(REPO), DAYCARE_BENCH_TMP=tmp)
    env["DAYCARE_GUI_SEARCH_DIR"] = os.path.join(tmp, "index")  # never the user cache
    results: dict[str, dict] = {}
    try:
        for name, measure in (("arrow", measure_arrow), ("arrow_with_writer", measure_arrow_with_writer)):
            runs = []
            for run in range(args.runs):
                print(f"{name} run {run + 1}/{args.runs}…", file=sys.stderr)
                runs.append(measure(store, args, env))
            worst = max(runs, key=lambda r: r["max_stall_ms"])
            worst["max_stall_ms_runs"] = [r["max_stall_ms"] for r in runs]
            worst["median_max_stall_ms"] = statistics.median(r["max_stall_ms"] for r in runs)
            results[name] = worst
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _table(results, args)
    print(json.dumps({"gui_stalls": results, "records": args.records, "key_ms": args.key_ms,
                      "platform": args.platform, "store": str(store)}))
    return 0


def _table(results: dict, args) -> None:
    print(f"GUI-thread stalls arrowing through {args.records:,} records of the largest session "
          f"(Down every {args.key_ms} ms); goal: no stall over {STALL_MS} ms")
    head = ("measurement", "longest stall", "p99", f"stalls > {STALL_MS} ms", "keys/s reached", "db mode")
    rows = [(name, f"{r['max_stall_ms']:.1f} ms", f"{r['p99_stall_ms']:.1f} ms", str(r["stalls_over_50ms"]),
             f"{r['keys_per_s']:.1f} of {r['target_keys_per_s']:.1f}", r["db_mode"]) for name, r in results.items()]
    widths = [max(len(str(x[i])) for x in [head, *rows]) for i in range(len(head))]
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


if __name__ == "__main__":
    raise SystemExit(main())
