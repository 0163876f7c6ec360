"""The window started on a PGlite store begins its copy and PGlite's start before Qt and the window load
(#35): the open takes that copy instead of making a second one, and a head start no open takes is stopped
and its copy removed."""

from __future__ import annotations

import threading

import pytest

from daycare_gui.stores.daycare.pg import head_start, pglite_copy


@pytest.fixture
def copies(monkeypatch):
    """The thread each copy of a PGlite folder was made on."""
    made = []
    real = pglite_copy.copy_pglite

    def counted(*args, **kwargs):
        made.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(pglite_copy, "copy_pglite", counted)
    yield made
    head_start.discard_all()


def test_the_window_begins_the_copy_before_qt_loads_and_the_open_takes_it(pglite_demo, copies, monkeypatch):
    from daycare_gui import cli
    from daycare_gui.stores import api, registry
    from daycare_gui.stores.daycare.pg import runtime
    from daycare_gui.ui import app

    begun, checked = [], []
    real_find = runtime.find_runtime
    monkeypatch.setattr(runtime, "find_runtime", lambda: checked.append(1) or real_find())

    def window(path=None, **_kwargs):  # the window as run_app starts it: the head start is under way by then
        begun.append(dict(head_start._started))
        with registry.open_store(path) as store:
            assert store.capability(api.Conversations).count() > 0
            assert store.server.workdir.is_dir()
            return 0

    monkeypatch.setattr(app, "run_app", window)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert cli.main([str(pglite_demo)]) == 0
    assert begun and len(begun[0]) == 1  # begun by the command line, before the window was started
    assert copies == ["pglite-head-start"]  # one copy, the head start's, taken by the open
    assert len(checked) == 1  # PGlite's files hashed against the pin once, by the head start
    assert not head_start._started


def test_a_head_start_no_open_takes_is_stopped_and_its_copy_removed(pglite_demo, copies):
    head_start.start(pglite_demo)
    (head,) = head_start._started.values()
    head.wait(lambda: False)
    server, _state = head.result
    assert server.workdir.is_dir() and server.proc.poll() is None
    proc, workdir = server.proc, server.workdir
    head_start.discard_all()
    assert proc.wait(30) is not None and not workdir.exists()
    assert not head_start._started


def test_a_path_that_is_not_a_pglite_store_begins_nothing(tmp_path, demo_store_sqlite, copies):
    head_start.start(tmp_path / "nothing here")
    head_start.start(demo_store_sqlite)
    head_start.start("postgresql://localhost/daycare")
    assert not head_start._started and not copies


@pytest.fixture
def demo_store_sqlite(tmp_path):
    from daycare_gui.cli import main

    root = tmp_path / "sqlite-store"
    assert main(["demo", str(root), "--quiet"]) == 0
    return root


def test_a_store_that_begins_nothing_loads_no_other_kind_before_the_window(demo_store_sqlite):
    """Only the kind the open will choose is asked to begin: a SQLite Daycare store loads Daycare's kind
    alone before Qt (asking each kind in turn loaded every one of them, ~40 ms before the window showed)."""
    import subprocess
    import sys

    script = ("import json, sys\nfrom daycare_gui.stores import registry\n"
              "registry.head_start(sys.argv[1])\nprint(json.dumps(sorted(registry._loaded)))")
    out = subprocess.run([sys.executable, "-c", script, str(demo_store_sqlite)], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == '["daycare"]'


def test_the_window_started_without_a_path_begins_the_copy_of_the_store_it_reopens(pglite_demo, copies, monkeypatch,
                                                                                   tmp_path):
    """``daycare-gui`` alone reopens the last store: its PGlite copy begins before Qt's widgets and the window
    load, as for a PATH given (it began only once the window asked, 1 to 2 s later)."""
    from PySide6.QtCore import QSettings

    from daycare_gui import cli
    from daycare_gui.stores import registry
    from daycare_gui.ui import app, start_store

    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # (no ~/.daycare: nothing else to reopen)
    # The window's settings, in a file of this test's own: Qt keeps the user's settings folder of the first
    # QSettings a process makes, which other tests of this process set for themselves.
    path = str(tmp_path / "settings.ini")
    monkeypatch.setattr(start_store, "app_settings", lambda: QSettings(path, QSettings.Format.IniFormat))
    settings = start_store.app_settings()
    settings.setValue("last_path", str(pglite_demo))
    settings.sync()
    begun = []

    def window(path=None, **_kwargs):  # the window as run_app starts it: it reopens the last store itself
        begun.append(dict(head_start._started))
        with registry.open_store(start_store.app_settings().value("last_path")) as store:
            assert store.server.workdir.is_dir()
        return 0

    monkeypatch.setattr(app, "run_app", window)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert cli.main([]) == 0
    assert begun and len(begun[0]) == 1  # begun by the command line, before the window was started
    assert copies == ["pglite-head-start"]  # one copy, the head start's, taken by the open
    assert not head_start._started
