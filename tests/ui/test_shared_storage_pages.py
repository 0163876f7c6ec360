"""The shared Overview, Storage and Problems pages on a PGlite store (Daycare 7c3c466c's own) and on
another kind (AgentStack): the same pages Daycare's SQLite generation gets, with Upgrade disabled and its
reason said where the store is not upgraded here."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from daycare_gui.stores import api
from daycare_gui.ui.dialogs.upgrade import UpgradeDialog
from tests.pg_helpers import use_test_pglite
from tests.ui.conftest import open_and_wait

OPEN_TIMEOUT = 120_000  # the copy and PGlite's start on a busy machine


def _table_counts(opened) -> dict[str, str]:
    return {t.name: f"{t.count:,}" for t in opened.capability(api.Tables).tables() if not t.hidden}


def _counts_of(model) -> dict[str, str]:
    return {model.index(r, 0).data(): model.index(r, 1).data() for r in range(model.rowCount())}


def _menu_upgrade_says(qtbot, window) -> tuple[str, str]:
    """Storage → Upgrade Storage…: the dialog's headline and body, read as it stands, then closed."""
    seen = {}

    def drive():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, UpgradeDialog)
        qtbot.waitUntil(lambda: dialog.stack.currentWidget() is not dialog.busy_page, timeout=30000)
        seen["said"] = (dialog.message_page.headline.text(), dialog.message_page.body.text())
        seen["run"] = dialog.run_button.isVisible()
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, drive)
    window.open_upgrade()  # modal: returns when drive() pressed Close
    assert seen["run"] is False
    return seen["said"]


def _pages(qtbot, window):
    opened = window.opened
    window.show_section("overview")
    overview = window.panes["overview"]
    qtbot.waitUntil(lambda: overview.facts is not None, timeout=30000)
    window.show_section("storage")
    storage = window.panes["storage"]
    qtbot.waitUntil(lambda: storage.tables_model.rowCount() > 0 and storage.plan is not None, timeout=30000)
    window.show_section("problems")
    problems = window.panes["problems"]
    qtbot.waitUntil(lambda: problems.summary.text() != "Loading…", timeout=30000)
    return opened, overview, storage, problems


@pytest.fixture
def pglite(pglite_store, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(use_test_pglite({})))
    return pglite_store


def test_a_pglite_store_gets_the_same_pages_and_is_not_upgraded_here(qtbot, window, pglite):
    window.open_path(str(pglite))
    qtbot.waitUntil(lambda: window.opened is not None and "storage" in window._sections, timeout=OPEN_TIMEOUT)
    opened, overview, storage, problems = _pages(qtbot, window)

    expected = _table_counts(opened)
    assert _counts_of(overview.tables_model) == expected and "_migrations" in expected
    assert "Layout\npglite" in overview.shown_text()
    assert "Storage\nPGlite (embedded PostgreSQL) store" in overview.shown_text()  # said as SQLite's is

    assert storage.tables_model.rowCount() == len(expected)
    agents = next(storage.tables_model.record(r) for r in range(storage.tables_model.rowCount())
                  if storage.tables_model.record(r).name == "agents")
    assert "user_id" in agents.columns  # the columns are listed, as for SQLite
    storage.open_item("_migrations")
    n = int(expected["_migrations"].replace(",", ""))
    qtbot.waitUntil(lambda: storage.browser.model.rowCount() == n, timeout=30000)
    assert "name" in storage.browser.model.columns
    # every row of _migrations is a line of the Migrations tab, each with its state against 7c3c466c's list
    assert storage.migration_model.rowCount() >= n
    assert storage.tabs.tabText(1).startswith(f"Migrations ({n} applied")
    assert "of Daycare 7c3c466c's" in storage.migration_text.text()
    assert not storage.upgrade_button.isEnabled()
    assert "never migrates it" in storage.upgrade_reason.text()

    assert problems.model.rowCount() == len(opened.problems)
    assert window.nav.text_of("problems").endswith(f"({len(opened.problems)})")

    headline, body = _menu_upgrade_says(qtbot, window)
    assert headline == "This store will not be upgraded" and "never migrates it" in body


def test_another_kind_gets_the_same_pages_without_migrations(qtbot, window, tmp_path):
    from daycare_gui.stores.agentstack import write_demo

    db = write_demo(tmp_path / "agentstack")
    open_and_wait(qtbot, window, db, timeout=30000)
    opened, overview, storage, problems = _pages(qtbot, window)
    assert opened.kind == "agentstack" and not opened.capability(api.Storage).offers_upgrade  # (space only)

    expected = _table_counts(opened)
    assert _counts_of(overview.tables_model) == expected
    assert "memory_fts_data" not in expected  # FTS5's shadow tables stay out of sight, as in the table list

    assert storage.tables_model.rowCount() == len(expected)
    storage.filter_box.setText("email")  # tables found by a column's name, as for Daycare's
    qtbot.waitUntil(lambda: storage.tables_model.rowCount() < len(expected), timeout=5000)
    assert "users" in [storage.tables_model.record(r).name for r in range(storage.tables_model.rowCount())]
    storage.filter_box.clear()
    storage.open_item("users")
    qtbot.waitUntil(lambda: storage.browser.model.rowCount() == 1, timeout=10000)
    assert "email" in storage.browser.model.columns and "password_hash" not in storage.browser.model.columns
    assert storage.migration_text.text() == "This store keeps no list of migrations."
    assert storage.migration_model.rowCount() == 0
    assert not storage.upgrade_button.isEnabled()
    assert storage.upgrade_reason.text() == "daycare-gui does not upgrade this kind of store."

    assert problems.model.rowCount() == len(opened.problems) > 0
    shown = problems.model.record(0)
    assert (shown.path, shown.message) == (opened.problems.as_list()[0].path, opened.problems.as_list()[0].message)

    headline, body = _menu_upgrade_says(qtbot, window)
    assert headline == "This store will not be upgraded"
    assert body.startswith("daycare-gui does not upgrade this kind of store.")
