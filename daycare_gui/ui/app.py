"""QApplication set-up and ``run_app`` (the ``daycare-gui [PATH] | --demo`` entry point)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QSettings
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from daycare_gui import __version__
from daycare_gui.ui import gc_guard, scrollbar_style
from daycare_gui.ui.fonts import install_cjk_fallback, install_emoji_fallback
from daycare_gui.ui.start_store import APP, ORG
from daycare_gui.ui.stop_signals import StopSignals
from daycare_gui.ui.theme import PaletteFollower
from daycare_gui.ui.worker import wait_for_background_work


def resources_dir() -> Path:
    """``resources/`` of a source checkout or an editable install; PyInstaller bundles put it in _MEIPASS."""
    bundled = getattr(sys, "_MEIPASS", None)
    if bundled:
        return Path(bundled) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def app_icon() -> QIcon:
    icons = resources_dir() / "icons"
    icon = QIcon()
    for size in (16, 32, 48, 64, 128, 256):
        png = icons / f"daycare-gui-{size}.png"
        if png.exists():
            icon.addFile(str(png))
    svg = icons / "daycare-gui.svg"
    if svg.exists():
        icon.addFile(str(svg))
    return icon


_palette_follower: PaletteFollower | None = None


def _follows(app) -> bool:
    try:
        return _palette_follower is not None and _palette_follower.parent() is app
    except RuntimeError:  # the application it belonged to is gone
        return False


SWITCH_INTERVAL_S = 0.001


# Qt's raster engine hands every fill or copy taller than 96 pixel rows to a pool of threads, in strips of
# 64 rows, and waits for them. For a window's widgets that hand-off costs more than the painting: the
# record list's scroll bar took 0.4-0.7 ms a repaint with the pool and ~0.2 ms without, and scrolling
# 10,000 records ~12% less time. Qt reads the variable once, when the pool is first wanted (the first large
# paint, after the application exists).
NO_GUI_THREADPOOL = "QT_NO_GUI_THREADPOOL"


def make_application(argv: list[str] | None = None) -> QApplication:
    os.environ.setdefault(NO_GUI_THREADPOOL, "1")
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    gc_guard.install(app)  # cyclic garbage (panes, models) is only ever destroyed on this thread
    # Each call from Qt into Python (a row painted, an event handled) takes the interpreter lock; while a
    # worker thread runs Python (decoding, building HTML, loading row keys) a waiting thread gets it only
    # after the switch interval. Python's 5 ms let one repaint wait up to 29 ms behind a busy worker;
    # 1 ms keeps that under 7 ms (measured), at no cost to the median.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    scrollbar_style.install(app)  # Fusion's bars cost 1-5 ms a paint; drawn from images they cost ~0.1
    QCoreApplication.setOrganizationName(ORG)
    QCoreApplication.setApplicationName(APP)
    QCoreApplication.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    app.setDesktopFileName("daycare-gui")
    global _palette_follower
    if not _follows(app):
        style = resources_dir() / "styles" / "app.qss"
        static = style.read_text(encoding="utf-8") if style.exists() else ""
        # colours (banners, error and note labels) come from the palette and follow a light/dark switch
        _palette_follower = PaletteFollower(app, static)
        install_emoji_fallback()  # emoji in histories and names draw with a colour emoji font, not as boxes
        install_cjk_fallback()  # and Chinese, Japanese and Korean with one installed CJK font
    return app


EXIT_WAIT_S = 20.0  # a PGlite close waits 5 s for its process, then kills it and waits 5 s more


def run_app(path: str | None = None, demo: bool = False, self_test: bool = False, kind: str | None = None,
            open_target: str | None = None) -> int:
    app = make_application()
    if self_test:
        return _self_test(app)
    from daycare_gui.ui.main_window import MainWindow

    window = MainWindow(QSettings())
    stops = StopSignals(lambda _signum: _quit_as_ctrl_q(app, window, stops), app)
    try:
        window.show()
        window.open_initial(path, demo, kind=kind, open_target=open_target)
        return app.exec()
    finally:
        stops.uninstall()
        # The store closed on a thread of its own: its private copy goes before the process does.
        wait_for_background_work(EXIT_WAIT_S)


def _quit_as_ctrl_q(app: QApplication, window, stops: StopSignals) -> None:
    """A stop signal: close the window as Ctrl+Q does (unsaved changes are asked about the same way); once
    it has closed, end the event loop even if a dialog is still up, so nothing keeps the process. A signal
    that comes while the question is up is not asked twice."""
    if stops.busy or not window.isVisible():
        return
    stops.busy = True
    try:
        closed = window.close()
    finally:
        stops.busy = False
    if closed:
        app.quit()


SELF_TEST_TIMEOUT_MS = 20_000


def _self_test(app: QApplication) -> int:
    """``--self-test``: open a fresh demo store, wait for the Agents count in the navigation, exit 0.

    The packaged app runs this in CI (packaging/check.sh) to prove the bundle has every module,
    plugin and data file a real start needs. Exit 1 with a reason on an error dialog, an uncaught
    exception or the timeout. Settings go to a throwaway file so the user's recent list is untouched.
    """
    import re
    import tempfile

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    from daycare_gui.stores.demos import current_minute_ms, write_kind_demo
    from daycare_gui.ui.icons import available as available_icons
    from daycare_gui.ui.main_window import MainWindow

    outcome: list[tuple[int, str]] = []

    def finish(code: int, message: str) -> None:
        if not outcome:
            outcome.append((code, message))
            app.exit(code)

    def on_exception(kind, value, tb) -> None:  # exceptions in slots would otherwise only be printed
        sys.__excepthook__(kind, value, tb)
        finish(1, f"uncaught {kind.__name__}: {value}")

    def poll() -> None:
        modal = QApplication.activeModalWidget()
        if isinstance(modal, QMessageBox):
            finish(1, f"dialog {modal.windowTitle()!r}: {modal.text()}")
        found = re.search(r"\((\d[\d,.\s\u00a0\u202f']*)\)", window.nav.text_of("agents"))  # any grouping
        if found:
            # the navigation's icons are package data: a bundle that lost them shows blank entries
            missing = [i for i in window.nav.icon_names() if i not in available_icons()]
            if missing:
                finish(1, f"navigation icons missing from the package: {', '.join(missing)}")
            else:
                agents = int(re.sub(r"\D", "", found.group(1)))
                finish(0, f"{agents} agents, {len(window.nav.icon_names())} navigation icons")

    with tempfile.TemporaryDirectory(prefix="daycare-gui-self-test-") as tmp:
        store = Path(tmp) / "daycare"
        write_kind_demo("daycare", store, current_minute_ms())
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(settings)
        previous_hook, sys.excepthook = sys.excepthook, on_exception
        try:
            window.show()
            window.open_path(str(store))
            ticker = QTimer(window, interval=100, timeout=poll)
            ticker.start()
            QTimer.singleShot(SELF_TEST_TIMEOUT_MS, lambda: finish(
                1, f"timed out after {SELF_TEST_TIMEOUT_MS // 1000} s; status: {window.status_store.text()!r}"))
            app.exec()
            ticker.stop()
            window.close()  # closes the store and stops the worker before the folder goes away
            # Written now, or QSettings writes at exit and makes the removed folder again.
            settings.sync()
        finally:
            sys.excepthook = previous_hook
    code, message = outcome[0] if outcome else (1, "event loop ended without a result")
    print(f"self-test {'ok' if code == 0 else 'FAILED'}: {message}", file=sys.stdout if code == 0 else sys.stderr)
    return code
