"""A Linggen 1.7 home in the window: the mission runs list has the columns of its format and says what a
status means, a mission's settings are in words, a session's new fields are in its details, and the
activity log and memory backups have a list of their own."""

from __future__ import annotations

import pytest

from daycare_gui.stores.records import SessionRef
from daycare_gui.ui.panes.generic.collection import RowRole
from tests.stores.linggen.home17 import T17, home17
from tests.ui.conftest import open_and_wait


@pytest.fixture
def home(tmp_path):
    h = home17(tmp_path / "linggen")
    h.mission17("hourly", f"schedule: 0 * * * *\nenabled: true\npermission_tier: readonly\ncreated_at: {T17}\n")
    return h.root


def _collection(qtbot, window, path, section):
    open_and_wait(qtbot, window, path)
    qtbot.waitUntil(lambda: section in window._sections, timeout=10000)
    window.show_section(section)
    pane = window.panes[section]
    qtbot.waitUntil(lambda: pane.loaded > 0, timeout=5000)
    return pane


def _items(pane) -> dict[str, object]:
    """The listed rows by their key."""
    return {pane.tree.topLevelItem(i).data(0, RowRole).key: pane.tree.topLevelItem(i)
            for i in range(pane.tree.topLevelItemCount())}


def _select(qtbot, pane, item) -> str:
    pane.tree.setCurrentItem(item)
    qtbot.waitUntil(lambda: pane.viewer.toPlainText() != "", timeout=5000)
    return pane.viewer.toPlainText()


def test_mission_runs_have_the_columns_of_linggen_17_and_say_what_a_status_means(qtbot, window, home):
    pane = _collection(qtbot, window, home, "collection:mission_runs")
    header = [pane.tree.headerItem().text(c) for c in range(pane.tree.columnCount())]
    assert header == ["Mission", "Run", "Started", "Status", "Skipped", "Session"]  # no empty "Exit code"
    status = header.index("Status")
    by_status = {item.text(status): item for item in _items(pane).values()}
    assert by_status["running"].toolTip(0) == "stale: will be marked interrupted when Linggen next starts"
    shown = _select(qtbot, pane, by_status["interrupted"])
    assert "Status: interrupted — Linggen stopped" in shown
    assert "marked the run interrupted when it next started" in shown


def test_a_missions_settings_are_in_words_and_a_legacy_one_says_what_to_do(qtbot, window, home):
    pane = _collection(qtbot, window, home, "collection:missions")
    items = _items(pane)
    shown = _select(qtbot, pane, items["flat/daily-review"])
    assert "Agent: reviewer" in shown and "may edit /work/shop" in shown and "Start with the open pull requests" in shown
    assert "more than 24 hours old" in shown
    legacy = items["flat/hourly"]
    assert "no permission grants" in legacy.toolTip(0) and "replace it with a permission block" in legacy.toolTip(0)


def test_a_sessions_details_show_its_agent_compaction_and_title_lock(qtbot, window, home):
    open_and_wait(qtbot, window, home)
    window.show_section("conversations")
    pane = window.pane("conversations")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 0, timeout=10000)
    pane.open_item(SessionRef("per-project:-work-shop", "sess-1784000000-aaaa0001"))
    qtbot.waitUntil(lambda: window.detail.item is not None
                    and ("agent_id", "reviewer") in window.detail.item.fields, timeout=10000)
    fields = dict(window.detail.item.fields)
    assert fields["compact_focus"] == "keep the TODO list" and fields["title_locked"] == "yes: the title stays"
    assert fields["compact_threshold"].startswith("0.8 (Linggen compacts the history at 80%")


def test_the_activity_log_and_memory_backups_are_listed(qtbot, window, home):
    pane = _collection(qtbot, window, home, "collection:user_files")
    assert sorted(_items(pane)) == ["activity/2026-07-14.jsonl", "activity/conditions.json", "activity/trend.json",
                                    "memory/backups/store-2026-07-14.ndjson"]
    shown = _select(qtbot, pane, _items(pane)["activity/2026-07-14.jsonl"])
    assert "Blue in Green" in shown
