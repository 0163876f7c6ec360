"""daycare-gui benchmark: start-up, paging, scrolling, search and memory on a large store, each beside a
plain baseline measured in the same run.

    python bench/run.py [--store DIR] [--runs N] [--cache DIR]

Without ``--store`` it writes (once, then reuses) the large demo store under ``bench/.cache/large``
(1,000 agents, 20,000 sessions, 1,000,000 history rows). Each GUI figure is measured in a fresh
subprocess (``QT_QPA_PLATFORM=offscreen`` unless ``--platform`` says otherwise) and reported as the median
of ``--runs`` runs; the index builds run once per invocation (they take tens of seconds). A readable table
is printed first; the last line is one JSON object.

The children share one temporary folder (their settings files), which the parent removes when it ends —
normally, on an error, on Ctrl+C or on SIGTERM.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import resource
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
    """Peak resident memory of this process. VmHWM belongs to this program image; ru_maxrss would carry
    the parent's peak across fork and exec (the parent builds the index, so every child read ~145 MB)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # not Linux: the best there is


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


def _settings():
    """A private settings file in the folder the parent made (and removes): QSettings writes it again when
    it is destroyed at exit, so a child could never clean up after itself."""
    from PySide6.QtCore import QSettings

    path = os.path.join(os.environ["DAYCARE_BENCH_TMP"], f"settings-{os.getpid()}.ini")
    return QSettings(path, QSettings.Format.IniFormat)


class _Heartbeat:
    """The longest the GUI thread went without serving a 1 ms timer while armed: how long the window
    would have been frozen, and in which stretch of the browse (``where``). Armed from the start (the store
    shown and the window settling count too); disarmed only around the benchmark's own baseline work, which
    a user never runs, until the next stretch is armed."""

    def __init__(self, what: str) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.max_gap_ms = 0.0
        self.where = ""  # the stretch the longest gap came in (arm's ``what``)
        self._what = what
        self._armed = True
        self._last: float | None = None
        self._timer = QTimer(interval=1, timerType=Qt.TimerType.PreciseTimer, timeout=self._tick)
        self._timer.start()

    def _tick(self) -> None:
        if not self._armed:
            return
        now = time.perf_counter()
        if self._last is not None and (now - self._last) * 1000 > self.max_gap_ms:
            self.max_gap_ms, self.where = (now - self._last) * 1000, self._what
        self._last = now

    def arm(self, what: str) -> None:
        self._tick()  # (a stretch already armed counts up to here)
        self._what, self._armed = what, True
        self._last = time.perf_counter()

    def disarm(self) -> None:
        self._tick()  # the stretch up to here counts
        self._armed, self._last = False, None


class _Phases:
    """Where a GUI figure's time went, to show its floor beside it: the GUI thread's CPU time (what it
    worked; the rest of the wall time it waited — for the worker, or for a core on a loaded machine), the
    message list's paints (rows drawn into images and copied) and the window's whole repaints (the list
    included), both wall and GUI-thread CPU, the worker's jobs run meanwhile, and the rows drawn. Of the
    list's paints, the CPU of decoding the rows' records, of formatting and masking their texts, of Qt
    laying out and drawing those texts (the floor: a row's time and summary must be shaped and drawn
    once), and of making and copying the images.

    It wraps the list's paintEvent, the window's event (its UpdateRequest: one repaint of everything
    changed) and the workers' jobs at class level, in this child only; a wrapper costs ~1 µs a call."""

    def __init__(self) -> None:
        from PySide6.QtCore import QEvent

        from daycare_gui.ui import worker
        from daycare_gui.ui.main_window import MainWindow
        from daycare_gui.ui.models.message_pages import MessagePagesModel
        from daycare_gui.ui.widgets.history_list import HistoryList
        from daycare_gui.ui.widgets.history_rows import HistoryRowDelegate

        self.on = False
        self._sums: dict[str, float] = {}
        self._jobs: list[float] = []
        phases = self
        update = QEvent.Type.UpdateRequest
        paint, event, enqueue = HistoryList.paintEvent, MainWindow.event, worker.DbWorker._enqueue

        def timed(name, fn, *args):
            if not phases.on:
                return fn(*args)
            t, c = time.perf_counter(), time.thread_time()
            try:
                return fn(*args)
            finally:
                phases._add(name, (time.perf_counter() - t) * 1000, (time.thread_time() - c) * 1000)

        def list_paint(view, ev):
            return timed("list_paint", paint, view, ev)

        def window_event(window, ev):
            return timed("window_paint", event, window, ev) if ev.type() == update else event(window, ev)

        def enqueued(w, job):
            fn, jobs = job.fn, self._jobs

            def run(*args):  # on the worker thread
                t = time.perf_counter()
                try:
                    return fn(*args)
                finally:
                    if phases.on:
                        jobs.append((time.perf_counter() - t) * 1000)
            job.fn = run
            return enqueue(w, job)

        entry, texts = MessagePagesModel.paint_entry, HistoryRowDelegate._text

        def paint_entry(model, row):  # a row's line from the store: decoded here the first time it is shown
            return timed("decode", entry, model, row)

        def row_texts(delegate, key, rec, when):  # its time and summary formatted, secrets masked
            return timed("texts", texts, delegate, key, rec, when)

        MessagePagesModel.paint_entry, HistoryRowDelegate._text = paint_entry, row_texts
        column, image, blit = HistoryRowDelegate._column, HistoryRowDelegate._image, HistoryRowDelegate._blit

        def texts_drawn(delegate, *args):  # a column of a block's rows: Qt shaping, eliding and drawing them
            return timed("qt_text", column, delegate, *args)

        def new_image(delegate, *args):  # a block's image made and cleared
            return timed("images", image, delegate, *args)

        def copied(delegate, *args):  # rows copied from their image onto the screen
            return timed("images", blit, delegate, *args)

        HistoryRowDelegate._column, HistoryRowDelegate._image, HistoryRowDelegate._blit = texts_drawn, new_image, copied
        draw = HistoryRowDelegate._draw_rows

        def drawn(painter_, p, rows, *args):
            if phases.on:
                phases._sums["rows_drawn"] = phases._sums.get("rows_drawn", 0) + len(rows)
            return draw(painter_, p, rows, *args)

        HistoryList.paintEvent, MainWindow.event, worker.DbWorker._enqueue = list_paint, window_event, enqueued
        show_page, deliver = MainWindow._show_page, worker.DbWorker._deliver_result

        def page_shown(window_, pane):  # a page switched to: shown, the Details dock synced, laid out (not painted)
            return timed("page_shown", show_page, window_, pane)

        def answered(w, *args):  # a worker's answer handled on the GUI thread (a page shown with it included)
            return timed("answers", deliver, w, *args)

        MainWindow._show_page, worker.DbWorker._deliver_result = page_shown, answered
        HistoryRowDelegate._draw_rows = drawn

    def _add(self, name: str, wall: float, cpu: float) -> None:
        sums = self._sums
        if name in ("decode", "texts", "qt_text", "images", "answers"):  # per row or block: CPU only (the wall time of a few µs says nothing more)
            sums[f"{name}_cpu_ms"] = sums.get(f"{name}_cpu_ms", 0.0) + cpu
            return
        sums[f"{name}_ms"] = sums.get(f"{name}_ms", 0.0) + wall
        sums[f"{name}_cpu_ms"] = sums.get(f"{name}_cpu_ms", 0.0) + cpu
        sums[f"{name}s"] = sums.get(f"{name}s", 0) + 1

    def start(self) -> None:
        self._sums, self._jobs[:] = {}, []
        self._wall, self._cpu, self.on = time.perf_counter(), time.thread_time(), True

    def stop(self) -> dict:
        self.on = False
        return {"wall_ms": (time.perf_counter() - self._wall) * 1000, "gui_cpu_ms": (time.thread_time() - self._cpu) * 1000,
                **self._sums, "worker_jobs": len(self._jobs), "worker_ms": sum(self._jobs)}


# ---------------------------------------------------------------------------------------------------
# children (each a fresh interpreter)
def child_window() -> None:
    """Baseline: a bare PySide6 window shown."""
    started = time.time()
    from PySide6.QtWidgets import QApplication, QLabel

    imported = time.time()
    app = QApplication(sys.argv[:1])
    w = QLabel("baseline")
    w.resize(800, 600)
    w.show()
    app.processEvents()
    w.repaint()
    _emit({"shown": time.time(), "import_s": imported - started, "rss_mb": _rss_mb()})


def child_startup(store: str) -> None:
    """The real window: open the store, show Agents, stop once its first rows are loaded and painted."""
    phases = {"python_started": time.time()}
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    phases["imported"] = time.time()
    app = make_application(sys.argv[:1])
    window = MainWindow(_settings())
    window.resize(1280, 800)
    window.show()
    app.processEvents()
    phases["window_shown"] = time.time()
    window.open_initial(store, False)
    _wait(app, lambda: window.store is not None)
    phases["store_open"] = time.time()
    window.show_section("agents")
    threads = window.panes["agents"].threads  # the shared thread list
    _wait(app, lambda: threads.model.rowCount() > 0 and threads.model.is_loaded(0))
    threads.table.viewport().repaint()
    app.processEvents()
    _emit({"agents_shown": time.time(), "rows": threads.model.rowCount(), "phases": phases})
    window.close()


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
    from daycare_gui.stores.daycare.sqlite.store import open_store
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    app = make_application(sys.argv[:1])
    out: dict = {}
    store_obj = open_store(store)
    db = store_obj.db
    phases = _Phases()  # (before the window: its classes are wrapped)
    window = MainWindow(_settings())
    heartbeat = _Heartbeat("the store shown and the window settling")
    sid = plan["largest"]["session_id"]

    # -- the real History pane: open the largest session at its first record, then jump to its end ------
    window.resize(1280, 800)
    window.show()
    from daycare_gui.stores.daycare import DaycareStore

    # what open_path does once the store is open (the window takes a store of any kind)
    window._store_opened(DaycareStore(store_obj), store, remember=False)
    # A person opens a session after the window has settled: let start-up jobs (counts and overview on the
    # background worker, the idle-time build of the conversation page) finish first.
    _wait(app, lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), 120)
    settle = time.perf_counter() + 0.6
    _wait(app, lambda: time.perf_counter() > settle and "history" in window.panes, 30)
    app.processEvents()
    heartbeat.arm("the history page: first and last page; then the Agents page shown")
    phases.start()
    t = time.perf_counter()
    window.navigate("history", (plan["largest"]["agent_id"], sid, plan["largest"]["first_id"]))
    pane = window.panes["history"]
    model = pane.model
    _wait(app, lambda: model.session_id == sid and model.is_loaded(0))
    pane.list.viewport().repaint()
    out["session_first_page_ms"] = (time.perf_counter() - t) * 1000
    out["phases_session_first_page_ms"] = phases.stop()
    # The first page may be shown before the session is counted; the rest needs the count.
    _wait(app, lambda: model.rowCount() == plan["largest"]["records"])
    count = model.rowCount()
    t = time.perf_counter()
    pane.go_last()
    _wait(app, lambda: model.is_loaded(count - 1))
    pane.list.viewport().repaint()
    out["session_last_page_ms"] = (time.perf_counter() - t) * 1000

    # -- the same session opened from a session list, as users do now: the Agents page, its agent
    # selected, the session clicked in its session table; the page's own conversation view opens it at
    # its newest record. From a settled window, the agent's sessions listed (and the one the page picked
    # by itself shown) first.
    agents = window.panes.get("agents") or window.pane("agents")
    window.navigate("agents", plan["largest"]["agent_id"])
    sessions = agents.sessions
    _wait(app, lambda: sessions.records.proxy_row_of_key(sid) >= 0, 60)
    row_of_sid = sessions.records.proxy_row_of_key(sid)
    if agents.session is not None and agents.session.session_id == sid:  # picked already: pick another first
        sessions.table.selectRow(1 if row_of_sid == 0 else 0)
    _wait(app, lambda: agents.conversation.model.session_id not in (None, sid), 60)
    _wait(app, lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), 120)
    settle = time.perf_counter() + 0.3
    _wait(app, lambda: time.perf_counter() > settle)
    app.processEvents()
    view = agents.conversation
    heartbeat.arm("a session opened from the Agents page, then by a link")
    phases.start()
    t = time.perf_counter()
    sessions.table.selectRow(row_of_sid)  # as a click on the session does
    _wait(app, lambda: view.model.session_id == sid and view.model.rowCount() > 0
          and view.model.is_loaded(view.model.rowCount() - 1) and view.current_row() == view.model.rowCount() - 1)
    view.list.viewport().repaint()
    out["session_open_end_ms"] = (time.perf_counter() - t) * 1000
    out["phases_session_open_end_ms"] = phases.stop()
    _wait(app, lambda: view.model.counted and view.model.rowCount() == count, 60)  # (then counted: it is right)

    # -- the same session opened at its end where no list counted it (Jump To a session, a link without
    # a record): the session page shows its last page, read by key, before it is counted; the count after
    # the paint places those rows (its time is reported apart, without a goal: the screen does not change).
    window.navigate("agents")
    _wait(app, lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), 120)
    settle = time.perf_counter() + 0.3
    _wait(app, lambda: time.perf_counter() > settle)
    app.processEvents()
    phases.start()
    t = time.perf_counter()
    window.navigate("history", (plan["largest"]["agent_id"], sid, None))  # the model is emptied at once

    def end_shown() -> bool:
        rows = model.rowCount()
        return (model.session_id == sid and rows > 0 and model.is_loaded(rows - 1)
                and model.key_of(rows - 1) == plan["largest"]["last_id"] and pane.current_row() == rows - 1
                and window.pane_stack.currentWidget() is pane)

    _wait(app, end_shown)
    pane.list.viewport().repaint()
    out["session_link_end_ms"] = (time.perf_counter() - t) * 1000
    out["phases_session_link_end_ms"] = phases.stop()
    _wait(app, lambda: model.counted and model.is_loaded(count - 1) and pane.current_row() == count - 1)
    out["session_link_counted_ms"] = (time.perf_counter() - t) * 1000

    # -- baseline: plain sqlite3 + json.loads of the same pages -----------------------------------------
    heartbeat.disarm()
    # The pane goes on reading the session's row keys in the background: let it finish, so the baseline
    # and the data layer below are measured alike, and take their samples in turn. (Its first chunk is
    # asked for once the list has painted: the workers may be idle before it starts.)
    _wait(app, lambda: model.ids_complete() and not window.worker.is_busy() and not window.bg_worker.is_busy(), 120)
    conn = sqlite3.connect(_uri(Path(db.path)), uri=True)
    # the data layer alone (the page fully decoded: query, parse, typed records), same pages
    from daycare_gui.stores.daycare.sqlite.queries.history import page_after

    def data_layer_ms() -> float:
        t = time.perf_counter()
        page_after(db, sid, -1, PAGE)
        return (time.perf_counter() - t) * 1000

    first, last, layer = [], [], []
    for _ in range(7):
        first.append(_baseline_page(conn, sid)[0])
        last.append(_baseline_page(conn, sid, last=True)[0])
        layer.append(data_layer_ms())
    out["baseline_page_ms"] = statistics.median(first)
    out["baseline_last_page_ms"] = statistics.median(last)
    out["data_layer_page_ms"] = statistics.median(layer)

    # -- scroll 10,000 records from the top with the scroll bar, a page at a time ----------------------------
    bar = pane.list.verticalScrollBar()
    n = min(SCROLL_RECORDS, count)

    def scroll_10k(profiled: bool = False) -> float:
        pane.go_first()
        _wait(app, lambda: model.is_loaded(0))
        if profiled:
            phases.start()
        t = time.perf_counter()
        for row in range(0, n, PAGE):
            # A real scroll is an input event, handled after what the worker posted before it (a page read
            # ahead); setting the bar directly would jump that queue, so let the loop deliver those first.
            app.processEvents()
            bar.setValue(row)  # ScrollPerItem: the value is the top row
            # The window paints as it would for a real scroll: the scroll's own update (its paint asks the
            # model for the rows now visible), then one more only where rows arrived after it (dataChanged).
            # (Two forced repaints a step, as before, painted rows already on screen a second time.)
            _wait(app, lambda r=row: model.is_loaded(r) and model.is_loaded(min(count - 1, r + 40)))
            app.processEvents()  # the update still pending, if any: the rows on screen are painted
        return (time.perf_counter() - t) * 1000

    def baseline_scroll_ms() -> float:
        t = time.perf_counter()
        after = -1
        for _ in range(0, n, PAGE):
            _ms, rows = _baseline_page(conn, sid, after=after)
            after = rows[-1][0]
        return (time.perf_counter() - t) * 1000

    # Both sides read these pages from the system's file cache, as a user's second look does: read once
    # first (not timed), or the first side timed pays for the disk and the other does not. The baseline is
    # then timed just before the scroll and just after it, and is their mean: this machine's speed drifts
    # within a minute (a baseline timed once came out anywhere from 53 to 97 ms in one morning's runs).
    baseline_scroll_ms()
    before = baseline_scroll_ms()
    # The figure is a scroll as a user's window makes it; the profile comes from a second, alike scroll
    # with the profile's wrappers on (they cost a few µs a call: ~4,000 calls in a scroll). The model
    # keeps 16 of its 200-record pages and the row images 128 rows, so on a large store the second scroll
    # reads and draws every page again, as the first did; the images are forgotten first, so that on a
    # small one too it draws every row again.
    heartbeat.arm("scroll 10,000 records")
    out["scroll_10k_ms"] = scroll_10k()
    pane.list.rows.clear_cache()
    scroll_10k(profiled=True)
    out["phases_scroll_10k_ms"] = phases.stop()
    heartbeat.disarm()
    out["baseline_scroll_10k_ms"] = (before + baseline_scroll_ms()) / 2

    conn.close()

    # -- browse ten sessions in the same window (History pane), then read peak memory ---------------------
    heartbeat.arm("ten sessions browsed")
    for agent_id, session_id in plan["sessions"]:
        window.navigate("history", (agent_id, session_id, None))
        _wait(app, lambda s=session_id: model.session_id == s and model.cached_pages() > 0, 60)
        pane.go_first()
        _wait(app, lambda: model.is_loaded(0), 60)
        app.processEvents()
    heartbeat.disarm()
    out["gui_max_gap_ms"] = heartbeat.max_gap_ms
    out["gui_max_gap_where"] = heartbeat.where
    out["peak_rss_mb"] = _rss_mb()
    out["pages_via"] = ("the real history page (the shared ConversationView + MessagePagesModel over KeyedPages "
                        "on the window's DB worker)")
    _emit(out)
    window.close()


def child_search(store: str, plan_json: str) -> None:
    """Time to first results as the Search pane gets them (open the index, search, group), next to a plain
    FTS5 query of the same word on an index of the raw rows. Its own process: nothing else competes."""
    plan = json.loads(plan_json)
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import SearchSource
    from daycare_gui.stores.common.search_index import SourceIndex
    from daycare_gui.stores.common.search_query import search_source

    out: dict = {}
    with registry.open_store(store) as opened:
        source = opened.capability(SearchSource)
        for key, word in (("search_rare_ms", RARE_WORD), ("search_common_ms", COMMON_WORD)):
            t = time.perf_counter()
            with SourceIndex(plan["index_file"]) as index:
                res = search_source(index, word, limit=200, source=source)
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


def child_gil() -> None:
    """Whether Qt's text drawing on another thread runs beside the GUI thread's Python: one long drawText
    into a QImage (which Qt allows off the GUI thread) on a thread, while this thread counts its own
    Python loops, against the loops it counts alone in the same time. Near 100%: PySide releases the
    interpreter lock in Qt's drawing, and rows could be drawn ahead on the worker; near 0%: it holds it,
    and rows drawn there would stop the GUI thread for as long."""
    import threading

    from PySide6.QtGui import QFont, QGuiApplication, QImage, QPainter

    _app = QGuiApplication(sys.argv[:1])
    image = QImage(800, 40, QImage.Format.Format_ARGB32_Premultiplied)
    font, text = QFont(), "a summary of a record " * 20_000

    def draw() -> None:
        painter = QPainter(image)
        painter.setFont(font)
        painter.drawText(0, 20, text)  # one call into Qt: shaping and drawing ~440,000 characters
        painter.end()

    draw()  # (glyphs cached)
    t = time.perf_counter()
    draw()
    drawn_s = time.perf_counter() - t

    def loops(until) -> int:
        n = 0
        while not until():
            sum(range(200))
            n += 1
        return n

    end = time.perf_counter() + drawn_s
    alone = loops(lambda: time.perf_counter() > end)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (draw(), done.set()))
    t = time.perf_counter()
    thread.start()
    beside = loops(done.is_set)
    thread.join()
    beside_s = time.perf_counter() - t
    _emit({"qt_call_ms": drawn_s * 1000, "python_ran_pct": 100 * beside / max(1, alone) * drawn_s / max(beside_s, 1e-9)})


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


def _store(args, cache: Path) -> Path:
    if args.store:
        return Path(args.store)
    dest = cache / "large"
    if not (dest / "daycare.db").exists():
        from daycare_gui.stores.daycare.demo import write_demo

        partial = cache / "large.partial"  # renamed into place only when complete: an interrupted write is redone
        shutil.rmtree(dest, ignore_errors=True)
        shutil.rmtree(partial, ignore_errors=True)
        print(f"writing the large demo store to {dest} (once; about 30 s)…", file=sys.stderr)
        try:
            write_demo(partial, scale="large")
            partial.rename(dest)
        finally:
            shutil.rmtree(partial, ignore_errors=True)
    return dest


def _plan(db_path: Path) -> dict:
    conn = sqlite3.connect(_uri(db_path), uri=True)
    top = conn.execute(
        "SELECT s.agent_id, h.session_id, count(*) AS n FROM session_history h JOIN sessions s ON s.id = h.session_id "
        "GROUP BY h.session_id ORDER BY n DESC LIMIT ?", (BROWSE_SESSIONS,)).fetchall()
    store = {"agents": conn.execute("SELECT count(*) FROM agents").fetchone()[0],
             "sessions": conn.execute("SELECT count(*) FROM sessions").fetchone()[0],
             "history_rows": conn.execute("SELECT count(*) FROM session_history").fetchone()[0]}
    first_id, last_id = conn.execute("SELECT min(id), max(id) FROM session_history WHERE session_id = ?",
                                     (top[0][1],)).fetchone()
    conn.close()
    return {"largest": {"agent_id": top[0][0], "session_id": top[0][1], "records": top[0][2], "first_id": first_id,
                        "last_id": last_id},
            "sessions": [[a, s] for a, s, _n in top], "store": store}


def _build_indexes(store: Path, db_path: Path, work: Path, reuse: bool) -> dict:
    """The shared search index as the window and the command build it (Daycare's SQLite records copied
    inside SQLite: ``SearchSource.sqlite_feed``), and a plain FTS5 index of the raw rows beside it."""
    from daycare_gui.stores import registry
    from daycare_gui.stores.api import SearchSource
    from daycare_gui.stores.common.search_build import update_source_index
    from daycare_gui.stores.common.search_index import SourceIndex

    saved = work / "build.json"
    if reuse and saved.exists():
        data = json.loads(saved.read_text())
        if data.get("db") == str(db_path) and data.get("index") == "shared":  # (not Daycare's former index)
            return data
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    index_file = work / "index.sqlite"
    with registry.open_store(store) as opened:
        source = opened.capability(SearchSource)
        with SourceIndex(index_file) as index:
            t, cpu = time.perf_counter(), time.process_time()
            built = update_source_index(source, index)
            index_build_s, index_cpu_s = time.perf_counter() - t, time.process_time() - cpu
    baseline = work / "baseline_fts.sqlite"
    conn = sqlite3.connect(baseline)
    t, cpu = time.perf_counter(), time.process_time()
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(data, tokenize = 'porter unicode61 remove_diacritics 2')")
    conn.execute("ATTACH DATABASE ? AS src", (_uri(db_path),))
    conn.execute("INSERT INTO f(rowid, data) SELECT id, data FROM src.session_history")
    conn.commit()
    conn.execute("INSERT INTO f(f) VALUES ('optimize')")
    conn.commit()
    baseline_s, baseline_cpu_s = time.perf_counter() - t, time.process_time() - cpu
    conn.close()
    # (both builds run in this process, SQLite included: their CPU seconds compare them on cores other work shares)
    data = {"index_build_s": index_build_s, "baseline_fts_build_s": baseline_s, "index_build_cpu_s": index_cpu_s,
            "baseline_fts_build_cpu_s": baseline_cpu_s, "index_file": str(index_file),
            "baseline_fts": str(baseline), "indexed_rows": built.rows, "db": str(db_path), "index": "shared"}
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
    parser.add_argument("--index-only", action="store_true",
                        help="build the search index and its plain FTS5 baseline, print those figures, and stop")
    parser.add_argument("--reuse-index", action="store_true",
                        help="reuse the indexes (and their build times) of the last run on the same store")
    parser.add_argument("--cache", default=str(CACHE),
                        help="where the large demo store and the indexes are kept (default: bench/.cache)")
    parser.add_argument("--only-browse", action="store_true",
                        help="only the window's browsing figures (pages, opens, scrolling, memory; their profiles): "
                             "no start-up or search children")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        {"window": lambda: child_window(), "startup": lambda: child_startup(rest[0]),
         "browse": lambda: child_browse(rest[0], rest[1]), "search": lambda: child_search(rest[0], rest[1]),
         "gil": lambda: child_gil()}[mode]()
        return 0

    # SIGTERM ends the run like Ctrl+C does, so the finally below removes the children's folder either way.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    tmp = tempfile.mkdtemp(prefix="daycare-bench-")
    try:
        return _measure(args, Path(args.cache), tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _measure(args, cache: Path, tmp: str) -> int:
    # Byte-compile the package first, as an installed app's first start does: with PYTHONDONTWRITEBYTECODE
    # set (common in containers) every child would otherwise measure the compiler, not the app.
    compileall.compile_dir(str(REPO / "daycare_gui"), quiet=1)
    store = _store(args, cache)
    from daycare_gui.stores.daycare.paths import resolve_paths

    db_path = resolve_paths(store).db_path
    plan = _plan(db_path)
    print(f"store {store}: {plan['store']}; largest session {plan['largest']['records']:,} records",
          file=sys.stderr)
    print("building the search index and the plain FTS5 baseline (once; about a minute)…", file=sys.stderr)
    plan.update(_build_indexes(store, db_path, cache / "index", args.reuse_index))
    if args.index_only:
        load = [round(x, 2) for x in os.getloadavg()]
        for key in ("index_build_s", "index_build_cpu_s"):
            f = _figure(plan, *next(spec for spec in FIGURES if spec[0] == key))
            print(f"{f['label']}: {f['value']} s, {f['baseline_label']} {f['baseline']} s, ratio {f['ratio']}")
        _emit({k: plan.get(k) for k in ("index_build_s", "baseline_fts_build_s", "index_build_cpu_s",
                                        "baseline_fts_build_cpu_s", "indexed_rows")} | {"load_average": load})
        return 0
    env = dict(os.environ, QT_QPA_PLATFORM=args.platform, PYTHONPATH=str(REPO), DAYCARE_BENCH_TMP=tmp)
    env["DAYCARE_GUI_SEARCH_DIR"] = str(Path(plan["index_file"]).parent / "unused")  # never the user cache

    samples: dict[str, list[float]] = {}
    gaps_where: list[tuple[float, str]] = []
    load_at_start = [round(x, 2) for x in os.getloadavg()]  # other work on the machine shares its cores
    for run in range(args.runs):
        print(f"run {run + 1}/{args.runs}…", file=sys.stderr)
        if not args.only_browse:
            shown, started = _child(["window"], env)
            samples.setdefault("baseline_window_s", []).append(shown["shown"] - started)
            samples.setdefault("baseline_import_s", []).append(shown["import_s"])
            samples.setdefault("baseline_rss_mb", []).append(shown["rss_mb"])
            agents, started = _child(["startup", str(store)], env)
            samples.setdefault("startup_to_agents_s", []).append(agents["agents_shown"] - started)
            for phase, at in agents["phases"].items():
                samples.setdefault(f"startup_{phase}_s", []).append(at - started)
        browse, _ = _child(["browse", str(store), json.dumps(plan)], env)
        searched = {} if args.only_browse else _child(["search", str(store), json.dumps(plan)], env)[0]
        for key, value in {**browse, **searched}.items():
            if isinstance(value, (int, float)):
                samples.setdefault(key, []).append(value)
            elif key.startswith("phases_"):  # a figure's profile: each of its parts a median of its own
                for part, amount in value.items():
                    samples.setdefault(f"{key}.{part}", []).append(amount)
        pages_via = browse["pages_via"]
        gaps_where.append((round(browse["gui_max_gap_ms"], 1), browse.get("gui_max_gap_where", "")))

    gil, _ = _child(["gil"], env)  # (once: a property of the PySide build, not of the store)
    m = {k: _median(v) for k, v in samples.items()}
    m["index_build_s"], m["baseline_fts_build_s"] = plan["index_build_s"], plan["baseline_fts_build_s"]
    m["index_build_cpu_s"] = plan.get("index_build_cpu_s")  # (None from a --reuse-index of an older run)
    m["baseline_fts_build_cpu_s"] = plan.get("baseline_fts_build_cpu_s")
    if not args.only_browse:
        m["startup_import_s"] = m["startup_imported_s"] - m["startup_python_started_s"]
    figures = [_figure(m, *spec) for spec in FIGURES]
    for f in figures:
        profile = {k.partition(".")[2]: round(v, 2) for k, v in m.items() if k.startswith(f"phases_{f['key']}.")}
        if profile:
            profile["waited_ms"] = round(profile["wall_ms"] - profile["gui_cpu_ms"], 2)
            profile.update(_floor(profile, read_ahead=f["key"] == "scroll_10k_ms"))
            f["profile"] = profile
        if f["key"] == "gui_max_gap_ms":  # each run's longest stall and the stretch of the browse it came in
            f["where"] = [{"ms": ms, "during": where} for ms, where in gaps_where]
    result = {
        **{f["key"]: f["value"] for f in figures},
        **{f["baseline_key"]: f["baseline"] for f in figures if f["baseline_key"]},
        "page_ratio": max(_ratio(m["session_first_page_ms"], m["baseline_page_ms"]),
                          _ratio(m["session_last_page_ms"], m["baseline_last_page_ms"])),
        "figures": figures,
        "goals_met": all(f["met"] is not False for f in figures),
        "store": {**plan["store"], "path": str(store), "largest_session_records": plan["largest"]["records"]},
        "runs": args.runs,
        "pages_via": pages_via,
        "platform": args.platform,
        "startup_phases_s": {k[8:-2]: round(v, 3) for k, v in m.items() if k.startswith("startup_")
                             and k not in ("startup_to_agents_s", "startup_import_s")},
        "hits": {"rare": m.get("search_rare_hits"), "common": m.get("search_common_hits")},
    }
    result["qt_drawing_beside_python"] = {"qt_call_ms": round(gil["qt_call_ms"], 1),
                                          "python_ran_pct": round(gil["python_ran_pct"], 1)}
    result["load_average"] = {"start": load_at_start, "end": [round(x, 2) for x in os.getloadavg()]}
    _table(result)
    for f in figures:  # each figure on a line of its own, then everything as one object (the last line)
        print(json.dumps({"figure": f["key"], **{k: v for k, v in f.items() if k != "key"}}))
    print(json.dumps(result))
    return 0


# key, what it is, unit, baseline key (measured in the same run), what the baseline is, goal: the most
# the figure may be (absolute, in its unit) and the most it may be as a multiple of its baseline.
FIGURES = (
    ("startup_to_agents_s", "process start → agent list shown", "s", "baseline_window_s",
     "bare PySide6 window shown", None, 2.5),
    ("startup_import_s", "  of which importing the app", "s", "baseline_import_s",
     "importing PySide6.QtWidgets", None, None),
    ("session_first_page_ms", "largest session: first page shown", "ms", "baseline_page_ms",
     "sqlite3 + json.loads, same page", 16, None),
    ("data_layer_page_ms", "  of which the data layer (query + parse)", "ms", "baseline_page_ms",
     "sqlite3 + json.loads, same page", None, 2),
    ("session_last_page_ms", "largest session: jump to last page", "ms", "baseline_last_page_ms",
     "sqlite3 + json.loads, same page", 16, None),
    ("session_open_end_ms", "largest session opened at its end from the Agents page's session list", "ms",
     "baseline_last_page_ms", "sqlite3 + json.loads, same page", 16, None),
    ("session_link_end_ms", "largest session opened at its end, not counted yet (Jump To, a link)", "ms",
     "baseline_last_page_ms", "sqlite3 + json.loads, same page", 16, None),
    ("session_link_counted_ms", "  and counted, its rows at their places (the screen unchanged)", "ms",
     "baseline_last_page_ms", "sqlite3 + json.loads, same page", None, None),
    ("scroll_10k_ms", "scroll 10,000 records (50 pages)", "ms", "baseline_scroll_10k_ms",
     "sqlite3 + json.loads, same pages", None, 3),
    ("search_rare_ms", f"search rare word '{RARE_WORD}'", "ms", "baseline_search_rare_ms",
     "plain FTS5 MATCH + rank", 100, None),
    ("search_common_ms", f"search common word '{COMMON_WORD}'", "ms", "baseline_search_common_ms",
     "plain FTS5 MATCH + rank", 100, None),
    ("index_build_s", "search index build (1 run)", "s", "baseline_fts_build_s",
     "plain FTS5 over raw rows", None, 1.3),
    ("index_build_cpu_s", "of which CPU (this process, SQLite's included)", "s", "baseline_fts_build_cpu_s",
     "plain FTS5 over raw rows, CPU", None, None),
    ("peak_rss_mb", "peak memory after browsing 10 sessions", "MB", "baseline_rss_mb",
     "bare PySide6 window", 150, None),
    ("gui_max_gap_ms", "longest GUI-thread stall while browsing", "ms", None, "", 50, None),
)


def _floor(p: dict, read_ahead: bool = False) -> dict:
    """The GUI thread's CPU of a figure split into Qt's own drawing — the rows' texts laid out and drawn,
    their images made and copied, and the rest of the window painted (its other widgets: buttons, labels,
    the conversation, the Details dock) — and everything else (decoding the records, formatting and
    masking their texts, handling the events, the window's own Python). The first is the floor of what
    this design draws; the second is what code can still cut. (Medians of parts: they need not add up.)"""
    get = lambda key: p.get(key, 0.0)  # noqa: E731
    rest_of_window = max(0.0, get("window_paint_cpu_ms") - get("list_paint_cpu_ms"))
    qt = get("qt_text_cpu_ms") + get("images_cpu_ms") + rest_of_window
    # The floor in time, for a figure with a goal in ms: Qt's drawing and the page switched to (in a fresh
    # window the page's and the dock's first show and the window's layout, all Qt's) on the GUI thread,
    # after the worker's reads it waited for (the link's count among them; a scroll's pages are read
    # ahead, beside the paints: not counted). Drawing on the worker instead is no way below it while PySide
    # holds the interpreter lock through Qt's drawing (see child_gil).
    floor = qt + get("page_shown_cpu_ms") + (0.0 if read_ahead else get("worker_ms"))
    return {"qt_rest_of_window_cpu_ms": round(rest_of_window, 2), "qt_drawing_cpu_ms": round(qt, 2),
            "not_drawing_cpu_ms": round(max(0.0, get("gui_cpu_ms") - qt), 2), "floor_ms": round(floor, 2)}


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
    digits = 3 if unit == "s" else 2
    return {"key": key, "label": label.strip(), "unit": unit, "value": _round(value, digits),
            "baseline_key": baseline_key, "baseline_label": baseline_label, "baseline": _round(baseline, digits),
            "ratio": ratio, "goal": goal, "met": all(checks) if checks else None}


def _round(value, digits):
    return round(value, digits) if isinstance(value, (int, float)) else value


def _table(r: dict) -> None:
    labels = {spec[0]: spec[1] for spec in FIGURES}
    rows = [(labels[f["key"]], _fmt(f["value"], f["unit"]), f["baseline_label"], _fmt(f["baseline"], f["unit"]),
             f["ratio"], f["goal"], {True: "yes", False: "NO", None: ""}[f["met"]]) for f in r["figures"]]
    head = ("figure", "daycare-gui", "baseline", "baseline value", "ratio", "goal", "met")
    widths = [max(len(str(x[i] if x[i] is not None else "—")) for x in [head, *rows]) for i in range(len(head))]
    s = r["store"]
    print(f"daycare-gui benchmark — store: {s['agents']:,} agents, {s['sessions']:,} sessions, "
          f"{s['history_rows']:,} history rows (largest session {s['largest_session_records']:,}); "
          f"median of {r['runs']} run(s); pages via {r['pages_via']}; QT_QPA_PLATFORM={r['platform']}")
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(c if c is not None else "—").ljust(w) for c, w in zip(row, widths)))
    print(f"load average {r['load_average']['start']} → {r['load_average']['end']} (2 cores: above 2, every "
          "figure also waits for a core)")
    g = r["qt_drawing_beside_python"]
    print(f"rows drawn ahead on the worker: while another thread drew text into a QImage ({g['qt_call_ms']:.0f} ms in one "
          f"Qt call), the GUI thread ran {g['python_ran_pct']:.1f}% of the Python it runs alone in that time — "
          + ("PySide holds the interpreter lock through Qt's drawing: rows drawn there would stop the GUI thread, "
             "not run beside it" if g["python_ran_pct"] < 50 else "Qt's drawing runs beside the GUI thread's Python"))
    for f in r["figures"]:
        for gap in f.get("where", ()):
            print(f"  {f['key']}: {gap['ms']:.1f} ms during {gap['during'] or '—'}")
        p = f.get("profile")
        if p:
            again = "a second scroll, with the profile's wrappers on: " if f["key"] == "scroll_10k_ms" else ""
            print(f"  {f['key']}: {again}wall {p['wall_ms']:.1f} ms = GUI thread working {p['gui_cpu_ms']:.1f} + waiting "
                  f"{p['waited_ms']:.1f} (worker jobs {p.get('worker_ms', 0):.1f} ms in {p.get('worker_jobs', 0):.0f}); "
                  f"list paints {p.get('list_paint_ms', 0):.1f} ms ({p.get('list_paint_cpu_ms', 0):.1f} CPU, "
                  f"{p.get('rows_drawn', 0):.0f} rows drawn: {p.get('decode_cpu_ms', 0):.1f} CPU decoding their "
                  f"records, {p.get('texts_cpu_ms', 0):.1f} formatting and masking their texts, "
                  f"{p.get('qt_text_cpu_ms', 0):.1f} Qt laying out and drawing those texts, "
                  f"{p.get('images_cpu_ms', 0):.1f} making and copying images, the rest Python), "
                  f"window repaints {p.get('window_paint_ms', 0):.1f} ms ({p.get('window_paint_cpu_ms', 0):.1f} CPU, "
                  "the list's included); of the GUI thread's work, Qt drawing "
                  f"{p['qt_drawing_cpu_ms']:.1f} (texts, images, the rest of the window "
                  f"{p['qt_rest_of_window_cpu_ms']:.1f}), the rest {p['not_drawing_cpu_ms']:.1f} (of it the "
                  f"workers' answers handled {p.get('answers_cpu_ms', 0):.1f}, pages switched to — shown, the dock "
                  f"synced, laid out — {p.get('page_shown_cpu_ms', 0):.1f}); floor: Qt drawing + page switch + "
                  f"the worker's reads waited for (none: a scroll's are read ahead) = {p['floor_ms']:.1f} ms")


def _fmt(value, unit: str) -> str | None:
    if value is None:
        return None
    return f"{value:.3f} {unit}" if unit == "s" else f"{value:.1f} {unit}" if unit == "MB" else f"{value:.2f} {unit}"


if __name__ == "__main__":
    raise SystemExit(main())
