"""daycare-gui benchmark: start-up, paging, scrolling, search and memory on a large store, each beside a
plain baseline measured in the same run.

    python bench/run.py [--store DIR] [--runs N]

Without ``--store`` it writes (once, then reuses) the large demo store under ``bench/.cache/large``
(1,000 agents, 20,000 sessions, 1,000,000 history rows). Each GUI figure is measured in a fresh
subprocess (``QT_QPA_PLATFORM=offscreen`` unless ``--platform`` says otherwise) and reported as the median
of ``--runs`` runs; the index builds run once per invocation (they take tens of seconds). A readable table
is printed first; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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
CACHE = HERE / ".cache"
sys.path.insert(0, str(REPO))

PAGE = 200
SCROLL_RECORDS = 10_000
RARE_WORD = "monstera"
COMMON_WORD = "the"
BROWSE_SESSIONS = 10


# ---------------------------------------------------------------------------------------------------
# helpers shared by parent and children
def _uri(db: Path) -> str:
    return f"file:{db}?mode=ro&immutable=1"


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _emit(obj: dict) -> None:
    print("BENCH " + json.dumps(obj), flush=True)


def _wait(app, cond, timeout: float = 30.0) -> None:
    """Spin the event loop until ``cond()``: short sleeps let the worker threads hold the GIL."""
    end = time.perf_counter() + timeout
    while not cond():
        app.processEvents()
        if time.perf_counter() > end:
            raise TimeoutError("benchmark step timed out")
        time.sleep(0.0002)


def _settings(tmp: str):
    from PySide6.QtCore import QSettings

    return QSettings(os.path.join(tmp, "settings.ini"), QSettings.Format.IniFormat)


# ---------------------------------------------------------------------------------------------------
# children (each a fresh interpreter)
def child_window() -> None:
    """Baseline: a bare PySide6 window shown."""
    from PySide6.QtWidgets import QApplication, QLabel

    app = QApplication(sys.argv[:1])
    w = QLabel("baseline")
    w.resize(800, 600)
    w.show()
    app.processEvents()
    w.repaint()
    _emit({"shown": time.time(), "rss_mb": _rss_mb()})


def child_startup(store: str) -> None:
    """The real window: open the store, show Agents, stop once its first rows are loaded and painted."""
    tmp = tempfile.mkdtemp(prefix="daycare-bench-")
    phases = {"python_started": time.time()}
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    phases["imported"] = time.time()
    app = make_application(sys.argv[:1])
    window = MainWindow(_settings(tmp))
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    phases["window_shown"] = time.time()
    window.open_initial(store, False)
    _wait(app, lambda: window.store is not None)
    phases["store_open"] = time.time()
    window.show_section("agents")
    pane = window.panes["agents"]
    _wait(app, lambda: pane.model.rowCount() > 0 and pane.model.is_loaded(0))
    pane.table.viewport().repaint()
    app.processEvents()
    _emit({"agents_shown": time.time(), "rows": pane.model.rowCount(), "phases": phases})
    window.close()
    shutil.rmtree(tmp, ignore_errors=True)


def _baseline_page(conn, session_id: str, *, last: bool = False, after: int = -1) -> tuple[float, list]:
    t = time.perf_counter()
    if last:
        rows = conn.execute("SELECT id, session_id, type, at, data FROM session_history WHERE session_id = ? "
                            "ORDER BY id DESC LIMIT ?", (session_id, PAGE)).fetchall()
    else:
        rows = conn.execute("SELECT id, session_id, type, at, data FROM session_history WHERE session_id = ? "
                            "AND id > ? ORDER BY id LIMIT ?", (session_id, after, PAGE)).fetchall()
    parsed = [json.loads(r[4]) for r in rows]
    return (time.perf_counter() - t) * 1000, rows if parsed is not None else rows


def child_browse(store: str, plan_json: str) -> None:
    """Pages, scrolling, search and memory through the real models and core, each next to its baseline."""
    plan = json.loads(plan_json)
    tmp = tempfile.mkdtemp(prefix="daycare-bench-")
    from daycare_gui.core.store import open_store
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    app = make_application(sys.argv[:1])
    out: dict = {}
    store_obj = open_store(store)
    db = store_obj.db
    window = MainWindow(_settings(tmp))
    sid = plan["largest"]["session_id"]

    # -- the real History pane: open the largest session at its first record, then jump to its end ------
    window.resize(1280, 800)
    window.show()
    window._store_opened(store_obj, store, remember=False)  # what open_path does once the store is open
    # A person opens a session after the window has settled: let start-up jobs (counts and overview on the
    # background worker, the idle-time build of the conversation page) finish first.
    _wait(app, lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), 120)
    settle = time.perf_counter() + 0.6
    _wait(app, lambda: time.perf_counter() > settle and "history" in window.panes, 30)
    app.processEvents()
    t = time.perf_counter()
    window.navigate("history", (plan["largest"]["agent_id"], sid, plan["largest"]["first_id"]))
    pane = window.panes["history"]
    model = pane.model
    _wait(app, lambda: model.session_id == sid and model.is_loaded(0))
    pane.list.viewport().repaint()
    out["session_first_page_ms"] = (time.perf_counter() - t) * 1000
    count = model.rowCount()
    t = time.perf_counter()
    pane.go_last()
    _wait(app, lambda: model.is_loaded(count - 1))
    pane.list.viewport().repaint()
    out["session_last_page_ms"] = (time.perf_counter() - t) * 1000

    # -- baseline: plain sqlite3 + json.loads of the same pages -----------------------------------------
    conn = sqlite3.connect(_uri(Path(db.path)), uri=True)
    out["baseline_page_ms"], _ = _baseline_page(conn, sid)
    out["baseline_last_page_ms"], _ = _baseline_page(conn, sid, last=True)

    # -- scroll 10,000 records from the top with the scroll bar, a page at a time ----------------------------
    pane.go_first()
    _wait(app, lambda: model.is_loaded(0))
    bar = pane.list.verticalScrollBar()
    n = min(SCROLL_RECORDS, count)
    t = time.perf_counter()
    for row in range(0, n, PAGE):
        bar.setValue(row)  # ScrollPerItem: the value is the top row
        pane.list.viewport().repaint()  # asks the model for the rows now visible
        _wait(app, lambda r=row: model.is_loaded(r) and model.is_loaded(min(count - 1, r + 40)))
        pane.list.viewport().repaint()
    out["scroll_10k_ms"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    after = -1
    for _ in range(0, n, PAGE):
        _ms, rows = _baseline_page(conn, sid, after=after)
        after = rows[-1][0]
    out["baseline_scroll_10k_ms"] = (time.perf_counter() - t) * 1000

    conn.close()

    # -- browse ten sessions in the same window (History pane), then read peak memory ---------------------
    for agent_id, session_id in plan["sessions"]:
        window.navigate("history", (agent_id, session_id, None))
        _wait(app, lambda s=session_id: model.session_id == s and model.cached_pages() > 0, 60)
        pane.go_first()
        _wait(app, lambda: model.is_loaded(0), 60)
        app.processEvents()
    out["peak_rss_mb"] = _rss_mb()
    out["pages_via"] = "the real History pane (HistoryPane + HistoryModel on the window's DB worker)"
    _emit(out)
    window.close()
    shutil.rmtree(tmp, ignore_errors=True)


def child_search(store: str, plan_json: str) -> None:
    """Time to first results as the Search pane gets them (open the index, search, group), next to a plain
    FTS5 query of the same word on an index of the raw rows. Its own process: nothing else competes."""
    plan = json.loads(plan_json)
    from daycare_gui.core.search import SearchIndex, search
    from daycare_gui.core.store import open_store

    out: dict = {}
    with open_store(store) as store_obj:
        db = store_obj.db
        for key, word in (("search_rare_ms", RARE_WORD), ("search_common_ms", COMMON_WORD)):
            t = time.perf_counter()
            with SearchIndex(plan["index_file"]) as index:
                res = search(index, db, word, limit=200)
            out[key] = (time.perf_counter() - t) * 1000
            out[key.replace("_ms", "_hits")] = res.total
    fts = sqlite3.connect(plan["baseline_fts"])
    for key, word in (("baseline_search_rare_ms", RARE_WORD), ("baseline_search_common_ms", COMMON_WORD)):
        t = time.perf_counter()
        fts.execute("SELECT rowid, snippet(f, 0, '[', ']', '…', 16) FROM f WHERE f MATCH ? ORDER BY rank LIMIT 200",
                    (f'"{word}"',)).fetchall()
        out[key] = (time.perf_counter() - t) * 1000
    fts.close()
    _emit(out)


# ---------------------------------------------------------------------------------------------------
# parent
def _child(args: list[str], env: dict) -> tuple[dict, float]:
    started = time.time()
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args], env=env,
                          capture_output=True, text=True, timeout=600, cwd=str(REPO))
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:]), started
    raise RuntimeError(f"child {args[0]} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def _store(args) -> Path:
    if args.store:
        return Path(args.store)
    dest = CACHE / "large"
    if not (dest / "daycare.db").exists():
        from daycare_gui.core.demo import write_demo

        shutil.rmtree(dest, ignore_errors=True)
        print(f"writing the large demo store to {dest} (once; about 30 s)…", file=sys.stderr)
        write_demo(dest, scale="large")
    return dest


def _plan(db_path: Path) -> dict:
    conn = sqlite3.connect(_uri(db_path), uri=True)
    top = conn.execute(
        "SELECT s.agent_id, h.session_id, count(*) AS n FROM session_history h JOIN sessions s ON s.id = h.session_id "
        "GROUP BY h.session_id ORDER BY n DESC LIMIT ?", (BROWSE_SESSIONS,)).fetchall()
    store = {"agents": conn.execute("SELECT count(*) FROM agents").fetchone()[0],
             "sessions": conn.execute("SELECT count(*) FROM sessions").fetchone()[0],
             "history_rows": conn.execute("SELECT count(*) FROM session_history").fetchone()[0]}
    first_id = conn.execute("SELECT min(id) FROM session_history WHERE session_id = ?", (top[0][1],)).fetchone()[0]
    conn.close()
    return {"largest": {"agent_id": top[0][0], "session_id": top[0][1], "records": top[0][2], "first_id": first_id},
            "sessions": [[a, s] for a, s, _n in top], "store": store}


def _build_indexes(db_path: Path, work: Path, reuse: bool) -> dict:
    from daycare_gui.core.db import ReadOnlyDatabase
    from daycare_gui.core.search import SearchIndex, update_index

    saved = work / "build.json"
    if reuse and saved.exists():
        data = json.loads(saved.read_text())
        if data.get("db") == str(db_path):
            return data
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    index_file = work / "index.sqlite"
    db = ReadOnlyDatabase(db_path)
    try:
        with SearchIndex(index_file) as index:
            t = time.perf_counter()
            built = update_index(db, index)
            index_build_s = time.perf_counter() - t
    finally:
        db.close()
    baseline = work / "baseline_fts.sqlite"
    conn = sqlite3.connect(baseline)
    t = time.perf_counter()
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(data, tokenize = 'porter unicode61 remove_diacritics 2')")
    conn.execute("ATTACH DATABASE ? AS src", (_uri(db_path),))
    conn.execute("INSERT INTO f(rowid, data) SELECT id, data FROM src.session_history")
    conn.commit()
    conn.execute("INSERT INTO f(f) VALUES ('optimize')")
    conn.commit()
    baseline_s = time.perf_counter() - t
    conn.close()
    data = {"index_build_s": index_build_s, "baseline_fts_build_s": baseline_s, "index_file": str(index_file),
            "baseline_fts": str(baseline), "indexed_rows": built.rows, "db": str(db_path)}
    saved.write_text(json.dumps(data))
    return data


def _median(values):
    return statistics.median(values) if values else None


def _ratio(a, b):
    return round(a / b, 2) if a is not None and b else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a Daycare data directory (default: the cached large demo store)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; medians are reported (default 5)")
    parser.add_argument("--platform", default="offscreen", help="QT_QPA_PLATFORM for the children")
    parser.add_argument("--reuse-index", action="store_true",
                        help="reuse the indexes (and their build times) of the last run on the same store")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        {"window": lambda: child_window(), "startup": lambda: child_startup(rest[0]),
         "browse": lambda: child_browse(rest[0], rest[1]), "search": lambda: child_search(rest[0], rest[1])}[mode]()
        return 0

    store = _store(args)
    from daycare_gui.core.paths import resolve_paths

    db_path = resolve_paths(store).db_path
    plan = _plan(db_path)
    print(f"store {store}: {plan['store']}; largest session {plan['largest']['records']:,} records",
          file=sys.stderr)
    print("building the search index and the plain FTS5 baseline (once; about a minute)…", file=sys.stderr)
    plan.update(_build_indexes(db_path, CACHE / "index", args.reuse_index))
    env = dict(os.environ, QT_QPA_PLATFORM=args.platform, PYTHONPATH=str(REPO))
    env["DAYCARE_GUI_SEARCH_DIR"] = str(Path(plan["index_file"]).parent / "unused")  # never the user cache

    samples: dict[str, list[float]] = {}
    for run in range(args.runs):
        print(f"run {run + 1}/{args.runs}…", file=sys.stderr)
        shown, started = _child(["window"], env)
        samples.setdefault("baseline_window_s", []).append(shown["shown"] - started)
        samples.setdefault("baseline_rss_mb", []).append(shown["rss_mb"])
        agents, started = _child(["startup", str(store)], env)
        samples.setdefault("startup_to_agents_s", []).append(agents["agents_shown"] - started)
        for phase, at in agents["phases"].items():
            samples.setdefault(f"startup_{phase}_s", []).append(at - started)
        browse, _ = _child(["browse", str(store), json.dumps(plan)], env)
        searched, _ = _child(["search", str(store), json.dumps(plan)], env)
        for key, value in {**browse, **searched}.items():
            if isinstance(value, (int, float)):
                samples.setdefault(key, []).append(value)
        pages_via = browse["pages_via"]

    m = {k: _median(v) for k, v in samples.items()}
    result = {
        "startup_to_agents_s": round(m["startup_to_agents_s"], 3),
        "baseline_window_s": round(m["baseline_window_s"], 3),
        "session_first_page_ms": round(m["session_first_page_ms"], 2),
        "session_last_page_ms": round(m["session_last_page_ms"], 2),
        "baseline_page_ms": round(m["baseline_page_ms"], 2),
        "page_ratio": max(_ratio(m["session_first_page_ms"], m["baseline_page_ms"]),
                          _ratio(m["session_last_page_ms"], m["baseline_last_page_ms"])),
        "scroll_10k_ms": round(m["scroll_10k_ms"], 1),
        "search_rare_ms": round(m["search_rare_ms"], 2),
        "search_common_ms": round(m["search_common_ms"], 2),
        "index_build_s": round(plan["index_build_s"], 2),
        "baseline_fts_build_s": round(plan["baseline_fts_build_s"], 2),
        "peak_rss_mb": round(m["peak_rss_mb"], 1),
        "store": {**plan["store"], "path": str(store), "largest_session_records": plan["largest"]["records"]},
        "runs": args.runs,
        "pages_via": pages_via,
        "platform": args.platform,
        "startup_phases_s": {k[8:-2]: round(v, 3) for k, v in m.items() if k.startswith("startup_")
                             and k != "startup_to_agents_s"},
        "baselines": {k: round(m[k], 2) for k in ("baseline_last_page_ms", "baseline_scroll_10k_ms",
                                                   "baseline_search_rare_ms", "baseline_search_common_ms",
                                                   "baseline_rss_mb")},
    }
    _table(result, m, plan)
    print(json.dumps(result))
    return 0


def _table(r: dict, m: dict, plan: dict) -> None:
    rows = [
        ("process start → agent list shown", f"{r['startup_to_agents_s']:.3f} s", "bare PySide6 window shown",
         f"{r['baseline_window_s']:.3f} s", _ratio(r["startup_to_agents_s"], r["baseline_window_s"]), "< 1.5 s"),
        ("largest session: first page shown", f"{r['session_first_page_ms']:.2f} ms", "sqlite3 + json.loads, same page",
         f"{r['baseline_page_ms']:.2f} ms", _ratio(r["session_first_page_ms"], r["baseline_page_ms"]), "< 50 ms, ≤ 3×"),
        ("largest session: jump to last page", f"{r['session_last_page_ms']:.2f} ms", "sqlite3 + json.loads, same page",
         f"{m['baseline_last_page_ms']:.2f} ms", _ratio(r["session_last_page_ms"], m["baseline_last_page_ms"]),
         "< 50 ms, ≤ 3×"),
        ("scroll 10,000 records (50 pages)", f"{r['scroll_10k_ms']:.1f} ms", "sqlite3 + json.loads, same pages",
         f"{m['baseline_scroll_10k_ms']:.1f} ms", _ratio(r["scroll_10k_ms"], m["baseline_scroll_10k_ms"]), ""),
        (f"search rare word '{RARE_WORD}' ({int(m['search_rare_hits'])} hits)", f"{r['search_rare_ms']:.2f} ms",
         "plain FTS5 MATCH + rank", f"{m['baseline_search_rare_ms']:.2f} ms",
         _ratio(r["search_rare_ms"], m["baseline_search_rare_ms"]), "< 100 ms"),
        (f"search common word '{COMMON_WORD}' ({int(m['search_common_hits']):,}+ hits)",
         f"{r['search_common_ms']:.2f} ms", "plain FTS5 MATCH + rank", f"{m['baseline_search_common_ms']:.2f} ms",
         _ratio(r["search_common_ms"], m["baseline_search_common_ms"]), "< 100 ms"),
        ("search index build (1 run)", f"{r['index_build_s']:.2f} s", "plain FTS5 over raw rows",
         f"{r['baseline_fts_build_s']:.2f} s", _ratio(r["index_build_s"], r["baseline_fts_build_s"]), ""),
        ("peak RSS after browsing 10 sessions", f"{r['peak_rss_mb']:.1f} MB", "bare PySide6 window",
         f"{m['baseline_rss_mb']:.1f} MB", _ratio(r["peak_rss_mb"], m["baseline_rss_mb"]), "< 300 MB"),
    ]
    head = ("figure", "daycare-gui", "baseline", "baseline value", "ratio", "goal")
    widths = [max(len(str(x[i])) for x in [head, *rows]) for i in range(len(head))]
    s = r["store"]
    print(f"daycare-gui benchmark — store: {s['agents']:,} agents, {s['sessions']:,} sessions, "
          f"{s['history_rows']:,} history rows (largest session {s['largest_session_records']:,}); "
          f"median of {r['runs']} run(s); pages via {r['pages_via']}; QT_QPA_PLATFORM={r['platform']}")
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(c if c is not None else "—").ljust(w) for c, w in zip(row, widths)))


if __name__ == "__main__":
    raise SystemExit(main())
