"""A damaged Daycare store says what is wrong with it where the user looks first: the Overview."""

from __future__ import annotations

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
    qtbot.waitUntil(lambda: pane.summary is not None, timeout=10000)
    notes = pane.notes_label.text()
    assert f"{store / 'daycare.db'} is a folder, not a database file" in notes
    assert "PGlite" not in notes and "database yet" not in notes
    window.close_store()
    assert snapshot_tree(store) == before and (store / "daycare.db").is_dir()
