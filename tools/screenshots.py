"""Take the README screenshots from a fresh demo store, in a light and in a dark palette.

Run under Xvfb (see README "Screenshots"):
    xvfb-run -a -s "-screen 0 1400x900x24" python tools/screenshots.py docs/screenshots [--palette light|dark|both]
Each shot is the main window showing one section, after its data has arrived; the dark ones are named
``<name>-dark.png``. The palette is switched in the running window, as a desktop switching theme would.
"""

from __future__ import annotations

import argparse
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
    ("inbox.png", "inbox", None),
    ("cron.png", "cron", "select_first"),
    ("apps.png", "apps", "select_first"),
    ("storage.png", "storage", None),
    ("search.png", "search", "search"),
]


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


def _window_shots(window, out: Path, suffix: str) -> None:
    for name, section, action in SHOTS:
        name = name.replace(".png", f"{suffix}.png")
        if section == "history":
            agents = window.panes.get("agents")
            session = None
            if agents is not None and agents.sessions_model.rowCount():
                session = agents.sessions_model.record(agents.sessions_model.rowCount() - 1)
            if session is None:
                continue
            window.show_section("history", (session.agent_id, session.id, None))
        else:
            window.show_section(section)
        _wait(900)
        pane = window.panes.get(section)
        if action == "select_agent" and pane is not None:
            # a user agent with a real conversation makes the better picture
            model = pane.model
            for row in range(model.rowCount()):
                model.index(row, 0).data()
            _wait(500)
            row = next((r for r in range(model.rowCount())
                        if model.record(r) is not None and model.record(r).type == "user"), 0)
            _deselect(pane.table)
            pane.table.selectRow(row)
            _wait(700)
        elif action == "select_first" and pane is not None:
            _select_first(pane)
            _wait(600)
        elif action == "search" and pane is not None:
            _wait(1500)  # the index builds on first show
            pane.query_box.setText("lisbon OR groceries")
            pane.run_search()
            _wait(1500)
        window.grab().save(str(out / name))
        print(out / name)


def _open_at(window, path: Path, section: str) -> None:
    """Open ``path`` and wait (10 s at most) until the store is read and offers ``section``."""
    window.open_path(str(path))
    for _ in range(100):
        if window.opened is not None and section in window._sections:
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
        _wait(1200)
        name = out / f"agentstack-search{'-dark' if palette == 'dark' else ''}.png"
        window.grab().save(str(name))
        print(name)


def _linggen_shot(window, out: Path, work: Path) -> None:
    """A Linggen home in the shared conversation pane: the first project, its oldest session."""
    from daycare_gui.stores.linggen.demo import write_demo as write_linggen

    _open_at(window, write_linggen(work / "linggen" / "home"), "conversations")
    window.show_section("conversations")
    _wait(900)
    pane = window.panes["conversations"]
    for records in (pane.threads, pane.sessions):
        table = records.table
        if table.model().rowCount():
            _deselect(table)
            table.setCurrentIndex(table.model().index(table.model().rowCount() - 1 if records is pane.sessions
                                                      else 0, 0))
            _wait(900)
    window.grab().save(str(out / "linggen-conversation.png"))
    print(out / "linggen-conversation.png")


def main(out_dir: str, palettes: tuple[str, ...] = ("light", "dark"), only: str = "") -> int:
    # Every store and the settings file live in one folder removed at the end, so runs leave nothing in /tmp.
    with tempfile.TemporaryDirectory(prefix="daycare-shots-") as work:
        return _take(Path(out_dir), palettes, only, Path(work))


def _take(out: Path, palettes: tuple[str, ...], only: str, work: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = make_application()
    app.setStyle(QStyleFactory.create("Fusion"))  # the same widgets in both palettes, whatever the desktop
    light = app.style().standardPalette()
    store = work / "daycare"
    write_demo(store, now_ms=current_minute_ms())
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
    for palette in palettes if only in ("", "palette") else ():
        suffix = "-dark" if palette == "dark" else ""
        _use_palette(app, palette, light)
        if only != "palette":
            _window_shots(window, out, suffix)
            _editor_shots(store, window, out, suffix)
        _palette_shot(window, out, suffix)
    if only in ("", "agentstack"):
        _agentstack_shots(window, out, palettes, light, work)
    if only in ("", "linggen"):
        _use_palette(app, "light", light)
        _linggen_shot(window, out, work)
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
    parser.add_argument("--only", choices=("palette", "agentstack", "linggen"), default="",
                        help="take only these shots (Jump To, AgentStack's search, the Linggen home)")
    args = parser.parse_args()
    chosen = ("light", "dark") if args.palette == "both" else (args.palette,)
    raise SystemExit(main(args.out, chosen, args.only))
