"""A PostgreSQL server opened in the window is remembered as its URL without the password (issue #32): the
settings file (0600, in a 0700 folder of the application's own) never holds it, the welcome page and File →
Open Recent show the URL, and reopening it (Recent, or the last store at start) works, libpq taking the
password from PGPASSWORD."""

from __future__ import annotations

import os
import stat

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from tests.pg_helpers import PASSWORD, PgServer

NOW_MS = 1_795_000_000_000


@pytest.fixture(scope="module")
def server():
    from daycare_gui.stores.daycare.pg.demo import write_pg_demo

    pg = PgServer()
    try:
        write_pg_demo(pg.create_db("daycare_demo"), now_ms=NOW_MS)
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def warned(monkeypatch):
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: said.append(a[2])))
    return said


def _window(qtbot, settings):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    make_application()
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.show()
    return w


def _opened(qtbot, w, timeout=20000):
    qtbot.waitUntil(lambda: w.store is not None and w.central.currentWidget() is w.splitter, timeout=timeout)


def _shown(w) -> list[str]:
    return ([a.text() for a in w.recent_menu.actions()]
            + [w.welcome.recent.item(i).text() for i in range(w.welcome.recent.count())])


def test_a_server_is_remembered_without_its_password_and_reopens_from_recent(
        qtbot, server, tmp_path, monkeypatch, warned):
    monkeypatch.chdir(tmp_path)  # where the old code resolved the URL into a path
    ini = tmp_path / "settings.ini"
    settings = QSettings(str(ini), QSettings.Format.IniFormat)
    url = server.url("daycare_demo")
    plain = server.url("daycare_demo", password=None)
    w = _window(qtbot, settings)
    w.open_path(url)
    _opened(qtbot, w)
    settings.sync()
    assert PASSWORD not in ini.read_text()
    assert settings.value("last_path") == plain and settings.value("recent") in ([plain], plain)
    assert stat.S_IMODE(ini.stat().st_mode) == 0o600
    assert PASSWORD not in " ".join(_shown(w)) and plain in _shown(w)
    w.close_store()
    assert w.central.currentWidget() is w.welcome
    monkeypatch.setenv("PGPASSWORD", PASSWORD)  # where libpq finds it now
    w.recent_menu.actions()[0].trigger()
    _opened(qtbot, w)
    assert w.opened.title.endswith("/daycare_demo") and warned == []
    w.close()


def test_an_old_settings_file_loses_the_password_and_its_last_server_reopens(
        qtbot, server, tmp_path, monkeypatch, warned):
    """What an earlier version wrote: the URL resolved into a path under the working folder, password and
    all, mode 0644."""
    ini = tmp_path / "old.ini"
    mangled = f"{tmp_path}/postgresql:/postgres:{PASSWORD}@127.0.0.1:{server.port}/daycare_demo"
    old = QSettings(str(ini), QSettings.Format.IniFormat)
    old.setValue("last_path", mangled)
    old.setValue("recent", [mangled, str(tmp_path)])
    old.sync()
    os.chmod(ini, 0o644)
    settings = QSettings(str(ini), QSettings.Format.IniFormat)
    w = _window(qtbot, settings)
    settings.sync()
    plain = server.url("daycare_demo", password=None)
    assert PASSWORD not in ini.read_text() and stat.S_IMODE(ini.stat().st_mode) == 0o600
    assert settings.value("recent") == [plain, str(tmp_path)] and settings.value("last_path") == plain
    assert PASSWORD not in " ".join(_shown(w))
    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    w.open_initial(None, demo=False)  # no PATH: the last store, a server, comes back
    _opened(qtbot, w)
    assert warned == []
    w.close()


def test_the_welcome_page_opens_what_it_lists(qtbot, tmp_path, demo_store):
    ini = tmp_path / "s.ini"
    settings = QSettings(str(ini), QSettings.Format.IniFormat)
    settings.setValue("recent", [str(demo_store)])
    w = _window(qtbot, settings)
    item = w.welcome.recent.item(0)
    with qtbot.waitSignal(w.welcome.recent_requested) as got:
        w.welcome.recent.itemActivated.emit(item)
    assert got.args == [str(demo_store)]
    w.close()


def test_the_applications_settings_folder_is_made_and_kept_private(qtbot, tmp_path, monkeypatch):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.settings_file import private_settings

    make_application()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    settings = QSettings()  # the application's own file, as run_app makes it
    folder = tmp_path / "config" / "daycare-gui"
    assert os.path.dirname(settings.fileName()) == str(folder)
    private_settings(settings)
    settings.setValue("recent", ["x"])
    settings.sync()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(os.stat(settings.fileName()).st_mode) == 0o600
    os.chmod(folder, 0o755)
    os.chmod(settings.fileName(), 0o644)
    private_settings(QSettings())  # an earlier version's modes: tightened at the next start
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(os.stat(settings.fileName()).st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "config").stat().st_mode) == 0o700  # made by us: private too
