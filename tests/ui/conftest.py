"""Qt test set-up: offscreen platform, isolated QSettings, a demo store per session."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtTest import QAbstractItemModelTester  # noqa: E402

from daycare_gui.stores.daycare.demo import write_demo  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _collect_garbage_on_the_gui_thread(qapp):
    """As the application does: cycles holding QObjects are never freed on a worker thread."""
    from daycare_gui.ui import gc_guard

    gc_guard.install(qapp)


@pytest.fixture(scope="session")
def demo_store(tmp_path_factory):
    """A small demo store shared by the UI tests (read-only use only)."""
    dest = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(dest)
    return dest


@pytest.fixture
def settings(tmp_path):
    """QSettings in a private INI file, so tests never read or write the user's."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def model_tester(qtlog):
    """``model_tester(model, ...)`` checks each model with a QAbstractItemModelTester from now until the model
    is deleted (the tester is its child, and kept here): every reset, insert and dataChanged the test drives
    is verified. A violation fails the test with Qt's message (a Fatal tester would abort the whole run)."""
    testers = []

    def watch(*models):
        for model in models:
            testers.append(QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning,
                                                    model))
        return testers

    yield watch
    failures = [r.message for r in qtlog.records
                if (r.context is not None and r.context.category == "qt.modeltest") or r.message.startswith("FAIL!")]
    assert not failures, "QAbstractItemModelTester:\n" + "\n".join(failures)


@pytest.fixture
def window(qtbot, settings):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    make_application()
    w = MainWindow(settings)
    w.resize(1280, 800)  # the size the tests are written at (a first start fits the small offscreen screen)
    qtbot.addWidget(w)
    w.show()
    yield w
    w.close()  # closeEvent closes the store and stops both workers


def open_and_wait(qtbot, window, path, timeout=10000):
    window.open_path(str(path))
    qtbot.waitUntil(lambda: window.store is not None and window.central.currentWidget() is window.splitter,
                    timeout=timeout)


@pytest.fixture
def chatlog(monkeypatch, tmp_path):
    """A store of the chat-log kind, defined only in the tests and installed through an entry point."""
    from daycare_gui.stores import registry
    from tests.stores.plugin import install_chatlog_entry_point

    install_chatlog_entry_point(monkeypatch, tmp_path)
    from chatlog_kind import write_chatlog

    yield write_chatlog(tmp_path / "store")
    registry.unregister("chatlog")


def thread_rows(qtbot, pane) -> list:
    """Every row of a conversations pane's thread list, once read (rows are fetched when a view asks)."""
    model = pane.threads.model
    qtbot.waitUntil(lambda: pane.threads.loaded, timeout=10000)
    for row in range(model.rowCount()):
        model.index(row, 0).data()
    qtbot.waitUntil(lambda: all(model.is_loaded(r) for r in range(model.rowCount())), timeout=10000)
    return [model.record(r) for r in range(model.rowCount())]
