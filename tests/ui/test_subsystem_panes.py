"""Channels, Signals, Processes, Expose and System prompts: read-only tables with filter and detail."""

import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from tests.ui.conftest import open_and_wait

FATAL = QAbstractItemModelTester.FailureReportingMode.Fatal


def _count(db_path, table):
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        return conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    finally:
        conn.close()


def _column(view, name):
    return [view.model.index(r, view.model.columns.index(name)).data() for r in range(view.model.rowCount())]


def test_channels_pane_shows_the_demo_channels_and_their_messages(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("channels")
    pane = window.panes["channels"]
    channels = pane.tables["channels"]
    testers = [QAbstractItemModelTester(m, FATAL) for m in (channels.model, pane.messages.model, pane.members.model)]
    qtbot.waitUntil(lambda: channels.model.rowCount() == 2, timeout=5000)
    assert sorted(_column(channels, "name")) == ["family", "ops"]
    assert channels.caption.text().startswith("2 channels")
    # the first channel is selected: its messages and members arrive
    qtbot.waitUntil(lambda: pane.messages.model.rowCount() > 0, timeout=5000)
    first = channels.current_row()
    assert window.detail.item.title == f"Channel: {first.values['name']}"
    expected = sqlite3.connect(f"file:{demo_store / 'daycare.db'}?immutable=1", uri=True).execute(
        "SELECT count(*) FROM channel_messages WHERE channel_id = ?", (first.values["id"],)).fetchone()[0]
    assert pane.messages.model.rowCount() == expected
    assert pane.contents_tabs.tabText(0) == f"Messages ({expected})"
    assert all(t for t in _column(pane.messages, "text"))
    assert pane.members.model.rowCount() > 0

    # keyboard: move to the other channel, its messages replace the first one's
    channels.view.setFocus()
    other = 1 if channels.view.currentIndex().row() == 0 else 0
    channels.select_row(other)
    other_id = channels.current_row().values["id"]
    qtbot.waitUntil(lambda: pane.messages.model.rowCount() > 0 and
                    pane.messages.model.record(0).values["channel_id"] == other_id, timeout=5000)

    # the filter runs in SQL
    pane.filter_box.setText("family")
    qtbot.waitUntil(lambda: channels.model.rowCount() == 1, timeout=5000)
    assert _column(channels, "name") == ["family"]
    assert pane.summary.text() == "1 channel"
    pane.filter_box.clear()
    qtbot.waitUntil(lambda: channels.model.rowCount() == 2, timeout=5000)

    pane.messages.select_row(0)
    item = window.detail.item
    assert item.title.startswith("Message: ") and dict(item.fields)["Source"] == "daycare.db#channel_messages"
    del testers


def test_channels_fall_back_to_legacy_files_without_a_database(qtbot, window, fixture_copy):
    open_and_wait(qtbot, window, fixture_copy("daycare-808af509", with_db=False))
    window.show_section("channels")
    pane = window.panes["channels"]
    channels = pane.tables["channels"]
    qtbot.waitUntil(lambda: channels.model.rowCount() == 1, timeout=5000)
    assert "legacy files" in channels.caption.text()
    qtbot.waitUntil(lambda: pane.messages.model.rowCount() == 1, timeout=5000)
    assert _column(pane.messages, "text") == ["deploy done"]
    assert _column(pane.members, "username") == ["alex"]


def test_signals_pane_has_three_tabs(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("signals")
    pane = window.panes["signals"]
    testers = [QAbstractItemModelTester(v.model, FATAL) for v in pane.tables.values()]
    counts = {t: _count(demo_store / "daycare.db", t)
              for t in ("signals_events", "signals_subscriptions", "signals_delayed")}
    qtbot.waitUntil(lambda: all(pane.tables[t].model.rowCount() == n for t, n in counts.items()), timeout=5000)
    assert [pane.tabs.tabText(i) for i in range(3)] == [
        f"Events ({counts['signals_events']})", f"Subscriptions ({counts['signals_subscriptions']})",
        f"Delayed ({counts['signals_delayed']})"]
    # only the visible tab drives the detail pane; switching tabs shows that tab's row
    assert window.detail.item.title.startswith("Events: ")
    pane.tabs.setCurrentIndex(2)
    assert window.detail.item.title.startswith("Delayed: ")
    pane.filter_box.setText("reminder")
    # each tab is answered on its own: wait for the last one asked (delayed), not just the first to arrive
    qtbot.waitUntil(lambda: pane.tables["signals_subscriptions"].model.rowCount() == 0
                    and all("reminder" in t for t in _column(pane.tables["signals_delayed"], "type")), timeout=5000)
    assert pane.tables["signals_delayed"].model.rowCount() >= 1
    del testers


@pytest.mark.parametrize("section, table, column", [
    ("processes", "processes", "name"),
    ("expose", "expose_endpoints", "domain"),
    ("system_prompts", "system_prompts", "kind"),
])
def test_single_table_panes(qtbot, window, demo_store, section, table, column):
    open_and_wait(qtbot, window, demo_store)
    window.show_section(section)
    pane = window.panes[section]
    view = pane.tables[table]
    tester = QAbstractItemModelTester(view.model, FATAL)
    n = _count(demo_store / "daycare.db", table)
    qtbot.waitUntil(lambda: view.model.rowCount() == n > 0, timeout=5000)
    assert all(_column(view, column))
    assert window.detail.item is not None and window.detail.item.raw is not None
    # Ctrl+F reaches the filter; Enter in it moves to the table
    window.focus_filter()
    assert pane.filter_box.hasFocus()
    pane.filter_box.setText("zzz-no-such-value")
    qtbot.waitUntil(lambda: view.model.rowCount() == 0, timeout=5000)
    assert pane.summary.text().startswith("0 ")
    del tester


def test_process_env_and_endpoint_auth_never_reach_the_panes(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("processes")
    processes = window.panes["processes"]
    qtbot.waitUntil(lambda: processes.tables["processes"].model.rowCount() == 3, timeout=5000)
    window.show_section("expose")
    expose = window.panes["expose"]
    qtbot.waitUntil(lambda: expose.tables["expose_endpoints"].model.rowCount() == 3, timeout=5000)
    texts = []
    for view in (processes.tables["processes"], expose.tables["expose_endpoints"]):
        for r in range(view.model.rowCount()):
            view.select_row(r)
            texts += [v for _k, v in window.detail.item.fields] + [window.detail.raw.toPlainText()]
            for c in range(view.model.columnCount()):
                index = view.model.index(r, c)
                texts += [index.data() or "", index.data(Qt.ItemDataRole.ToolTipRole) or ""]
    blob = "\n".join(texts)
    assert "development" not in blob and "argon2" not in blob
    assert "••••••••" in blob


def test_system_prompt_detail_renders_the_prompt(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("system_prompts")
    pane = window.panes["system_prompts"]
    view = pane.tables["system_prompts"]
    qtbot.waitUntil(lambda: view.model.rowCount() > 0, timeout=5000)
    view.select_row(0)
    item = window.detail.item
    assert item.markdown == view.current_row().values["prompt"]
    pane.open_item(view.model.record(view.model.rowCount() - 1).key)
    assert view.view.currentIndex().row() == view.model.rowCount() - 1


def test_signal_events_page_by_key_as_the_table_scrolls(qtbot, window, demo_store, monkeypatch):
    from daycare_gui.ui.panes import subsystems

    monkeypatch.setattr(subsystems, "PAGE", 2)
    total = _count(demo_store / "daycare.db", "signals_events")
    assert total > 4
    open_and_wait(qtbot, window, demo_store)
    window.show_section("signals")
    pane = window.panes["signals"]
    events = pane.tables["signals_events"]
    tester = QAbstractItemModelTester(events.model, FATAL)  # noqa: F841
    qtbot.waitUntil(lambda: events.model.rowCount() >= 2, timeout=5000)
    assert f"{total:,} events" in events.caption.text()
    # the table asks for the next page whenever its end is in view, until every event is there
    qtbot.waitUntil(lambda: events.model.rowCount() == total and not events.model.has_more(), timeout=10000)
    keys = [events.model.record(r).key for r in range(total)]
    assert keys == sorted(keys) and len(set(keys)) == total  # rowid order, none twice, none missed
    assert "scroll down" not in events.caption.text()
    assert pane.tabs.tabText(0) == f"Events ({total})"
