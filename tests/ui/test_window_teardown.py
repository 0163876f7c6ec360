"""Leaving the application without closing its window first (the session ends, a script quits Qt) prints no
error: every handler the window's parts connected stops with the window, which is taken apart at exit, and
a read still running on a worker then has nobody to answer."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

_CHILD = textwrap.dedent("""
    import sys, time
    from PySide6.QtCore import QSettings
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    store, settings = sys.argv[1:3]
    app = make_application(sys.argv[:1])
    window = MainWindow(QSettings(settings, QSettings.Format.IniFormat))
    window.show()
    window.open_path(store)

    def wait(ready):
        end = time.monotonic() + 30
        while not ready() and time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)
        assert ready()

    wait(lambda: window.store is not None and "history" in window.panes)
    for section in list(window._sections):  # every page, each starting its reads
        window.navigate(section)
        app.processEvents()
    window.navigate("history")
    wait(lambda: window.detail_dock.isVisible())
    print("dock shown", flush=True)
    # and now the interpreter exits with the window still shown
""")


def test_exiting_with_the_window_shown_prints_no_error(demo_store, tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", _CHILD, str(demo_store), str(tmp_path / "settings.ini")],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "dock shown" in done.stdout
    assert "Traceback" not in done.stderr, done.stderr
