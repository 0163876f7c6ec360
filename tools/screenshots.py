"""Take the README screenshots from a fresh demo store, in a light and in a dark palette.

Run under Xvfb (see README "Screenshots"):
    xvfb-run -a -s "-screen 0 1400x900x24" python tools/screenshots.py docs/screenshots [--palette light|dark|both]
Each shot is the main window showing one section, after its data has arrived; the dark ones are named
``<name>-dark.png``. The palette is switched in the running window, as a desktop switching theme would.
The Costs page is shot on the PGlite demo (``--only pglite``), the only one that keeps its own cost. The run
has a cache of its own (search indexes, kept answers), so the Space tab lists this demo's leftovers only.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QModelIndex, QSettings
from PySide6.QtWidgets import QApplication, QStyleFactory

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.ids import current_minute_ms
from daycare_gui.ui.app import make_application
from daycare_gui.ui.main_window import MainWindow
from daycare_gui.ui.theme import dark_palette

# (file name, section, what to do once it is shown)
SHOTS = [
    ("overview.png", "overview", None),
    ("agents.png", "agents", "select_agent"),
    ("conversation.png", "history", "open_session"),
    ("inbox.png", "inbox", "select_first"),
    ("cron.png", "cron", "select_first"),
    ("apps.png", "apps", "select_first"),
    ("storage.png", "storage", "open:_migrations"),  # the tables, and the migrations' own rows
    ("space.png", "storage", "space"),  # Storage → Space: sizes, advice, this application's own leftovers
    ("automations.png", "automations", "failed_run"),  # the task whose runs include a failure, that run
    ("search.png", "search", "search"),
]


def _demo_picks(store: Path) -> tuple[str | None, tuple[str, str] | None]:
    """A user agent with several sessions, and the longest session with tool calls (agent id, session id):
    read from the demo this script has just written, so the pictures show a real conversation."""
    import sqlite3

    # immutable: not even a -shm file beside the store, which the window would take for a change on disk
    con = sqlite3.connect(f"file:{store / 'daycare.db'}?immutable=1", uri=True)
    try:
        agent = con.execute("SELECT a.id FROM agents a JOIN sessions s ON s.agent_id = a.id WHERE a.type = 'user' "
                            "GROUP BY a.id ORDER BY count(*) DESC, a.id LIMIT 1").fetchone()
        session = con.execute("SELECT s.agent_id, s.id FROM session_history h JOIN sessions s ON s.id = h.session_id "
                              "GROUP BY s.id HAVING sum(h.type LIKE '%tool_call%') > 0 "
                              "ORDER BY count(*) DESC, s.id LIMIT 1").fetchone()
    finally:
        con.close()
    return (agent[0] if agent else None), (tuple(session) if session else None)


def _wait(ms: int = 600) -> None:
    # processEvents + short sleeps rather than QTest.qWait, which here starves the worker thread
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.005)


def _deselect(view) -> None:
    """The second palette's pass finds the page as the first left it: clear the selection so selecting
    again fills the Details dock."""
    view.setCurrentIndex(QModelIndex())
    view.clearSelection()
    _wait(100)


def _select_first(pane) -> None:
    for name in ("table", "view", "list", "tree"):
        view = getattr(pane, name, None)
        if view is not None and view.model() is not None and view.model().rowCount() > 0:
            _deselect(view)
            view.setCurrentIndex(view.model().index(0, 0))
            return


def _until(done, seconds: float = 30) -> bool:
    """Wait until ``done()`` says the page's data is on screen (``seconds`` at most): a shot never shows
    a pane still reading."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done():
            return True
        _wait(100)
    return False


def _failed_run(pane, window) -> None:
    """The automation whose runs include a failure (the demo's daily digest), its runs with their costs,
    the failed run selected (its error in Details)."""
    _until(lambda: bool(pane._all))
    split = pane.stack.widget(0)  # every automation listed whole above its runs
    split.setSizes([270, max(sum(split.sizes()) - 270, 200)])
    failing = next((s for s in pane._all if s.health.last_failure is not None), None)
    if failing is not None:
        _deselect(pane.table)
        pane.list.select_key(failing.id)
    runs = pane.runs
    _until(lambda: runs.records.model.rowCount() > 0 and bool(pane._costs))
    shown = runs.table.model()  # (the filter's proxy over the records)
    for row in range(shown.rowCount()):
        run = runs.records.record_at(shown.index(row, 0))
        if run is not None and run.outcome == "failed":
            runs.table.setCurrentIndex(shown.index(row, 0))
            break
    _settle(window, 600)


def _space_tab(pane, window) -> None:
    """Storage → Space once every size is measured and the leftovers are looked for."""
    pane.tabs.setCurrentWidget(pane.space_tab)
    tab = pane.space_tab
    _until(lambda: not tab.measuring and tab.report is not None
           and (tab.leftovers is None or tab.leftovers.preview is not None))
    # the tables folded (their sizes stay in the group's line), so the agents, the folders and this
    # application's leftovers below them are in the picture
    for i in range(tab.tree.topLevelItemCount()):
        item = tab.tree.topLevelItem(i)
        item.setExpanded(not item.text(0).startswith("Tables"))
    window.details.toggle()  # F9: nothing on this tab goes to Details, so its columns get the width
    _settle(window, 600)


def _leave_backups(store: Path, count: int = 5) -> None:
    """Backups of one task file as that many saves would leave them (the kind's own backup step), so the
    Space tab has leftovers of this application's own to list: those beyond the newest three."""
    from daycare_gui.stores.daycare.edit.file_editor import DaycareFileEditor

    task = next(iter(sorted((store / "cron").glob("*/TASK.md"))), None)
    editor = DaycareFileEditor.for_file(task) if task is not None else None
    if editor is None:
        return
    for _ in range(count):
        editor.backup(task.read_bytes())


def _editor_shots(store: Path, window, out: Path, suffix: str) -> None:
    from daycare_gui.ui.editors.window import open_file_editor

    task = next(iter(sorted((store / "cron").glob("*/TASK.md"))), None)
    perms = next(iter(sorted((store / "workspace" / "apps").glob("*/PERMISSIONS.md"))), None)
    for name, path in ((f"editor-cron{suffix}.png", task), (f"editor-permissions{suffix}.png", perms)):
        if path is None:
            continue
        editor = open_file_editor(path, store=window.store, parent=window)
        editor.resize(1100, 760)
        editor.show()
        _wait(900)
        editor.grab().save(str(out / name))
        print(out / name)
        editor.close()


def _palette_shot(window, out: Path, suffix: str) -> None:
    """Jump To (Ctrl+K) over the window, part of a name typed: the dialog is its own window, so the screen
    is grabbed where the main window is."""
    window.show_section("overview")
    _settle(window, 300)
    for _ in range(100):
        if window.jump.index is not None:
            break
        _wait(100)
    index = window.jump.index
    # an agent's name typed: the agent, then its sessions, then whatever else mentions it
    agent = next((e for e in index.entries if e.kind == "agent" and e.label.startswith("Libr")), None) if index else None
    fragment = agent.label[:4].lower() if agent is not None else "assi"
    window.jump.show_palette()
    window.jump.palette.query.setText("")
    for ch in fragment:
        window.jump.palette.query.insert(ch)
        _wait(80)
    _wait(600)
    frame = window.frameGeometry()
    shot = QApplication.primaryScreen().grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
    shot.save(str(out / f"palette{suffix}.png"))
    print(out / f"palette{suffix}.png")
    window.jump.palette.reject()
    _wait(200)


def _use_palette(app, name: str, light) -> None:
    app.setPalette(dark_palette() if name == "dark" else light)
    _wait(300)


def _settle(window, ms: int = 900) -> None:
    """Let the page's reads arrive, then make the navigation show every label whole. The window widens it
    to ``needed_width()`` as counts arrive, but under Fusion on Xvfb that measure came out 9 px short
    ("Settings and auth …"): Qt's own measure of the drawn rows decides too."""
    _wait(ms)
    nav = window.nav
    drawn = nav.sizeHintForColumn(0) + nav.indentation() + 2 * nav.frameWidth() + 8
    needed = max(nav.needed_width(), drawn)
    sizes = window.splitter.sizes()
    if len(sizes) == 2 and sizes[0] < needed:
        window.splitter.setSizes([needed, sum(sizes) - needed])
    _wait(200)


def _window_shots(window, store: Path, out: Path, suffix: str) -> None:
    agent, session = _demo_picks(store)
    for name, section, action in SHOTS:
        name = name.replace(".png", f"{suffix}.png")
        if section == "history":
            if session is None:
                continue
            window.show_section("history", (session[0], session[1], None))
        elif action == "select_agent":
            shown = window.panes.get(section)
            if shown is not None:  # the second palette's pass: selecting the agent again describes it
                _deselect(shown.threads.table)
            window.show_section(section, agent)  # the agent, its sessions, its active one read
        elif action and action.startswith("open:"):
            shown = window.panes.get(section)
            if shown is not None and hasattr(shown, "tabs"):  # the second pass: the Space shot left its tab
                shown.tabs.setCurrentIndex(0)
            window.show_section(section, action.partition(":")[2])
        else:
            window.show_section(section)
        _settle(window, 1500)
        pane = window.panes.get(section)
        if action == "select_first" and pane is not None:
            _select_first(pane)
            _settle(window, 900)
        elif action == "space" and pane is not None:
            _space_tab(pane, window)
        elif action == "failed_run" and pane is not None:
            _failed_run(pane, window)
        elif action == "search" and pane is not None:
            _wait(1500)  # the index builds on first show
            pane.query_box.setText("lisbon OR groceries")
            pane.run_search()
            _settle(window, 1500)
        window.grab().save(str(out / name))
        print(out / name)
        if action == "space":
            window.details.toggle()  # F9 again: Details back for the next pages


def _open_at(window, path: Path, section: str, seconds: int = 10) -> None:
    """Open ``path`` and wait (``seconds`` at most) until it, not the store before it, is read and offers
    ``section``."""
    window.open_path(str(path))
    for _ in range(seconds * 10):
        if window.opened is not None and window._opened_path == str(path) and section in window._sections:
            break
        _wait(100)


def _agentstack_shots(window, out: Path, palettes, light, work: Path) -> None:
    """AgentStack's memory, searched through its own FTS5 index in the shared collection pane."""
    from daycare_gui.stores.agentstack.demo import write_demo as write_agentstack

    _open_at(window, write_agentstack(work / "agentstack" / "shop"), "collection:memory")
    app = QApplication.instance()
    for palette in palettes:
        _use_palette(app, palette, light)
        window.show_section("collection:memory")
        _wait(900)
        pane = window.panes["collection:memory"]
        pane.search_box.setText("test OR migration")
        pane.search(pane.search_box.text())
        _settle(window, 1200)
        name = out / f"agentstack-search{'-dark' if palette == 'dark' else ''}.png"
        window.grab().save(str(name))
        print(name)


def _linggen_shot(window, out: Path, work: Path) -> None:
    """A Linggen home in the shared conversation pane: the first project, its session with a plan."""
    from daycare_gui.stores.linggen.demo import write_demo as write_linggen

    _open_at(window, write_linggen(work / "linggen" / "home"), "conversations")
    window.show_section("conversations")
    _wait(900)
    pane = window.panes["conversations"]
    projects = pane.threads.table
    if projects.model().rowCount():
        _deselect(projects)
        projects.setCurrentIndex(projects.model().index(0, 0))
        _wait(900)
    # the session with a plan (its items, one in progress), else the last one listed
    sessions = pane.sessions.table
    model = sessions.model()
    titles = [str(model.index(r, 0).data() or "") for r in range(model.rowCount())]
    row = next((r for r, t in enumerate(titles) if t.lower().startswith("plan")), len(titles) - 1)
    if row >= 0:
        _deselect(sessions)
        sessions.setCurrentIndex(model.index(row, 0))
        _wait(900)
    _settle(window, 300)
    window.grab().save(str(out / "linggen-conversation.png"))
    print(out / "linggen-conversation.png")


def _pglite_shot(window, out: Path, work: Path) -> None:
    """Today's Daycare in PGlite through the same panes: an agent by its path, its session with tool calls
    and results, and the lists only today's store keeps (Versions, ...) in the navigation. PGlite runs
    under Node: ``DAYCARE_GUI_PGLITE_DIR`` names the pinned copy (README "Screenshots")."""
    from daycare_gui.stores.daycare.demo.ids import NOW_MS
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    folder = work / "pglite" / "daycare.pglite"
    write_pglite_demo(folder, now_ms=NOW_MS)
    _open_at(window, folder, "agents", seconds=60)  # the engine starts, then the store is read
    window.show_section("agents")
    _settle(window, 2500)
    pane = window.panes.get("agents")
    if pane is None:
        print("PGlite store did not open: pglite-conversation.png not taken")
        return
    table = pane.threads.table
    model = table.model()
    for row in range(model.rowCount()):
        model.index(row, 0).data()  # the keyed rows are read as they are asked for
    _wait(800)
    names = [str(model.index(r, 0).data() or "") for r in range(model.rowCount())]
    row = next((r for r, n in enumerate(names) if n == "Trip"), 0)  # the trip agent: a session with tool calls
    _deselect(table)
    table.setCurrentIndex(model.index(row, 0))
    for _ in range(300):  # the session's messages come from the engine: until they are shown
        text = pane.shown_text().strip()
        if text and not text.startswith("Loading"):
            break
        _wait(100)
    _settle(window, 800)
    window.grab().save(str(out / "pglite-conversation.png"))
    print(out / "pglite-conversation.png")


def _generation_shots(window, out: Path, work: Path) -> None:
    """The same demo written by both Daycare generations (the PGlite one by PGlite itself, with the files
    beside it), each at its Overview in a 1280×800 window: the README's side-by-side pair, which should look
    like one application."""
    from daycare_gui.stores.daycare.demo.command import write_command_demo

    now = current_minute_ms()
    size = window.size()
    window.resize(1280, 800)
    for generation in ("sqlite", "pglite"):
        store = work / "generation" / generation
        write_command_demo(store, now_ms=now, generation=generation)
        _open_at(window, store, "overview", seconds=90)
        if window._opened_path != str(store):
            print(f"the {generation} demo did not open: generation-{generation}.png not taken")
            continue
        window.show_section("overview")
        pane = window.panes["overview"]
        _until(lambda p=pane: p.facts is not None, seconds=60)
        _settle(window, 1500)
        name = out / f"generation-{generation}.png"
        window.grab().save(str(name))
        print(name)
    window.resize(size)


def _costs_shots(window, out: Path, palettes, light) -> None:
    """The Costs page of the PGlite store (open already): totals by model, the first total's records, and
    the store's own cost beside the recomputed one, which only today's Daycare keeps."""
    if "costs" not in window._sections:
        print("PGlite store did not open: costs.png not taken")
        return
    app = QApplication.instance()
    for palette in palettes:
        _use_palette(app, palette, light)
        window.show_section("costs")
        pane = window.panes["costs"]
        pane.group.setCurrentIndex(pane.group.findData("model"))
        _until(lambda p=pane: p.report is not None and p.report.by == "model")
        _deselect(pane.totals.table)
        pane.totals.table.selectRow(0)
        _until(lambda p=pane: p.records.records.model.rowCount() > 0)
        split = pane.totals.parentWidget()  # the one model's total in a short list: the records get the room
        total = sum(split.sizes())
        split.setSizes([110, (total - 110) // 2, total - 110 - (total - 110) // 2])
        _settle(window, 800)
        name = out / f"costs{'-dark' if palette == 'dark' else ''}.png"
        window.grab().save(str(name))
        print(name)


def main(out_dir: str, palettes: tuple[str, ...] = ("light", "dark"), only: str = "") -> int:
    # Every store and the settings file live in one folder removed at the end, so runs leave nothing in /tmp.
    with tempfile.TemporaryDirectory(prefix="daycare-shots-") as work:
        # A cache of the run's own (search indexes, kept answers), so the Space tab's leftovers are this
        # demo's, not whatever the machine's cache holds; the PGlite copy is still found where it was.
        from daycare_gui.stores.daycare.pg.runtime import cache_dir

        os.environ.setdefault("DAYCARE_GUI_PGLITE_DIR", str(cache_dir()))
        os.environ["XDG_CACHE_HOME"] = str(Path(work) / "cache")
        os.environ.pop("DAYCARE_GUI_SEARCH_DIR", None)
        return _take(Path(out_dir), palettes, only, Path(work))


def _take(out: Path, palettes: tuple[str, ...], only: str, work: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    app.setStyle(QStyleFactory.create("Fusion"))  # the same widgets in both palettes, whatever the desktop
    light = app.style().standardPalette()
    store = work / "daycare"
    write_demo(store, now_ms=current_minute_ms())
    _leave_backups(store)
    settings = QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(settings)
    window.resize(1400, 860)
    window.show()
    window.open_path(str(store))
    for _ in range(100):
        if window.store is not None:
            break
        _wait(100)
    _wait(800)
    for palette in palettes if only in ("", "daycare", "palette") else ():
        suffix = "-dark" if palette == "dark" else ""
        _use_palette(app, palette, light)
        if only in ("", "daycare"):
            _window_shots(window, store, out, suffix)
            _editor_shots(store, window, out, suffix)
        if only in ("", "palette"):
            _palette_shot(window, out, suffix)
    if only in ("", "agentstack"):
        _agentstack_shots(window, out, palettes, light, work)
    if only in ("", "pglite"):
        _use_palette(app, "light", light)
        _pglite_shot(window, out, work)
        _costs_shots(window, out, palettes, light)
    if only in ("", "linggen"):
        _use_palette(app, "light", light)
        _linggen_shot(window, out, work)
    if only in ("", "generations"):
        _use_palette(app, "light", light)
        _generation_shots(window, out, work)
    window.close()
    # The window's stores hold files in the folder: let the close finish before the folder goes.
    window.deleteLater()
    _wait(300)
    app.quit()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/screenshots")
    parser.add_argument("--palette", choices=("light", "dark", "both"), default="both")
    parser.add_argument("--only", choices=("daycare", "palette", "agentstack", "pglite", "linggen", "generations"),
                        default="",
                        help="take only these shots (the Daycare pages and editors, Jump To, AgentStack's search, the PGlite "
                             "store and its Costs page, the Linggen home, the SQLite and PGlite demos side by side)")
    args = parser.parse_args()
    chosen = ("light", "dark") if args.palette == "both" else (args.palette,)
    raise SystemExit(main(args.out, chosen, args.only))
