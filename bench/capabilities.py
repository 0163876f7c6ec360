"""Automations, costs and storage on a big store (#36, #37, #38), each figure beside a plain baseline measured in
the same run.

    python bench/capabilities.py [--store DIR] [--runs N] [--task-runs N] [--cache DIR]

- **Space** (Storage → Space): the quick report the view shows first (tables, free pages, folders), the whole
  report (the agents' bytes too) and the whole report again once kept (the store unchanged), against a plain
  ``SELECT name, SUM(pgsize) FROM dbstat GROUP BY name``. Each child starts with an empty private cache.
- **Costs** (``costs --by agent``): every usage record priced and totalled by agent (``stores.common.costs``),
  against a plain grouped SQL over the same rows (tokens summed per agent and model, no prices).
- **Runs** of a task with ``--task-runs`` runs (default 10,000; the small demo with that many "Daily digest" runs
  added, kept in ``<cache>/runs-N``): the reconstruction and its second read while the store is unchanged,
  against a plain SQL read of the task agent's user messages; and the runs table's first screen (offscreen
  Qt: the first page handed to the table as the Automations page does, columns fitted, painted) against
  handing it every run at once (the table as it was).

Without ``--store`` the large demo store of ``bench/run.py`` (``bench/.cache/large``) is used for space and
costs. Every figure is the median of ``--runs`` fresh subprocesses. Nothing is written to the stores; caches go
to a temporary folder removed at the end. The last line is one JSON object.
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

import many_runs

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

TASK = "daily-digest"
GOALS = {"space_quick_s": 1.0, "costs_ratio": 5.0, "runs_first_screen_ms": 100.0}


def _ro(db_path: str) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)


# -- children (each in its own process) ------------------------------------------------------------------------
def child_dbstat(store: str, db_path: str) -> dict:
    started = time.perf_counter()
    conn = _ro(db_path)
    rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
    conn.close()
    return {"seconds": time.perf_counter() - started, "tables": len(rows)}


def child_space(store: str, db_path: str) -> dict:
    from daycare_gui.stores import api, registry

    with registry.open_store(store, live=False) as opened:
        storage = opened.capability(api.Storage)
        started = time.perf_counter()
        quick = storage.space_quick()
        quick_s = time.perf_counter() - started
        started = time.perf_counter()
        full = storage.space()
        full_s = time.perf_counter() - started
        started = time.perf_counter()
        kept = storage.space_quick()
        kept_s = time.perf_counter() - started
    assert kept is not None and not kept.holders_pending and kept.holders == full.holders
    return {"quick_s": quick_s, "full_s": full_s, "kept_s": kept_s, "tables": len(quick.tables),
            "holders": len(full.holders)}


def child_costs_sql(store: str, db_path: str) -> dict:
    started = time.perf_counter()
    conn = _ro(db_path)
    rows = conn.execute(
        "SELECT s.agent_id, json_extract(h.data, '$.tokens.provider'), json_extract(h.data, '$.tokens.model'), "
        "COUNT(*), SUM(json_extract(h.data, '$.tokens.size.input')), SUM(json_extract(h.data, '$.tokens.size.output')), "
        "SUM(json_extract(h.data, '$.tokens.size.cacheRead')), SUM(json_extract(h.data, '$.tokens.size.cacheWrite')) "
        "FROM session_history h LEFT JOIN sessions s ON s.id = h.session_id WHERE h.type = 'assistant_message' "
        "AND json_valid(h.data) AND json_type(h.data, '$.tokens.size') = 'object' GROUP BY 1, 2, 3").fetchall()
    conn.close()
    return {"seconds": time.perf_counter() - started, "records": sum(r[3] for r in rows)}


def child_costs(store: str, db_path: str) -> dict:
    from daycare_gui.stores import api, registry
    from daycare_gui.stores.common.costs import compute

    with registry.open_store(store, live=False) as opened:
        started = time.perf_counter()
        report = compute(opened.capability(api.Usage), "agent")
        seconds = time.perf_counter() - started
    return {"seconds": seconds, "records": report.overall.records, "usd": str(report.overall.usd),
            "lines": len(report.totals)}


def child_runs_sql(store: str, db_path: str) -> dict:
    started = time.perf_counter()
    conn = _ro(db_path)
    agent = conn.execute("SELECT agent_id FROM tasks_cron WHERE id = ?", (TASK,)).fetchone()[0]
    needle = f"taskId: {TASK}\n"
    marks = [row for row in conn.execute(
        "SELECT id, at, json_extract(data, '$.text') FROM session_history WHERE session_id IN "
        "(SELECT id FROM sessions WHERE agent_id = ?) AND type = 'user_message' ORDER BY at DESC", (agent,))
        if row[2] and row[2].startswith('<system_message origin="cron">') and needle in row[2]]
    conn.close()
    return {"seconds": time.perf_counter() - started, "runs": len(marks)}


def child_runs(store: str, db_path: str) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from many_runs import PG_AGENT, automation_id
    from PySide6.QtWidgets import QApplication

    from daycare_gui.stores import api, registry
    from daycare_gui.stores.common.run_cache import RunCache
    from daycare_gui.ui.panes.generic.automations import RUN_PAGE, SHOWN_RUNS, read_automations

    app = QApplication.instance() or QApplication([])
    aid = automation_id(Path(store))
    with registry.open_store(store, live=False) as opened:
        cap = opened.capability(api.Automations)
        cache = RunCache(cap)
        # as the page reads them: the automations with their latest runs' health, then the selected one's runs
        started = time.perf_counter()
        shown = read_automations(cache)
        list_s = time.perf_counter() - started
        started = time.perf_counter()
        runs = cache.runs(aid, limit=SHOWN_RUNS)
        read_s = time.perf_counter() - started
        started = time.perf_counter()
        read_automations(cache)
        again = cache.runs(aid, limit=SHOWN_RUNS)
        kept_s = time.perf_counter() - started
        plain_s = None
        if hasattr(cap, "store"):  # today's Daycare: the task agent's records read plainly, same connection
            started = time.perf_counter()
            cap.db.rows("SELECT h.id, h.type, h.at FROM session_history h WHERE h.session_id IN "
                        "(SELECT id FROM sessions WHERE agent_id = :a)", {"a": PG_AGENT})
            plain_s = time.perf_counter() - started
    assert again is runs

    def first_screen(every: bool) -> tuple[float, float, int]:
        """The Automations page (a stub context: no Details dock, no worker) at its task, handed the runs as
        they arrive from the worker (``_runs_arrived``: the first page to the table, its columns fitted, the
        first run selected) and painted once by the event loop: (wall clock, the GUI thread's CPU time — on a
        shared machine the wall clock includes waiting for a core —, paints of the runs table). ``every``:
        the table handed every run at once (the table as it was)."""
        from PySide6.QtCore import QEvent, QObject

        from daycare_gui.ui.panes.generic import automations as page

        class Ctx:
            def __init__(self) -> None:
                self.opened, self.worker, self.slow_worker = self, self, self

            def capability(self, _cap):
                return cap

            def submit(self, *_a, **_k):  # (the runs are handed over below, as the worker would)
                return None

            submit_long = submit

            def show_detail(self, *_a) -> None: ...
            def set_count(self, *_a) -> None: ...
            def navigate(self, *_a) -> None: ...

        class Paints(QObject):
            count = 0

            def eventFilter(self, _obj, event):
                if event.type() == QEvent.Type.Paint:
                    Paints.count += 1
                return False

        page.RUN_PAGE = len(runs) + 1 if every else RUN_PAGE
        pane = page.AutomationsPane(Ctx())
        pane.resize(1000, 700)
        pane.show()
        pane._arrived(shown)
        pane.list.select_key(aid)
        app.processEvents()
        paints = Paints()
        pane.runs.table.viewport().installEventFilter(paints)
        Paints.count = 0
        started, cpu = time.perf_counter(), time.thread_time()
        pane._runs_arrived(aid, runs)
        app.processEvents()
        seconds, cpu = time.perf_counter() - started, time.thread_time() - cpu
        page.RUN_PAGE = RUN_PAGE
        assert pane.runs.records.model.rowCount() == (len(runs) if every else min(RUN_PAGE, len(runs)))
        pane.close()
        pane.deleteLater()
        app.processEvents()
        return seconds, cpu, Paints.count

    paged = [first_screen(False) for _ in range(3)]
    whole = [first_screen(True) for _ in range(3)]
    outcomes = {o: sum(r.outcome == o for r in runs) for o in sorted({r.outcome for r in runs})}
    return {"list_s": list_s, "read_s": read_s, "kept_ms": kept_s * 1000, "runs": len(runs), "outcomes": outcomes,
            "plain_s": plain_s, "first_screen_paints": paged[0][2],
            "first_screen_ms": statistics.median(w for w, _, _ in paged) * 1000,
            "first_screen_cpu_ms": statistics.median(c for _, c, _ in paged) * 1000,
            "all_at_once_ms": statistics.median(w for w, _, _ in whole) * 1000,
            "all_at_once_cpu_ms": statistics.median(c for _, c, _ in whole) * 1000}


CHILDREN = {"dbstat": child_dbstat, "space": child_space, "costs_sql": child_costs_sql, "costs": child_costs,
            "runs_sql": child_runs_sql, "runs": child_runs}


# -- the parent ----------------------------------------------------------------------------------------------
def _child(mode: str, store: Path, db_path: Path, env: dict) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(store), str(db_path)], capture_output=True,
                          text=True, cwd=REPO, timeout=1800, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    raise RuntimeError(f"child {mode} failed:\n{proc.stderr[-3000:]}")


def _median(mode: str, store: Path, db_path: Path, runs: int, tmp: str) -> dict:
    """The median of ``runs`` children, each with a fresh private cache folder (nothing kept between them)."""
    out = []
    for i in range(runs):
        env = dict(os.environ, XDG_CACHE_HOME=f"{tmp}/{mode}-{i}", DAYCARE_GUI_SEARCH_DIR=f"{tmp}/{mode}-{i}/search")
        out.append(_child(mode, store, db_path, env))
    return {k: (round(statistics.median(r[k] for r in out), 4)
                if isinstance(out[0][k], (int, float)) and not isinstance(out[0][k], bool) else out[0][k])
            for k in out[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", help="a Daycare SQLite data directory (default: the cached large demo store)")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure; medians are reported (default 3)")
    parser.add_argument("--task-runs", type=int, default=10_000, help="runs of the task whose runs are listed")
    parser.add_argument("--cache", default=str(HERE / ".cache"), help="where the demo stores are kept")
    parser.add_argument("--runs-base", action="append", default=[],
                        help="only the runs figures, on a copy of this Daycare store (SQLite data directory or a "
                             "folder holding daycare.pglite) with --task-runs runs added; repeatable")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, store, db_path = args.child
        print("BENCH " + json.dumps(CHILDREN[mode](store, db_path)))
        return 0
    if args.runs_base:
        return runs_on(args)

    from run import _store  # the same large demo store as bench/run.py

    from daycare_gui.stores.daycare.paths import resolve_paths

    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    store = _store(args, cache)
    db_path = resolve_paths(store).db_path
    runs_store = many_runs.runs_store(cache, args.task_runs)
    runs_db = resolve_paths(runs_store).db_path
    tmp = tempfile.mkdtemp(prefix="daycare-bench-capabilities-")
    try:
        dbstat = _median("dbstat", store, db_path, args.runs, tmp)
        space = _median("space", store, db_path, args.runs, tmp)
        costs_sql = _median("costs_sql", store, db_path, args.runs, tmp)
        costs = _median("costs", store, db_path, args.runs, tmp)
        runs_sql = _median("runs_sql", runs_store, runs_db, args.runs, tmp)
        runs = _median("runs", runs_store, runs_db, args.runs, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def ratio(a: float, b: float) -> float | None:
        return round(a / b, 2) if b else None

    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    result = {
        "store": str(store), "runs_store": str(runs_store), "runs": args.runs, "load_average": load,
        "space_quick_s": space["quick_s"], "space_full_s": space["full_s"], "space_kept_s": space["kept_s"],
        "baseline_space_dbstat_s": dbstat["seconds"],
        "space_quick_ratio": ratio(space["quick_s"], dbstat["seconds"]),
        "space_full_ratio": ratio(space["full_s"], dbstat["seconds"]),
        "costs_by_agent_s": costs["seconds"], "costs_records": costs["records"], "costs_usd": costs["usd"],
        "baseline_costs_grouped_sql_s": costs_sql["seconds"], "baseline_costs_records": costs_sql["records"],
        "costs_ratio": ratio(costs["seconds"], costs_sql["seconds"]),
        "runs_listed": runs["runs"], "runs_read_s": runs["read_s"], "runs_kept_ms": runs["kept_ms"],
        "baseline_runs_sql_s": runs_sql["seconds"], "runs_read_ratio": ratio(runs["read_s"], runs_sql["seconds"]),
        "runs_first_screen_ms": runs["first_screen_ms"], "baseline_runs_all_at_once_ms": runs["all_at_once_ms"],
        "runs_first_screen_ratio": ratio(runs["first_screen_ms"], runs["all_at_once_ms"]),
        "runs_first_screen_cpu_ms": runs["first_screen_cpu_ms"],
        "baseline_runs_all_at_once_cpu_ms": runs["all_at_once_cpu_ms"],
    }
    result["figures"] = [
        {"figure": "space view, quick report (s)", "value": space["quick_s"], "baseline": dbstat["seconds"],
         "ratio": result["space_quick_ratio"], "goal": "≤ 1 s", "met": space["quick_s"] <= GOALS["space_quick_s"]},
        {"figure": "space, whole report (s)", "value": space["full_s"], "baseline": dbstat["seconds"],
         "ratio": result["space_full_ratio"], "goal": "on the worker, with progress", "met": None},
        {"figure": "costs --by agent (s)", "value": costs["seconds"], "baseline": costs_sql["seconds"],
         "ratio": result["costs_ratio"], "goal": f"≤ {GOALS['costs_ratio']}× the grouped SQL",
         "met": (result["costs_ratio"] or 0) <= GOALS["costs_ratio"]},
        {"figure": f"runs of a task with {runs['runs']:,} runs, reconstructed (s)", "value": runs["read_s"],
         "baseline": runs_sql["seconds"], "ratio": result["runs_read_ratio"], "goal": "on the worker, kept",
         "met": None},
        {"figure": "runs table, first screen (ms)", "value": runs["first_screen_ms"],
         "baseline": runs["all_at_once_ms"], "ratio": result["runs_first_screen_ratio"], "goal": "≤ 100 ms",
         "met": runs["first_screen_ms"] <= GOALS["runs_first_screen_ms"]},
        {"figure": "runs table, first screen, GUI thread CPU (ms)", "value": runs["first_screen_cpu_ms"],
         "baseline": runs["all_at_once_cpu_ms"],
         "ratio": ratio(runs["first_screen_cpu_ms"], runs["all_at_once_cpu_ms"]), "goal": "≤ 100 ms",
         "met": runs["first_screen_cpu_ms"] <= GOALS["runs_first_screen_ms"]},
    ]
    print(f"{'figure':<52}{'value':>10}{'baseline':>10}{'ratio':>8}  goal")
    for f in result["figures"]:
        print(f"{f['figure']:<52}{f['value']:>10.3f}{f['baseline']:>10.3f}{f['ratio'] or 0:>8}  {f['goal']}")
    print(json.dumps(result, ensure_ascii=False))
    return 0


def runs_on(args) -> int:
    """The runs figures on each ``--runs-base`` store (its copy with ``--task-runs`` runs added): the page's
    automations list with health, the task's runs reconstructed and read again once kept, the plain read of the
    task agent's records (today's Daycare: same connection; SQLite: its own child), and the table's first
    screen against the whole table at once."""
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    out = []
    tmp = tempfile.mkdtemp(prefix="daycare-bench-capabilities-")
    try:
        for base in args.runs_base:
            store = many_runs.runs_store(cache, args.task_runs, Path(base))
            pg = (store / "daycare.pglite").is_dir()
            db = "" if pg else str(store / "daycare.db")
            runs = _median("runs", store, db, args.runs, tmp)
            plain = runs["plain_s"] if pg else _median("runs_sql", store, db, args.runs, tmp)["seconds"]
            out.append({"base": str(base), "store": str(store), "generation": "pglite" if pg else "sqlite", **runs,
                        "baseline_plain_read_s": plain,
                        "first_screen_met": runs["first_screen_ms"] <= GOALS["runs_first_screen_ms"]})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{'store':<34}{'runs':>7}{'list s':>8}{'read s':>8}{'plain s':>8}{'kept ms':>9}{'1st ms':>8}{'all ms':>8}"
          f"{'1st cpu':>8}")
    for r in out:
        print(f"{Path(r['base']).name + ' (' + r['generation'] + ')':<34}{r['runs']:>7}{r['list_s']:>8.2f}"
              f"{r['read_s']:>8.2f}{r['baseline_plain_read_s']:>8.2f}{r['kept_ms']:>9.1f}{r['first_screen_ms']:>8.1f}"
              f"{r['all_at_once_ms']:>8.1f}{r['first_screen_cpu_ms']:>8.1f}")
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    print(json.dumps({"runs": args.runs, "task_runs": args.task_runs, "load_average": load, "stores": out},
                     ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
