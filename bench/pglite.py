"""Today's Daycare in PGlite (issue #35): opening, memory, an agent's sessions, the largest session's pages
and the search index build, each beside a baseline measured in the same run.

    python bench/pglite.py [--store DIR] [--small DIR] [--runs N] [--search-rows N] [--skip-window] [--small-only]

Without ``--store`` it writes (once, cached in bench/.cache/pglite-large) ``demo --generation pglite
--scale large``: 1,015 agents, 20,015 sessions, 1,000,000 history records, written by PGlite itself;
without ``--small`` the small demo, in the run's temporary folder. Baselines:

* open — a minimal Node script: copy the folder (``fs.cpSync``), start PGlite on the copy, run a first
  query; timed from its process start to its answer. Compared with the CLI's ``inspect`` (process start to
  exit) and the window (process start to the agent list shown), each a fresh process.
* memory — app and sidecar together (the window's peak, VmHWM, plus its PGlite sidecar's), after the agent
  list, the largest agent's sessions and the largest session's last page; the bare Node script's peak is
  shown beside it (PGlite alone).
* sessions and pages — absolute goals; the same page read by key through psycopg and ``json`` is shown.
  ``sessions_cold`` is the first session list on a store opened for the first time, as the window shows it:
  at once, its counts pending; ``sessions_counted_cold`` is when they are there: every session's record ids
  read once, a scan of the whole history that Daycare's schema (no index on ``session_id``) makes the floor
  (the Node script's bare ``count(*)`` of the history is shown beside it). ``*_reopen`` is the first call after
  the same store, unchanged, is opened again (the ids kept by the first open).
* the window's child starts as ``daycare-gui PATH`` does: the PGlite copy begins (``registry.head_start``)
  before Qt and the window load.
* where the app's copy goes — a small store's private copy is made in a RAM folder of the user's
  (stores.common.ram_folders; ``small_copy_folder`` says which): the Node script copying into that same
  folder is shown beside (``small_baseline_ram_open_s``), never in place of the issue's baseline.
* the window's floor — a bare window (process start → shown, no store) plus the Node script's open: what
  Python, Qt and the app's own start add before any store is read, which the Node script has none of.
* where the open goes — ``open_copy_s``, ``open_pglite_start_s``, ``open_rest_s`` of the in-process open
  (the start as the open waits for it once the copy is made: Node loads PGlite during the copy);
  and memory's floor: the Node script's PGlite alone at its start and after one scan of the history.

Every child (inspect, window) gets a user cache of its own: each is a first open, not an answer kept by
an earlier run (bench/repeat.py measures those).
* search — psycopg reading the same rows (keyset batches, ``json``) plus a plain FTS5 build of their text.

Prints a table, then one JSON object as the last line (``figures``: each with its baseline, ratio, goal
and whether it was met). Nothing is written to the store; copies and indexes go to a temporary folder.
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
from itertools import islice
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

BASELINE_NODE = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [src, dest] = process.argv.slice(2);
fs.cpSync(src, dest, { recursive: true });
const { PGlite } = await import(pathToFileURL(process.env.PGLITE_ENTRY).href);
const db = new PGlite(dest);
await db.waitReady;
await db.query("SELECT id FROM agents LIMIT 1");
const answered = Date.now() / 1000;
const status = (name) => { const m = fs.readFileSync("/proc/self/status", "utf8").match(new RegExp(name + ":\\s+(\\d+)")); return m ? m[1] / 1024 : null; };
const hwm = status("VmHWM");
// the floor of anything that needs every session's size: one scan of the history, however little it computes
let scan = null;
if (process.env.SCAN) { const t = performance.now(); await db.query("SELECT count(*) FROM session_history"); scan = (performance.now() - t) / 1000; }
process.stdout.write(JSON.stringify({ answered, hwm_mb: hwm, scan_s: scan, scan_hwm_mb: status("VmHWM") }) + "\n");
process.exit(0);
"""


def _emit(obj: dict) -> None:
    print("BENCH " + json.dumps(obj), flush=True)


def _hwm_mb(pid: int | str = "self") -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def _median(samples: list[float]) -> float:
    return statistics.median(samples)


def _timed_ms(fn) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) * 1000


# ---------------------------------------------------------------------------------------------------
# children (each a fresh interpreter)
def child_window(store: str, agent: str, session: str) -> None:
    """The real window: process start → the agent list shown; then the agent's sessions and the session's
    last page read as the window reads them, and the peak memory of the app and its sidecar."""
    from daycare_gui.stores import registry

    registry.head_start(store)  # as the command line does for a PATH, before Qt and the window load
    from PySide6.QtCore import QSettings

    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    app = make_application(sys.argv[:1])
    window = MainWindow(QSettings(os.path.join(os.environ["PGLITE_BENCH_TMP"], f"s-{os.getpid()}.ini"),
                                  QSettings.Format.IniFormat))
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    window.open_initial(store, False)
    end = time.monotonic() + 900
    while window.store is None and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.001)
    # the thread list: "agents" where the kind names it so, else the section one per capability gives it
    section = next((k for k, spec in window._sections.items() if k == "agents"), None) or next(
        k for k, spec in window._sections.items() if (spec.shows or spec.id) == "conversations")
    window.show_section(section)
    threads = window.panes[section].threads
    while not (threads.model.rowCount() > 0 and threads.model.is_loaded(0)) and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.001)
    threads.table.viewport().repaint()
    app.processEvents()
    shown = time.time()
    from daycare_gui.stores import api
    from daycare_gui.stores.records import SessionRef

    conv = window.store.capability(api.Conversations)
    conv.sessions(agent)
    ref = SessionRef(agent, session)
    _count, last = conv.tail(ref)
    conv.page_before(ref, last + 1, 200)
    server = getattr(window.store, "server", None)
    sidecar = _hwm_mb(server.proc.pid) if server is not None and server.proc is not None else None
    _emit({"agents_shown": shown, "rows": threads.model.rowCount(), "app_mb": _hwm_mb(), "sidecar_mb": sidecar})
    window.close()


def child_bare() -> None:
    """The window with no store: process start → shown (Python, Qt and the app's own start, which the Node
    baseline has none of: with it, the floor of a window's open)."""
    from PySide6.QtCore import QSettings

    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    app = make_application(sys.argv[:1])
    window = MainWindow(QSettings(os.path.join(os.environ["PGLITE_BENCH_TMP"], f"s-{os.getpid()}.ini"),
                                  QSettings.Format.IniFormat))
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    window.repaint()
    app.processEvents()
    _emit({"shown": time.time()})
    window.close()


def _child(args: list[str], env: dict) -> tuple[dict, float]:
    env = _fresh_cache(env)
    started = time.time()
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args], env=env,
                          capture_output=True, text=True, timeout=1800, cwd=str(REPO))
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:]), started
    raise RuntimeError(f"child {args[0]} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def _baseline_node(folder: Path, runtime, tmp: Path, node_options=()) -> tuple[float, float | None, dict]:
    script = tmp / "baseline.mjs"
    script.write_text(BASELINE_NODE)
    dest = tmp / "baseline-copy"
    shutil.rmtree(dest, ignore_errors=True)
    started = time.time()
    proc = subprocess.run([runtime.node, *node_options, str(script), str(folder), str(dest)], capture_output=True,
                          text=True, env=dict(os.environ, PGLITE_ENTRY=str(runtime.entry), SCAN="1"), timeout=900)
    shutil.rmtree(dest, ignore_errors=True)
    if proc.returncode != 0:
        raise RuntimeError(f"the Node baseline failed: {proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out["answered"] - started, out["hwm_mb"], out


def _fresh_cache(env: dict) -> dict:
    """A user cache of its own for one child: it opens the store as for the first time (what an earlier run
    kept — an inspect's answer, every session's record ids — is measured apart, by bench/repeat.py and the
    ``*_reopen`` figures)."""
    folder = tempfile.mkdtemp(prefix="cache-", dir=env["PGLITE_BENCH_TMP"])
    return dict(env, XDG_CACHE_HOME=folder)


def _inspect(store: Path, env: dict) -> float:
    env = _fresh_cache(env)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "daycare_gui.cli", "inspect", str(store)], env=env, cwd=str(REPO),
                          capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"inspect failed: {proc.stderr[-2000:]}")
    return time.perf_counter() - started


# ---------------------------------------------------------------------------------------------------
# parent
def _ensure_store(store: Path | None) -> Path:
    if store is not None:
        return store
    cache = HERE / ".cache" / "pglite-large"
    if not (cache / "daycare.pglite" / "PG_VERSION").is_file():
        print(f"writing the large PGlite demo into {cache} (once)…", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "daycare_gui.cli", "demo", str(cache), "--generation", "pglite",
                        "--scale", "large", "--now", "fixed", "--quiet"], check=True, cwd=REPO)
    return cache


def _open_figures(m: dict, name: str, store: Path, runtime, tmp: Path, env: dict, runs: int, window: bool,
                  largest: tuple[str, str], inspect_too: bool = True) -> None:
    from daycare_gui.stores.daycare.pg.pglite_copy import SIDECAR_NODE_FLAGS

    base, inspect, shown, app_mb, side_mb, base_mb, scan, scan_mb, bare = [], [], [], [], [], [], [], [], []
    opt_mb, opt_scan, opt_scan_mb, base_ram = [], [], [], []
    # where the app's private copy of this store goes: a small one into a RAM folder (stores.common.ram_folders)
    try:
        from daycare_gui.stores.common import ram_folders
    except ImportError:  # (a version before copies went to RAM: comparable runs)
        ram = None
    else:
        try:
            from daycare_gui.stores.common.leftovers import folder_bytes
        except ImportError:  # (the version that measured it in the copy's own module)
            from daycare_gui.stores.daycare.pg.pglite_copy import _bytes_within as folder_bytes
        ram = ram_folders.folder_for(folder_bytes(store / "daycare.pglite", ram_folders.MAX_BYTES))
    m[f"{name}_copy_folder"] = str(ram) if ram is not None else "the temporary folder"
    for _ in range(runs):  # interleaved: the machine's load falls on both alike
        seconds, hwm, out = _baseline_node(store / "daycare.pglite", runtime, tmp)
        base.append(seconds)
        if ram is not None:  # the same Node script copying into that RAM folder: shown beside, not the goal's
            ram_tmp = Path(tempfile.mkdtemp(prefix="daycare-gui-bench-", dir=ram))
            try:
                base_ram.append(_baseline_node(store / "daycare.pglite", runtime, ram_tmp)[0])
            finally:
                shutil.rmtree(ram_tmp, ignore_errors=True)
        base_mb.append(hwm or 0)
        scan.append(out.get("scan_s") or 0)
        scan_mb.append(out.get("scan_hwm_mb") or 0)
        # PGlite alone again, under the Node options the sidecar runs with: what they take off in this run
        _seconds, hwm, out = _baseline_node(store / "daycare.pglite", runtime, tmp, SIDECAR_NODE_FLAGS)
        opt_mb.append(hwm or 0)
        opt_scan.append(out.get("scan_s") or 0)
        opt_scan_mb.append(out.get("scan_hwm_mb") or 0)
        if inspect_too:
            inspect.append(_inspect(store, env))
        if window:
            out, started = _child(["bare"], env)
            bare.append(out["shown"] - started)
            out, started = _child(["window", str(store), *largest], env)
            shown.append(out["agents_shown"] - started)
            app_mb.append(out["app_mb"] or 0)
            side_mb.append(out["sidecar_mb"] or 0)
    m[f"{name}_baseline_open_s"] = _median(base)
    m[f"{name}_baseline_ram_open_s"] = _median(base_ram) if base_ram else None
    m[f"{name}_baseline_node_mb"] = _median(base_mb)
    m[f"{name}_baseline_scan_ms"] = _median(scan) * 1000  # Node: PGlite's bare count(*) of the history
    m[f"{name}_baseline_node_scan_mb"] = _median(scan_mb)  # Node: PGlite alone, peak after that scan
    m[f"{name}_baseline_node_options_mb"] = _median(opt_mb)  # the same under the sidecar's Node options
    m[f"{name}_baseline_options_scan_ms"] = _median(opt_scan) * 1000
    m[f"{name}_baseline_node_options_scan_mb"] = _median(opt_scan_mb)
    m[f"{name}_inspect_s"] = _median(inspect) if inspect_too else None
    if window:
        m[f"{name}_window_agents_s"] = _median(shown)
        m[f"{name}_bare_window_s"] = _median(bare)  # the app's own start, no store
        # the window's floor: its own start plus what the Node script takes (copy, PGlite's start, a query)
        m[f"{name}_window_floor_s"] = m[f"{name}_bare_window_s"] + m[f"{name}_baseline_open_s"]
        m[f"{name}_app_mb"] = _median(app_mb)
        m[f"{name}_sidecar_mb"] = _median(side_mb)
        m[f"{name}_app_and_sidecar_mb"] = _median([a + s for a, s in zip(app_mb, side_mb)])


def _data_figures(m: dict, store: Path, runtime, runs: int, search_rows: int, tmp: Path) -> None:
    """Sessions, pages and the search index, in this process, on a store opened for them."""
    import psycopg

    from daycare_gui.stores import api, registry
    from daycare_gui.stores.common.search_build import update_source_index
    from daycare_gui.stores.common.search_index import SourceIndex
    from daycare_gui.stores.daycare.pg import pglite_copy
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.records import SessionRef

    phases: dict[str, float] = {}

    def timed(name, fn):
        def run(*a, **k):
            t = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                phases[name] = phases.get(name, 0.0) + time.perf_counter() - t
        return run

    real_copy, real_start = pglite_copy.copy_pglite, pglite_copy.PgliteServer._start
    pglite_copy.copy_pglite = timed("copy", real_copy)
    pglite_copy.PgliteServer._start = timed("start", real_start)
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cache-", dir=tmp)  # nothing kept yet: a first open
    t = time.perf_counter()
    opened = registry.open_store(store)
    m["open_in_process_s"] = time.perf_counter() - t
    pglite_copy.copy_pglite, pglite_copy.PgliteServer._start = real_copy, real_start
    # where the open's seconds go: the copy, PGlite's start (Node, the WebAssembly engine, recovery), the rest
    m["open_copy_s"], m["open_pglite_start_s"] = phases.get("copy"), phases.get("start")
    m["open_rest_s"] = m["open_in_process_s"] - sum(phases.values())
    sid, agent = m["largest_session"], m["largest_agent"]
    ref = SessionRef(agent, sid)
    try:
        conv = opened.capability(api.Conversations)
        # the list as the window shows it (sessions_now: counts pending while the history's one scan runs in
        # the background), then the moment its counts are there
        m["sessions_cold_ms"] = _timed_ms(lambda: conv.sessions_now(agent))
        m["sessions_counted_cold_ms"] = m["sessions_cold_ms"] + _timed_ms(conv.wait_for_counts)
        m["sessions_ms"] = _median([_timed_ms(lambda: conv.sessions(agent)) for _ in range(runs)])
        n, last = conv.tail(ref)
        middle_key = conv.key_chunk(ref, None, n // 2)[-1]
        pages = {
            "first": lambda: [p.message() for p in conv.page_after(ref, None, 200)],
            "middle": lambda: [p.message() for p in conv.page_after(ref, middle_key, 200)],
            "last": lambda: [p.message() for p in conv.page_before(ref, last + 1, 200)],
            "by_position": lambda: conv.messages(ref, n // 3, 200),
            "open_at_end": lambda: (conv.tail(ref), [p.message() for p in conv.page_before(ref, last + 1, 200)]),
        }
        for key, fn in pages.items():
            m[f"page_{key}_ms"] = _median([_timed_ms(fn) for _ in range(runs)])
        m["page_max_ms"] = max(m[f"page_{k}_ms"] for k in pages)
        m["largest_session_records"] = n

        source = opened.capability(api.SearchSource)

        def capped(stream):
            def first_rows(after):
                items = stream(after)
                if items is None:  # (index_rows not offered)
                    return None
                return islice(items, search_rows) if search_rows else items
            return first_rows

        # the same first rows whichever way the index reads them (its lean rows, or the messages)
        source.messages = capped(source.messages)
        if hasattr(source, "index_rows"):  # (a version before it read the messages only: comparable runs)
            source.index_rows = capped(source.index_rows)
        index = SourceIndex(tmp / "app-index.sqlite")
        t, cpu = time.perf_counter(), time.process_time()
        result = update_source_index(source, index)
        m["search_build_s"], m["search_build_cpu_s"] = time.perf_counter() - t, time.process_time() - cpu
        m["search_rows"] = result.added
        index.close()
    finally:
        opened.close()

    # the same store opened again, unchanged: every session's record ids come from what the first open kept
    with registry.open_store(store) as again:
        conv = again.capability(api.Conversations)
        m["sessions_reopen_ms"] = _timed_ms(lambda: conv.sessions(agent))
        m["page_reopen_last_ms"] = _timed_ms(
            lambda: (conv.tail(ref), [p.message() for p in conv.page_before(ref, None, 200)]))

    server = PgliteServer(store / "daycare.pglite", runtime)
    try:
        raw = psycopg.connect(server.url.replace("postgresql+psycopg://", "postgresql://"))
        lo = raw.execute("SELECT min(id) FROM session_history WHERE session_id = %s AND id > 0", (sid,)).fetchone()[0]
        ids = [r[0] for r in raw.execute("SELECT id FROM session_history WHERE session_id = %s AND id >= %s "
                                         "ORDER BY id LIMIT 200", (sid, lo)).fetchall()]

        def plain_page():
            rows = raw.execute("SELECT id, type, at, data FROM session_history WHERE id = ANY(%s::bigint[]) ORDER BY id",
                               (ids,)).fetchall()
            return [json.dumps(r[3]) for r in rows]

        m["baseline_page_ms"] = _median([_timed_ms(plain_page) for _ in range(runs)])
        t, cpu = time.perf_counter(), time.process_time()
        fts = sqlite3.connect(tmp / "baseline-index.sqlite")
        fts.execute("CREATE VIRTUAL TABLE messages USING fts5(body)")
        last_id, done = -1, 0
        while not search_rows or done < search_rows:
            want = 5000 if not search_rows else min(5000, search_rows - done)
            rows = raw.execute("SELECT id, session_id, type, at, data FROM session_history WHERE id > %s "
                               "ORDER BY id LIMIT %s", (last_id, want)).fetchall()
            if not rows:
                break
            with fts:
                fts.executemany("INSERT INTO messages(body) VALUES (?)",
                                [(r[4].get("text", "") if isinstance(r[4], dict) else str(r[4]),) for r in rows])
            done += len(rows)
            last_id = rows[-1][0]
        fts.execute("INSERT INTO messages(messages) VALUES ('optimize')")
        fts.commit()
        fts.close()
        m["baseline_search_build_s"] = time.perf_counter() - t
        # (this process's CPU, beside the wall time: PGlite's own work, in Node, is in neither)
        m["baseline_search_build_cpu_s"] = time.process_time() - cpu
        raw.close()
    finally:
        server.close()


# key, what it is, unit, baseline key, what the baseline is, goal: most (absolute), most as a multiple
FIGURES = (
    ("small_inspect_s", "small demo: CLI inspect (process start → exit)", "s", "small_baseline_open_s",
     "Node: copy + PGlite start + first query", None, 1.5),
    ("small_window_agents_s", "small demo: window (process start → agent list shown)", "s",
     "small_baseline_open_s", "Node: copy + PGlite start + first query", None, 1.5),
    ("small_window_agents_s", "small demo: window, beside its floor (a bare window's start + Node's open)", "s",
     "small_window_floor_s", "bare window + Node: copy + PGlite start + first query", None, None),
    # the app copies a small store into a RAM folder (stores.common.ram_folders): Node doing the same, beside
    # (the goal's baseline stays the issue's: Node copying into the run's temporary folder)
    ("small_baseline_ram_open_s", "small demo: Node's open, its copy in the RAM folder the app's goes to", "s",
     "small_baseline_open_s", "Node: copy (to the run's tmp) + PGlite start + first query", None, None),
    ("small_inspect_s", "small demo: CLI inspect, beside Node copying into the same RAM folder", "s",
     "small_baseline_ram_open_s", "Node: copy (into RAM) + PGlite start + first query", None, None),
    ("small_window_agents_s", "small demo: window, beside Node copying into the same RAM folder", "s",
     "small_baseline_ram_open_s", "Node: copy (into RAM) + PGlite start + first query", None, None),
    ("large_inspect_s", "1M demo: CLI inspect (process start → exit)", "s", "large_baseline_open_s",
     "Node: copy + PGlite start + first query", None, 1.5),
    ("large_window_agents_s", "1M demo: window (process start → agent list shown)", "s",
     "large_baseline_open_s", "Node: copy + PGlite start + first query", None, 1.5),
    ("large_window_agents_s", "1M demo: window, beside its floor (a bare window's start + Node's open)", "s",
     "large_window_floor_s", "bare window + Node: copy + PGlite start + first query", None, None),
    ("large_app_and_sidecar_mb", "1M demo: peak memory, app + sidecar (window, after a session)", "MB",
     "large_baseline_node_mb", "Node: PGlite alone, peak", 300, None),
    ("large_app_mb", "1M demo: peak memory, app alone (window)", "MB", None, "", None, None),
    ("large_sidecar_mb", "1M demo: peak memory, sidecar alone (PGlite under Node)", "MB",
     "large_baseline_node_scan_mb", "Node: PGlite alone, peak after one scan of the history", None, None),
    ("large_baseline_node_options_scan_mb", "1M demo: peak memory, PGlite alone under the sidecar's Node options",
     "MB", "large_baseline_node_scan_mb", "Node: PGlite alone, peak after one scan of the history", None, None),
    ("large_baseline_options_scan_ms", "1M demo: PGlite alone under the sidecar's Node options, count(*) of the "
     "history", "ms", "large_baseline_scan_ms", "Node: PGlite's bare count(*) of the history", None, None),
    ("sessions_cold_ms", "1M demo: an agent's session list shown (counts pending), first call after a first open",
     "ms", None, "", 200, None),
    ("sessions_counted_cold_ms", "1M demo: … and its counts there (the history's one scan, in the background)",
     "ms", "large_baseline_scan_ms", "Node: PGlite's bare count(*) of the history (the floor: no index)", None, None),
    ("sessions_reopen_ms", "1M demo: an agent's session list, first call after reopening it unchanged", "ms",
     None, "", 200, None),
    ("page_reopen_last_ms", "largest session opened at its end, first call after reopening it unchanged", "ms",
     "baseline_page_ms", "psycopg + json, 200 rows by id", 100, None),
    ("sessions_ms", "1M demo: an agent's session list", "ms", None, "", 200, None),
    ("page_first_ms", "largest session: first page (by key, decoded)", "ms", "baseline_page_ms",
     "psycopg + json, 200 rows by id", 100, None),
    ("page_middle_ms", "largest session: a middle page (by key)", "ms", "baseline_page_ms",
     "psycopg + json, 200 rows by id", 100, None),
    ("page_last_ms", "largest session: last page (by key)", "ms", "baseline_page_ms",
     "psycopg + json, 200 rows by id", 100, None),
    ("page_by_position_ms", "largest session: a page by position (messages())", "ms", "baseline_page_ms",
     "psycopg + json, 200 rows by id", 100, None),
    ("page_open_at_end_ms", "largest session opened at its end (count + last page)", "ms", "baseline_page_ms",
     "psycopg + json, 200 rows by id", 100, None),
    ("search_build_s", "search index build", "s", "baseline_search_build_s",
     "psycopg read of the same rows + plain FTS5", None, 1.5),
    ("search_build_cpu_s", "of which this process's CPU", "s", "baseline_search_build_cpu_s",
     "the same, its CPU", None, None),
)


def _ratio(value, baseline):
    if not isinstance(value, (int, float)) or not isinstance(baseline, (int, float)) or baseline <= 0:
        return None
    return round(value / baseline, 2)


def _figure(m: dict, key, label, unit, baseline_key, baseline_label, most, most_ratio) -> dict:
    value, baseline = m.get(key), m.get(baseline_key) if baseline_key else None
    ratio = _ratio(value, baseline)
    checks = []
    if most is not None and value is not None:
        checks.append(value <= most)
    if most_ratio is not None and ratio is not None:
        checks.append(ratio <= most_ratio)
    goal = " and ".join(g for g in (f"≤ {most} {unit}" if most is not None else "",
                                    f"≤ {most_ratio}× baseline" if most_ratio is not None else "") if g)
    digits = 3 if unit == "s" else 1
    return {"key": key, "label": label, "unit": unit, "value": None if value is None else round(value, digits),
            "baseline_key": baseline_key, "baseline_label": baseline_label,
            "baseline": None if baseline is None else round(baseline, digits), "ratio": ratio, "goal": goal,
            "met": all(checks) if checks and value is not None else None}


def _table(figures: list[dict]) -> None:
    head = ("figure", "daycare-gui", "baseline", "ratio", "goal", "met")
    rows = [(f["label"], f"{f['value']} {f['unit']}" if f["value"] is not None else "—",
             f"{f['baseline']} {f['unit']}" if f["baseline"] is not None else "—", f["ratio"] or "—", f["goal"],
             {True: "yes", False: "NO", None: ""}[f["met"]]) for f in figures]
    widths = [max(len(str(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        if sys.argv[2] == "bare":
            child_bare()
        else:
            child_window(*sys.argv[3:])
        return 0
    parser = argparse.ArgumentParser()
    parser.add_argument("--store", type=Path, help="a large PGlite data dir (default: the cached 1M demo)")
    parser.add_argument("--small", type=Path, help="a small PGlite data dir (default: the demo, written now)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--search-rows", type=int, default=0, help="index only the first N records (0: all)")
    parser.add_argument("--skip-window", action="store_true", help="no window children (no display stack)")
    parser.add_argument("--memory-only", action="store_true",
                        help="only the 1M demo's memory: PGlite alone, and the window with its sidecar (no small "
                             "demo, inspect, pages, search build or repeat.py)")
    parser.add_argument("--small-only", action="store_true",
                        help="only the small demo's open (inspect, window, their Node baseline): no 1M demo")
    args = parser.parse_args()
    store = None if args.small_only else _ensure_store(args.store)

    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    runtime = ensure_runtime()
    tmp = Path(tempfile.mkdtemp(prefix="daycare-gui-pglite-bench-"))
    os.environ["XDG_CACHE_HOME"] = str(tmp / "user-cache")  # nothing this run keeps lands in the user's cache
    env = dict(os.environ, PGLITE_BENCH_TMP=str(tmp), PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen",
               DAYCARE_GUI_SEARCH_DIR=str(tmp / "search"))
    env.setdefault("DAYCARE_GUI_PGLITE_DIR", os.environ["DAYCARE_GUI_PGLITE_DIR"])
    m: dict = {"runs": args.runs, "load_average": os.getloadavg()[0]}
    try:
        small = args.small
        if small is None and not args.memory_only:
            small = tmp / "small"
            subprocess.run([sys.executable, "-m", "daycare_gui.cli", "demo", str(small), "--generation", "pglite",
                            "--quiet"], check=True, cwd=REPO, env=env, capture_output=True)
        from daycare_gui.stores import registry

        if store is not None:
            with registry.open_store(store) as opened:  # which session is the largest (not timed)
                sid, agent, _n = opened.db.rows(
                    "SELECT h.session_id, s.agent_id, count(*) c FROM session_history h JOIN sessions s "
                    "ON s.id = h.session_id GROUP BY h.session_id, s.agent_id ORDER BY c DESC LIMIT 1")[0]
            m["largest_session"], m["largest_agent"] = sid, agent
        if args.memory_only:
            _open_figures(m, "large", store, runtime, tmp, env, args.runs, not args.skip_window, (agent, sid),
                          inspect_too=False)
        else:
            with registry.open_store(small) as opened:
                small_largest = opened.db.rows(
                    "SELECT h.session_id, s.agent_id, count(*) c FROM session_history h JOIN sessions s "
                    "ON s.id = h.session_id GROUP BY h.session_id, s.agent_id ORDER BY c DESC LIMIT 1")[0][:2]
            _open_figures(m, "small", small, runtime, tmp, env, args.runs, not args.skip_window,
                          (small_largest[1], small_largest[0]))
            if not args.small_only:
                _open_figures(m, "large", store, runtime, tmp, env, args.runs, not args.skip_window, (agent, sid))
                _data_figures(m, store, runtime, args.runs, args.search_rows, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    figures = [_figure(m, *spec) for spec in FIGURES]
    if args.memory_only or args.small_only:  # (the figures it did not measure)
        figures = [f for f in figures if f["value"] is not None]
    _table(figures)
    print(json.dumps({**{k: (round(v, 3) if isinstance(v, float) else v) for k, v in m.items()},
                      "figures": figures}))
    if args.memory_only or args.small_only:
        return 0
    # a command asked again of an unchanged store (small demos, whole processes): bench/repeat.py's JSON line
    subprocess.run([sys.executable, str(HERE / "repeat.py"), "--runs", str(args.runs)], check=False)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("DAYCARE_GUI_PGLITE_DIR", str(REPO / ".cache" / "pglite"))
    raise SystemExit(main())
