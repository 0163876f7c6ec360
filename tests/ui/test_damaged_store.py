"""A damaged Daycare store says what is wrong with it where the user looks first: the Overview."""

from __future__ import annotations

import shutil
import sqlite3

from PySide6.QtWidgets import QLabel

from tests.conftest import snapshot_tree
from tests.ui.conftest import open_and_wait


def test_a_daycare_db_folder_is_named_as_damage_on_the_overview(qtbot, window, tmp_path):
    """QA: a folder in daycare.db's place was called a PGlite store (upgrade) or not mentioned at all (window)."""
    store = tmp_path / "daycare"
    (store / "daycare.db").mkdir(parents=True)
    (store / "settings.json").write_text("{}")
    before = snapshot_tree(store)
    open_and_wait(qtbot, window, store)
    window.show_section("overview")
    pane = window.panes["overview"]
    qtbot.waitUntil(lambda: pane.facts is not None, timeout=10000)
    notes = pane.shown_text()
    assert f"{store / 'daycare.db'} is a folder, not a database file" in notes
    assert "PGlite" not in notes and "database yet" not in notes
    window.close_store()
    assert snapshot_tree(store) == before and (store / "daycare.db").is_dir()


def _damage_table(db_path, table: str) -> None:
    """Overwrite ``table``'s root page: the database still opens, reading that table fails as malformed."""
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?",
                            (table,)).fetchone()[0]
    finally:
        conn.close()
    with open(db_path, "r+b") as fh:
        fh.seek((root - 1) * page)
        fh.write(b"\xff" * page)


def test_a_token_usage_failure_is_said_once_in_its_chart(qtbot, window, demo_store, tmp_path, monkeypatch):
    """QA: the failure was drawn in the token chart and listed again under the count tables."""
    from daycare_gui.stores.daycare.sqlite import charts

    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    db = store / "daycare.db"
    _damage_table(db, "agents")  # each model's total is summed from agents.stats
    monkeypatch.setattr(charts.DaycareCharts, "tokens_per_day", lambda self: [])  # (so the totals are asked)
    open_and_wait(qtbot, window, store)
    window.show_section("overview")
    pane = window.panes["overview"]
    qtbot.waitUntil(lambda: pane.facts is not None, timeout=10000)
    cause = f"{db} is damaged or not a SQLite database: database disk image is malformed"
    assert pane.tokens_chart.message == f"Could not count token usage: {cause}"
    shown = [pane.tokens_chart.message, pane.activity_chart.message, pane.shown_text()]
    shown += [label.text() for label in pane.findChildren(QLabel) if label.isVisibleTo(pane)]
    assert sum(text.count(cause) for text in shown) == 1, shown
    assert not pane.activity_chart.is_empty()  # the other chart is still drawn
