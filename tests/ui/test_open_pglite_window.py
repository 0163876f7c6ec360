"""Opening a PGlite store from the window: the copy and the PGlite start run off the GUI thread, say what
they do, and Cancel stops them, removes the partial copy and leaves the user's folder as it was."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton

from tests.conftest import snapshot_tree
from tests.pg_helpers import use_test_pglite

OPEN_TIMEOUT = 120_000  # a busy two-core machine: the copy and Node's start take seconds


@pytest.fixture
def private_tmp(monkeypatch):
    """Copies go to a temporary folder of this test's own, so the test can see every one of them (a short
    path: the sidecar's unix socket lives there, and socket paths are limited to about 100 bytes)."""
    tmp = Path(tempfile.mkdtemp(prefix="dg-open-"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(use_test_pglite({})))
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(autouse=True)
def no_modal_warnings(monkeypatch):
    """A failed open would wait on a modal message box for ever: record it instead."""
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *args, **kw: shown.append(args[1:3]))
    return shown


def _copies(tmp):
    return sorted(tmp.glob("daycare-gui-pglite-*"))


def test_open_fixture_reports_its_stages(qtbot, window, pglite_store, private_tmp, no_modal_warnings):
    before = snapshot_tree(pglite_store)
    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opened is not None or bool(no_modal_warnings), timeout=OPEN_TIMEOUT)
    assert not no_modal_warnings
    stages = window.opener.messages
    assert any(m.startswith("Copying the store (") and " MB)" in m for m in stages), stages
    assert any(m.startswith("Starting PGlite 0.3.15") for m in stages), stages
    assert window.opened.generation == "pglite"
    assert "pglite" in window.status_store.text()
    assert len(_copies(private_tmp)) == 1  # the private copy, while the store is open
    window.close_store()
    qtbot.waitUntil(lambda: not _copies(private_tmp), timeout=OPEN_TIMEOUT)
    assert snapshot_tree(pglite_store) == before


def test_cancel_mid_copy_leaves_no_copy_and_the_folder_untouched(qtbot, window, pglite_store, private_tmp,
                                                                 monkeypatch):
    from daycare_gui.stores.daycare.pg import folder_copy, pglite_copy

    real_copy = pglite_copy.copy_pglite

    def copy_held_after_a_few_steps(src, dest, progress=None, cancelled=lambda: False, skipped=None):
        # The copy of a small store ends in a blink; hold it after three steps until the user cancels,
        # as a copy of a large store would still be running then.
        steps = [0]

        def gate() -> bool:
            steps[0] += 1
            if steps[0] > 3:
                deadline = time.monotonic() + 60
                while not cancelled() and time.monotonic() < deadline:
                    time.sleep(0.01)
            return cancelled()

        return real_copy(src, dest, progress, gate, skipped)

    monkeypatch.setattr(folder_copy, "CHUNK", 1 << 20)
    monkeypatch.setattr(pglite_copy, "copy_pglite", copy_held_after_a_few_steps)
    before = snapshot_tree(pglite_store)
    cancelled = []
    window.opener.cancelled.connect(cancelled.append)

    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opener.dialog is not None and window.opener.dialog.isVisible()
                    and "Copying the store (" in window.opener.dialog.labelText(), timeout=OPEN_TIMEOUT)
    assert " MB)" in window.opener.dialog.labelText()
    assert window.status_store.text().startswith("Copying the store (")
    qtbot.waitUntil(lambda: bool(_copies(private_tmp)), timeout=OPEN_TIMEOUT)  # a partial copy exists now
    qtbot.mouseClick(window.opener.dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: bool(cancelled), timeout=OPEN_TIMEOUT)
    assert window.opened is None and window.opener.dialog is None and not window.opener.busy
    assert "cancelled" in window.status_store.text()
    assert not _copies(private_tmp)  # the partial copy is gone by the time the window says so
    assert snapshot_tree(pglite_store) == before


def test_engine_running_asks_first_then_waits_or_opens_a_copy_now(qtbot, window, pglite_store, private_tmp,
                                                                 no_modal_warnings):
    import os

    (pglite_store / "engine.pid").write_text(str(os.getpid()))  # a live process: Daycare's engine "runs"
    before = snapshot_tree(pglite_store / "daycare.pglite")
    cancelled = []
    window.opener.cancelled.connect(cancelled.append)

    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opener.question is not None, timeout=OPEN_TIMEOUT)
    assert "engine is running" in window.opener.question.text() and not _copies(private_tmp)
    qtbot.mouseClick(window.opener.question_buttons["wait"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.opener.dialog is not None
                    and window.opener.dialog.labelText().startswith("Waiting for Daycare's engine to stop"),
                    timeout=OPEN_TIMEOUT)
    qtbot.mouseClick(window.opener.dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)  # tired of waiting
    qtbot.waitUntil(lambda: bool(cancelled), timeout=OPEN_TIMEOUT)
    assert window.opened is None and not _copies(private_tmp)

    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opener.question is not None, timeout=OPEN_TIMEOUT)
    qtbot.mouseClick(window.opener.question_buttons["copy"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.opened is not None or bool(no_modal_warnings), timeout=OPEN_TIMEOUT)
    assert not no_modal_warnings
    assert window.banner.isVisible() and "may be a moment behind" in window.banner.label.text()
    assert window.status_engine.text() == "engine RUNNING"
    opened = window.opened
    window.refresh()  # the answer holds for this store: Refresh opens a fresh copy without asking again
    qtbot.waitUntil(lambda: window.opened is not None and window.opened is not opened, timeout=OPEN_TIMEOUT)
    assert window.opener.question is None
    window.close_store()
    qtbot.waitUntil(lambda: not _copies(private_tmp), timeout=OPEN_TIMEOUT)
    assert snapshot_tree(pglite_store / "daycare.pglite") == before


def test_a_pglite_planted_beside_the_store_never_runs_in_the_window(qtbot, window, pglite_store, private_tmp,
                                                                    no_modal_warnings):
    """Issue #32: node_modules/@electric-sql/pglite in the store's folder or its parent is never loaded; the
    store opens with the application's own PGlite."""
    from tests.pg_helpers import plant_pglite

    marker = private_tmp / "planted-code-ran"
    plant_pglite(pglite_store, marker)
    plant_pglite(pglite_store.parent, marker)
    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opened is not None or bool(no_modal_warnings), timeout=OPEN_TIMEOUT)
    assert not no_modal_warnings
    assert window.opened.generation == "pglite"
    assert any(m.startswith("Starting PGlite 0.3.15") for m in window.opener.messages)
    window.close_store()
    qtbot.waitUntil(lambda: not _copies(private_tmp), timeout=OPEN_TIMEOUT)
    assert not marker.exists()


def test_showing_the_opened_store_sends_no_query_from_the_gui_thread(qtbot, window, pglite_store, private_tmp,
                                                                     monkeypatch, no_modal_warnings):
    """The navigation (a PGlite store reads three of its tables for it) and whether writes are blocked (its
    migrations) are read on the open's worker: the window switching to the store, its navigation and its
    first page, asks nothing of the database on the GUI thread, where each query froze the window (#35)."""
    import threading

    from daycare_gui.stores.daycare.pg import database

    on_gui = []
    for name in ("rows", "mappings", "rows_with"):
        real = getattr(database.PgDatabase, name)

        def asked(self, *args, real=real, **kwargs):
            if threading.current_thread() is threading.main_thread():
                on_gui.append(args[0] if args else "")
            return real(self, *args, **kwargs)

        monkeypatch.setattr(database.PgDatabase, name, asked)
    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opened is not None or bool(no_modal_warnings), timeout=OPEN_TIMEOUT)
    assert not no_modal_warnings
    assert "agents" in window._sections and window.nav.text_of("agents")  # the navigation is there
    qtbot.waitUntil(lambda: not window.worker.is_busy(), timeout=OPEN_TIMEOUT)
    assert on_gui == []
