"""Start-up imports only what the first page needs, and every later first import happens on the GUI
thread (ui/preload.py): CPython's first import of a package from two threads at once can fail."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import PGLITE_TARBALL

# Not needed to show the window or the Agents page; each costs tens of milliseconds to import.
DEFERRED = ("yaml", "markdown_it", "daycare_gui.stores.daycare.files.collections",
            "daycare_gui.stores.daycare.sqlite.queries.tasks", "daycare_gui.stores.daycare.sqlite.counts", "daycare_gui.stores.daycare.sqlite.store",
            "socket")  # (the stop signals wake the event loop through a pipe)


def _run(code: str, tmp_path) -> dict:
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path, env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_the_window_leaves_the_heavy_modules_for_later(tmp_path):
    found = _run(f"""
        import json, sys
        import daycare_gui.ui.app, daycare_gui.ui.main_window
        print(json.dumps([m for m in {DEFERRED!r} if m in sys.modules]))
    """, tmp_path)
    assert found == []


@pytest.mark.parametrize("store", ["demo", "many-runs", "legacy", "pglite"],
                         ids=["demo", "runs-hidden-at-first", "legacy", "pglite"])
def test_after_start_up_everything_was_first_imported_on_the_gui_thread(tmp_path, fixture_copy, store):
    """Also where "Hide scheduled runs" starts checked (50 run sessions or more): the Agents page's first
    list leaves the runs out on the worker, which imported the run reports for it first. A SQLite store
    imports none of the legacy generation's readers (~15 ms of its start); a legacy store imports them,
    on the GUI thread too, and lists its agents from their history files. A PGlite store too: all but its
    database driver, which a thread of its own imports while PGlite starts (every use waits for it)."""
    legacy = (fixture_copy("daycare-808af509", with_db=False) if store == "legacy"
              else fixture_copy(PGLITE_TARBALL) if store == "pglite" else None)
    result = _run("""
        import json, sys, threading
        from importlib.abc import MetaPathFinder

        MANY_RUNS = MANY_RUNS_GIVEN
        LEGACY = LEGACY_GIVEN
        seen = []

        class Watch(MetaPathFinder):  # records which thread first imports each module; finds nothing itself
            def find_spec(self, name, path=None, target=None):
                seen.append((name, threading.current_thread().name))
                return None

        sys.meta_path.insert(0, Watch())
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication
        from daycare_gui.stores.daycare.demo import write_demo
        from daycare_gui.ui.app import make_application
        from daycare_gui.ui.main_window import MainWindow

        if not LEGACY:
            write_demo("store")
        if MANY_RUNS:  # a session per run, as Daycare's cron agents keep them
            import sqlite3
            from daycare_gui.stores.daycare.demo.db_rows import build_small
            from daycare_gui.ui.panes.generic.thread_list import MANY_RUN_SESSIONS

            with sqlite3.connect("store/daycare.db") as conn:
                conn.executemany("INSERT INTO sessions (id, agent_id, created_at) VALUES (?, ?, ?)",
                                 [(f"run-{i}", build_small().agents["cron_digest"], 1_700_000_000_000 + i)
                                  for i in range(MANY_RUN_SESSIONS)])
        app = make_application()
        window = MainWindow(QSettings("settings.ini", QSettings.Format.IniFormat))
        window.show()
        window.open_path(LEGACY or "store")
        def until(cond):
            while not cond():
                app.processEvents()
                threading.Event().wait(0.001)
        until(lambda: window.store is not None)
        window.show_section("agents")
        until(lambda: window.panes["agents"].threads.model.is_loaded(0))
        until(lambda: "(" in window.nav.text_of("agents"))  # the counts came from the held background worker
        until(lambda: window.preloader.done and not window.bg_worker.is_busy() and not window.worker.is_busy())
        rows = window.panes["agents"].threads.model.rowCount()
        window.close()
        # (a codec module the C codec registry loads for a file's encoding is a leaf of an imported package)
        # (the PostgreSQL generation's database driver is imported by a thread of its own while PGlite starts,
        # which every use waits for: pg.database.import_driver_beside; nothing of the app's on it)
        on_workers = sorted({f"{n} ({t})" for n, t in seen if t != threading.main_thread().name
                             and not n.startswith("encodings.")
                             and not (t == "pglite-import" and not n.startswith("daycare_gui"))})
        print(json.dumps({"on_workers": on_workers, "loaded": [m for m in sys.modules if m == "yaml"],
                          "legacy": sorted(m for m in sys.modules if m.startswith("daycare_gui.stores.daycare.legacy.")),
                          "rows": rows}))
    """.replace("MANY_RUNS_GIVEN", str(store == "many-runs")).replace("LEGACY_GIVEN", repr(legacy and str(legacy))),
        tmp_path)
    assert result["on_workers"] == [], "\n".join(result["on_workers"])
    assert result["loaded"] == ["yaml"]  # the preloader did bring the file readers in
    if store != "legacy":
        assert result["legacy"] == []
        assert result["rows"] > 0
    else:
        assert "daycare_gui.stores.daycare.legacy.conversations" in result["legacy"]
        assert result["rows"] == 2  # its two agents, read from their folders


def test_modules_imported_after_qt_are_not_read_back_as_source(tmp_path):
    # PySide6's import hook would read every later module's source to see whether it uses PySide6
    # (ui/pyside_imports.py): ~45 ms of start-up for the window's modules, and their lines kept in memory.
    (tmp_path / "plain_module.py").write_text("VALUE = 1\n", encoding="utf-8")
    result = _run("""
        import json, linecache, sys
        sys.path.insert(0, ".")
        import daycare_gui.ui
        import plain_module
        from PySide6.QtCore import Qt
        print(json.dumps({"read": any(k.endswith("plain_module.py") for k in linecache.cache),
                          "qt_works": int(Qt.AlignmentFlag.AlignLeft.value) == 1}))
    """, tmp_path)
    assert result == {"read": False, "qt_works": True}


def test_opening_a_store_with_no_engine_leaves_the_socket_module_unloaded(tmp_path):
    """The engine check needs a socket only when the store has an engine socket file: importing the module
    is ~3 ms of every start."""
    found = _run("""
        import json, sys
        from daycare_gui.stores.daycare.demo import write_demo
        from daycare_gui.stores.daycare.sqlite.store import open_store

        write_demo("store")
        store = open_store("store")
        print(json.dumps({"checked": store.engine.detail, "socket": "socket" in sys.modules}))
    """, tmp_path)
    assert found == {"checked": "no pid file and no socket", "socket": False}


# A child's start: the window shown, opening a fresh demo store (what each test waits for follows).
_WINDOW_ON_THE_DEMO = """
        import json, sys, threading
        from PySide6.QtCore import QSettings
        from daycare_gui.stores.daycare.demo import write_demo
        from daycare_gui.ui.app import make_application
        from daycare_gui.ui.main_window import MainWindow

        write_demo("store")
        app = make_application()
        window = MainWindow(QSettings("settings.ini", QSettings.Format.IniFormat))
        window.show()
        window.open_path("store")
"""


def test_opening_a_store_leaves_pyyaml_to_the_idle_imports(tmp_path):
    """The window opens a Daycare store (its readers imported on the GUI thread first) without PyYAML, ~17 ms
    of a start before the first page: the file readers parse YAML only after the preloader brought it in."""
    found = _run(_WINDOW_ON_THE_DEMO + """
        while window.store is None:
            app.processEvents()
            threading.Event().wait(0.001)
        opened = "yaml" in sys.modules
        window.close()
        print(json.dumps({"yaml_when_opened": opened}))
    """, tmp_path)
    assert found == {"yaml_when_opened": False}


def test_the_agents_page_is_imported_in_idle_time_when_start_up_shows_another_page(tmp_path):
    """Start-up shows the Overview; the Agents page's modules come in the idle imports, not on its first
    click (most of that click's stall)."""
    found = _run(_WINDOW_ON_THE_DEMO + """
        while window.store is None or not window.preloader.done:
            app.processEvents()
            threading.Event().wait(0.001)
        shown = window._current_section
        window.close()
        print(json.dumps({"shown": shown, "agents_page": "daycare_gui.ui.panes.generic.conversations" in sys.modules}))
    """, tmp_path)
    assert found == {"shown": "overview", "agents_page": True}


# Not needed to open a SQLite Daycare store (hashing, the search index's documents, Daycare's former index, the
# PostgreSQL generation's run reports): ~10 ms of a start before the first page; the preloader imports them after.
NOT_FOR_A_SQLITE_OPEN = ("hashlib", "daycare_gui.stores.daycare.former_index",
                         "daycare_gui.stores.daycare.search_documents", "daycare_gui.stores.daycare.pg.automations")


def test_opening_a_sqlite_store_leaves_hashing_and_the_search_readers_to_the_idle_imports(tmp_path):
    """Nor does showing the Agents page at once import hashlib, the documents page's module (its Memory
    button looks its documents up on the background worker, after the idle imports) or the export's (its
    conversation view's Export… makes its exporter on first use)."""
    found = _run(_WINDOW_ON_THE_DEMO + f"""
        while window.store is None:
            app.processEvents()
            threading.Event().wait(0.001)
        when_opened = [m for m in {NOT_FOR_A_SQLITE_OPEN!r} if m in sys.modules]
        window.show_section("agents")  # (built at once: the preloader has not had its idle moment yet)
        with_the_agents_page = [m for m in ("hashlib", "socket", "daycare_gui.ui.panes.generic.documents",
                                            "daycare_gui.ui.widgets.export", "daycare_gui.stores.common.export")
                                if m in sys.modules]
        while not window.preloader.done:
            app.processEvents()
            threading.Event().wait(0.001)
        after = [m for m in {(*NOT_FOR_A_SQLITE_OPEN[:3], "daycare_gui.ui.widgets.export")!r} if m not in sys.modules]
        window.close()
        print(json.dumps({{"when_opened": when_opened, "with_the_agents_page": with_the_agents_page,
                          "missing_after_the_idle_imports": after}}))
    """, tmp_path)
    assert found == {"when_opened": [], "with_the_agents_page": [], "missing_after_the_idle_imports": []}


def test_a_state_colour_and_the_navigation_icons_are_drawn_without_qgradients_types(tmp_path):
    """PySide makes QGradient's Python types and enums (~4 ms) the first time a call could take a gradient:
    ``QBrush(QColor(…))`` or ``fillRect``. A dead agent's red row and the navigation's icons are drawn without
    such a call, so the Agents page's first rows do not pay for it; the brush is the same colour as before."""
    found = _run("""
        import json
        import PySide6.QtGui as G
        from daycare_gui.ui.app import make_application
        from daycare_gui.ui.icons import nav_icon
        from daycare_gui.ui.theme import solid_brush

        app = make_application()
        brush = solid_brush("#aa0000")
        nav_icon("system-users").pixmap(16)
        made = "QGradient" in vars(G)
        same = brush == G.QBrush(G.QColor("#aa0000"))
        print(json.dumps({"qgradient_made": made, "same_brush": same}))
    """, tmp_path)
    assert found == {"qgradient_made": False, "same_brush": True}
