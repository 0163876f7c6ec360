"""Overview, Storage, Problems and Settings panes on the demo store and the real fixtures."""

import json
import sqlite3

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QLineEdit, QTabWidget, QTreeWidget

from daycare_gui.ui.models.roles import RecordRole
from tests.ui.conftest import open_and_wait


def _sqlite_counts(db_path):
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        conn.close()


def _model_texts(model, parent=QModelIndex()):
    """Every display/tooltip text and record of a model, children included."""
    out = []
    for r in range(model.rowCount(parent)):
        for c in range(model.columnCount(parent)):
            index = model.index(r, c, parent)
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, RecordRole):
                value = index.data(role)
                if value is not None:
                    out.append(repr(value))
            if c == 0 and model.rowCount(index) > 0:
                out += _model_texts(model, index)
    for c in range(model.columnCount(parent)):
        out.append(str(model.headerData(c, Qt.Orientation.Horizontal)))
    return out


def _widget_texts(root):
    """Every text a user could see or copy from a widget tree: labels, edits, buttons, trees, table models."""
    from PySide6.QtWidgets import QAbstractItemView, QPlainTextEdit, QTextEdit

    out = [root.toolTip()]
    for w in [root, *root.findChildren(object)]:
        if isinstance(w, (QLabel, QLineEdit, QAbstractButton)):
            out += [w.text(), w.toolTip()]
        elif isinstance(w, QGroupBox):
            out.append(w.title())
        elif isinstance(w, QPlainTextEdit):
            out.append(w.toPlainText())
        elif isinstance(w, QTextEdit):
            out += [w.toPlainText(), w.toHtml()]
        elif isinstance(w, QTabWidget):
            out += [w.tabText(i) for i in range(w.count())]
        if isinstance(w, QTreeWidget):
            stack = [w.topLevelItem(i) for i in range(w.topLevelItemCount())]
            while stack:
                item = stack.pop()
                out += [item.text(0), item.text(1), item.toolTip(1), repr(item.data(0, Qt.ItemDataRole.UserRole))]
                stack += [item.child(i) for i in range(item.childCount())]
        elif isinstance(w, QAbstractItemView) and w.model() is not None:
            out += _model_texts(w.model())
    return "\n".join(t for t in out if t)


def _detail_texts(qtbot, detail):
    """What a user can read in the detail pane for its current item, opening each tab in turn."""
    qtbot.waitUntil(lambda: detail.shown_item is detail.item, timeout=5000)
    texts = []
    for tab in range(detail.tabs.count()):
        if detail.tabs.isTabEnabled(tab):
            detail.tabs.setCurrentIndex(tab)
            texts.append(_widget_texts(detail))
    detail.tabs.setCurrentIndex(0)
    return "\n".join(texts)


# -- Overview ------------------------------------------------------------------------------------------------
# The shared Overview (generic/overview.py) on Daycare's SQLite and legacy generations; the PGlite store and
# another kind are in test_shared_storage_pages.py.


def _overview(qtbot, window, path):
    open_and_wait(qtbot, window, path)
    window.show_section("overview")
    pane = window.panes["overview"]
    qtbot.waitUntil(lambda: pane.facts is not None, timeout=10000)
    return pane


def _counts_of(model):
    return {model.index(r, 0).data(): model.index(r, 1).data() for r in range(model.rowCount())}


def test_overview_on_the_demo_store(qtbot, window, demo_store, model_tester):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("overview")
    pane = window.panes["overview"]
    model_tester(pane.tables_model, pane.other_model)  # through the facts arriving
    qtbot.waitUntil(lambda: pane.facts is not None, timeout=10000)
    text = pane.shown_text()
    assert "Layout\nsqlite" in text and "SQLite database (daycare.db)" in text
    assert "not running (no pid file and no socket)" in text
    assert "Opened\nimmutable" in text
    assert "Migrations\nup to date (808af509)" in text
    assert "legacy agent folder" in text
    assert "imports these files" not in text  # a plain SQLite store needs no explaining
    assert "found while opening" in pane.problems_label.text()
    expected = _sqlite_counts(demo_store / "daycare.db")
    assert _counts_of(pane.tables_model) == {t: f"{n:,}" for t, n in expected.items()}
    assert pane.other_model.rowCount() > 10  # the files beside the database, counted
    # (the navigation's count follows when a worker falls idle: wait for it rather than race it)
    qtbot.waitUntil(lambda: window.nav.text_of("problems").endswith(f"({pane.facts['problems']})"), timeout=5000)

    # the charts carry the numbers: records per day, and tokens per day with each model's total in words
    points = pane.activity_chart.points
    assert len(points) > 0 and sum(n for _day, n in points) == expected["session_history"]
    assert pane.tokens_chart.isVisible() and sum(n for _d, n in pane.tokens_chart.points) > 0
    assert "Tokens by model, " in text and "claude-sonnet-4-5" in text

    # the problems button and Enter on a table row navigate
    pane.problems_button.click()
    assert window.pane_stack.currentWidget() is window.panes["problems"]
    window.show_section("overview")
    pane.tables_view.setFocus()
    pane.tables_view.selectRow(1)
    qtbot.keyClick(pane.tables_view, Qt.Key.Key_Return)
    storage = window.panes["storage"]
    assert window.pane_stack.currentWidget() is storage
    qtbot.waitUntil(lambda: storage.browser.caption.text().startswith("<b>agents</b>: "), timeout=5000)


@pytest.mark.parametrize("name, label", [
    ("daycare-808af509", "up to date (808af509)"),
    ("daycare-newer", "b8a8d807 (newer than this application's 808af509 pipeline)"),
    ("daycare-stuck", "b8a8d807 (newer than this application's 808af509 pipeline)"),
])
def test_overview_on_the_fixtures(qtbot, window, fixture_copy, name, label):
    pane = _overview(qtbot, window, fixture_copy(name))
    text = pane.shown_text()
    assert f"Migrations\n{label}" in text
    assert "Layout\nsqlite" in text and "not running" in text
    assert not pane.tokens_chart.isVisible()  # their messages record no usage per day
    if name == "daycare-newer":  # no agents, no history: a sentence instead of an empty chart
        assert pane.activity_chart.is_empty() and "Tokens by model" not in text
    else:  # the agents' own totals still say what was used: gpt-5's 100 in and 40 out of agentusr1
        assert "Tokens by model, all time\nModel\nTokens\nopenai / gpt-5\n140" in text


def test_overview_of_a_legacy_only_store_explains_it(qtbot, window, fixture_copy):
    pane = _overview(qtbot, window, fixture_copy("daycare-808af509", with_db=False))
    text = pane.shown_text()
    assert "Legacy files only" in text
    assert not pane.tables_box.isVisible() and pane.tables_box.title() == "Database tables — none"
    assert "imports these files" in text
    assert "1 error," in pane.problems_label.text()


# -- Storage -------------------------------------------------------------------------------------------------
# The shared Storage page (generic/storage.py) over Tables and Storage.


def _storage(qtbot, window, path):
    open_and_wait(qtbot, window, path)
    window.show_section("storage")
    pane = window.panes["storage"]
    qtbot.waitUntil(lambda: pane.tables_model.rowCount() > 0 and pane.plan is not None, timeout=15000)
    return pane


def test_storage_lists_the_808af509_tables_and_browses_rows(qtbot, window, fixture_copy, model_tester):
    path = fixture_copy("daycare-808af509")
    open_and_wait(qtbot, window, path)
    window.show_section("storage")
    pane = window.panes["storage"]
    model_tester(pane.tables_model, pane.migration_model, pane.browser.model)  # through loading and filtering
    qtbot.waitUntil(lambda: pane.tables_model.rowCount() > 0, timeout=5000)
    expected = _sqlite_counts(path / "daycare.db")
    assert pane.tables_model.rowCount() == 20
    shown = {pane.tables_model.record(r).name: pane.tables_model.record(r).count
             for r in range(pane.tables_model.rowCount())}
    assert shown == expected
    assert "20 tables" in pane.summary.text()
    assert [pane.migration_model.index(r, 1).data() for r in range(pane.migration_model.rowCount())] == ["applied"] * 26

    pane.open_item("agents")
    qtbot.waitUntil(lambda: pane.browser.model.rowCount() == 2, timeout=5000)
    assert pane.browser.model.columns[:3] == ("id", "type", "descriptor")
    assert "2 of 2 rows" in pane.browser.caption.text()
    pane.browser.view.setFocus()
    pane.browser.select_row(0)
    item = window.detail.item
    assert item is not None and item.title.startswith("agents row")
    assert isinstance(item.raw["descriptor"], dict)  # JSON column parsed for the raw view
    assert not pane.more_button.isEnabled()

    pane.filter_box.setText("task_uid")
    qtbot.waitUntil(lambda: pane.tables_model.rowCount() == 1, timeout=5000)
    assert pane.tables_model.record(0).name == "tasks_cron"


def test_storage_pages_rows_and_masks_process_env(qtbot, window, demo_store, monkeypatch, model_tester):
    from daycare_gui.ui.panes.generic import storage as storage_module

    monkeypatch.setattr(storage_module, "PAGE", 50)
    open_and_wait(qtbot, window, demo_store)
    window.show_section("storage")
    pane = window.panes["storage"]
    qtbot.waitUntil(lambda: pane.tables_model.rowCount() > 0, timeout=5000)
    model_tester(pane.browser.model)  # through every page appended below and the switch to another table
    total = _sqlite_counts(demo_store / "daycare.db")["session_history"]
    pane.open_item("session_history")
    qtbot.waitUntil(lambda: pane.browser.model.rowCount() == 50, timeout=5000)
    assert pane.more_button.isEnabled()
    while pane.more_button.isEnabled():
        before = pane.browser.model.rowCount()
        pane.more_button.click()
        # a page arrived, or the last one was empty: everything is loaded and no more is offered
        qtbot.waitUntil(lambda b=before: pane.browser.model.rowCount() > b
                        or (pane.browser.model.rowCount() == total and not pane.more_button.isEnabled()),
                        timeout=5000)
    assert pane.browser.model.rowCount() == total
    keys = [int(pane.browser.model.record(r).key) for r in range(total)]
    assert keys == sorted(set(keys))  # by rowid, each row once

    pane.open_item("processes")
    qtbot.waitUntil(lambda: "env" in pane.browser.model.columns, timeout=5000)
    qtbot.waitUntil(lambda: pane.browser.model.rowCount() == 3, timeout=5000)
    texts = _widget_texts(pane)
    assert "development" not in texts and "••••••••" in texts


def test_storage_names_the_migration_the_stuck_store_stopped_before(qtbot, window, fixture_copy):
    pane = _storage(qtbot, window, fixture_copy("daycare-stuck"))
    pane.open_item("migrations")
    assert pane.tabs.currentIndex() == 1
    assert "stopped before 20260227_require_cron_task_id" in pane.migration_text.text()
    rows = [(pane.migration_model.index(r, 1).data(), pane.migration_model.index(r, 2).data(),
             pane.migration_model.index(r, 4).data()) for r in range(pane.migration_model.rowCount())]
    assert rows[26][:2] == ("unknown", "20260224_add_tasks_table")
    assert rows[27][:2] == ("later pending", "20260227_require_cron_task_id") and "stopped before" in rows[27][2]
    assert pane.tabs.tabText(1) == "Migrations (27 applied, 6 later pending)"
    pane.migrations_view.selectRow(27)
    assert window.detail.item.title == "Migration 20260227_require_cron_task_id"
    # refused, and why: the store's own sentence beside the disabled button
    assert not pane.upgrade_button.isEnabled()
    assert "trigger dailycleanup has no task_id" in pane.upgrade_reason.text()


def test_storage_of_a_legacy_folder_has_no_tables_and_offers_the_upgrade(qtbot, window, fixture_copy):
    """Before Daycare used a database: nothing to browse, and Upgrade… creates daycare.db from the files."""
    folder = fixture_copy("daycare-808af509", with_db=False)
    open_and_wait(qtbot, window, folder)
    window.show_section("storage")
    pane = window.panes["storage"]
    qtbot.waitUntil(lambda: pane.plan is not None and pane.tabs.tabText(0) == "Tables (none)", timeout=30000)
    assert "no database tables" in pane.browser.caption.text()
    assert pane.upgrade_button.isEnabled() and pane.upgrade_reason.text().startswith("26 migrations to run")
    assert not (folder / "daycare.db").exists()  # the dry run wrote nothing


def test_storage_upgrade_is_disabled_on_an_up_to_date_store_and_says_so(qtbot, window, demo_store):
    pane = _storage(qtbot, window, demo_store)
    assert not pane.upgrade_button.isEnabled()
    assert pane.upgrade_reason.text().startswith("Up to date: ")
    assert "records every migration of Daycare 808af509" in pane.upgrade_reason.text()


def test_storage_upgrade_button_opens_the_dialog_and_the_window_reloads(qtbot, window, fixture_copy):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from daycare_gui.ui.dialogs.upgrade import UpgradeDialog
    from tests.ui.test_upgrade_dialog import partial_store, run_and_wait, wait_planned

    pane = _storage(qtbot, window, partial_store(fixture_copy))
    assert pane.upgrade_button.isEnabled() and pane.upgrade_reason.text().startswith("16 migrations to run")
    assert pane.tabs.tabText(1) == "Migrations (10 applied, 16 pending)"
    old_store, seen = window.store, {}

    def drive():
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, UpgradeDialog)
        wait_planned(qtbot, dialog)
        seen["plan"] = dialog.plan_page.headline.text()
        run_and_wait(qtbot, dialog)
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, drive)
    pane.upgrade_button.click()  # modal: returns when drive() pressed Close
    assert seen["plan"] == "16 pending migrations"
    qtbot.waitUntil(lambda: window.store is not old_store and window.store is not None, timeout=10000)
    assert window.opened.core.migrations.pending == ()


# -- Problems ------------------------------------------------------------------------------------------------
# The shared Problems page (generic/problems.py) reads opened.problems after the store's deep scan.


def test_problems_pane_lists_the_bad_history_line(qtbot, window, fixture_copy, model_tester):
    open_and_wait(qtbot, window, fixture_copy("daycare-808af509"))
    window.show_section("problems")
    pane = window.panes["problems"]
    model_tester(pane.model, pane.proxy)  # through loading and filtering
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0, timeout=5000)
    rows = [(pane.proxy.index(r, 0).data(), pane.proxy.index(r, 1).data(), pane.proxy.index(r, 2).data(),
             pane.proxy.index(r, 3).data()) for r in range(pane.proxy.rowCount())]
    hit = [r for r in rows if r[1].endswith("agents/agentusr1/history.jsonl") and r[2] == "6"]
    assert len(hit) == 1 and hit[0][0] == "error" and "not JSON" in hit[0][3]
    n = pane.model.rowCount()
    assert window.nav.text_of("problems").endswith(f"({n})")
    assert pane.summary.text().startswith(f"{n} problem{'' if n == 1 else 's'}")

    pane.filter_box.setText("history.jsonl")
    qtbot.waitUntil(lambda: pane.proxy.rowCount() == 1, timeout=5000)
    assert pane.summary.text().startswith(f"1 of {n}")
    pane.table.setFocus()
    pane.table.selectRow(0)
    qtbot.keyClick(pane.table, Qt.Key.Key_Return)
    assert QGuiApplication.clipboard().text().endswith("agents/agentusr1/history.jsonl:6")
    assert window.detail.item.title.startswith("Problem in ")
    pane.filter_box.clear()
    qtbot.waitUntil(lambda: pane.proxy.rowCount() == n, timeout=5000)


# -- Settings and auth: their tests are in test_document_shelves.py (the shared documents page) ----------------


def _auth_secrets(path):
    data = json.loads((path / "auth.json").read_text())
    out = []

    def walk(value, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key != "type":
            out.append(value)

    walk(data)
    return out


def test_overview_says_loading_until_the_answer_says_otherwise(qtbot, window, demo_store, monkeypatch):
    """A large store takes a while to count: until then the charts say so, never "no history"."""
    import threading

    from daycare_gui.stores.daycare.sqlite.charts import DaycareCharts  # asked by the pane's job when it runs

    release = threading.Event()
    real = DaycareCharts.activity_per_day

    def slow_activity(self):
        release.wait(10)
        return real(self)

    monkeypatch.setattr(DaycareCharts, "activity_per_day", slow_activity)
    try:
        open_and_wait(qtbot, window, demo_store)
        window.show_section("overview")
        pane = window.panes["overview"]
        for chart in (pane.tokens_chart, pane.activity_chart):
            assert chart.message == "Loading…"
    finally:
        release.set()
    qtbot.waitUntil(lambda: pane.facts is not None, timeout=10000)
    assert pane.activity_chart.message == "" and not pane.activity_chart.is_empty()


def test_overview_names_a_count_that_failed_instead_of_saying_no_history(qtbot, window, demo_store, monkeypatch):
    from daycare_gui.stores.common.sqlite_ro import DatabaseError
    from daycare_gui.stores.daycare.sqlite.charts import DaycareCharts

    def locked(self):
        raise DatabaseError("database is locked")

    monkeypatch.setattr(DaycareCharts, "activity_per_day", locked)
    pane = _overview(qtbot, window, demo_store)
    assert pane.activity_chart.message == "Could not count activity: database is locked"
    assert pane.tokens_chart.message == "" and not pane.tokens_chart.is_empty()  # the other chart is drawn
