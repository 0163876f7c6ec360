"""Channels, Signals, Processes, Expose and System prompts on the shared list pane (generic.listing): keyed
rows filtered by the store (in SQL for SQLite), a channel's messages and members under it, sibling lists as
tabs, secrets masked — on the Daycare SQLite demo and a legacy store."""

import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from daycare_gui.ui.panes.generic.listing import ListingPane
from tests.ui.conftest import open_and_wait

FATAL = QAbstractItemModelTester.FailureReportingMode.Fatal


def _count(db_path, table):
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        return conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
    finally:
        conn.close()


def column(view, name):
    """The texts of one column, every row read (the keyed model fetches them on demand)."""
    model, index = view.model, list(view.spec.columns).index(name)
    return [model.index(r, index).data() for r in range(model.rowCount())]


def loaded(view, n=None):
    rows = view.model.rowCount()
    return (n is None or rows == n) and all(view.model.record(r) is not None for r in range(rows))


def show(qtbot, window, section) -> ListingPane:
    window.show_section(section)
    pane = window.panes[section]
    assert isinstance(pane, ListingPane)
    return pane


def test_channels_show_the_demo_channels_with_messages_and_members_below(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    pane = show(qtbot, window, "channels")
    channels = pane.views["channels"]
    messages, members = channels.details["channel_messages"], channels.details["channel_members"]
    testers = [QAbstractItemModelTester(v.model, FATAL) for v in (channels, messages, members)]
    qtbot.waitUntil(lambda: loaded(channels, 2), timeout=5000)
    assert sorted(column(channels, "name")) == ["family", "ops"]
    assert channels.totals.text() == "2 rows"
    # the first channel is selected: its messages and members arrive below it
    qtbot.waitUntil(lambda: messages.model.rowCount() > 0 and loaded(messages), timeout=5000)
    first = channels.current_row()
    assert window.detail.item.title == f"Channels: {first.values[0]}"
    expected = sqlite3.connect(f"file:{demo_store / 'daycare.db'}?immutable=1", uri=True).execute(
        "SELECT count(*) FROM channel_messages WHERE channel_id = ?", (first.raw["id"],)).fetchone()[0]
    assert messages.model.rowCount() == expected
    assert channels.detail_tabs.tabText(0) == f"Messages ({expected})"
    assert all(column(messages, "text"))
    qtbot.waitUntil(lambda: members.model.rowCount() > 0, timeout=5000)

    # another channel: its messages replace the first one's
    other = 1 if channels.table.currentIndex().row() == 0 else 0
    channels.table.selectRow(other)
    other_id = channels.current_row().raw["id"]
    qtbot.waitUntil(lambda: loaded(messages) and messages.model.rowCount() > 0 and
                    messages.model.record(0).raw["channel_id"] == other_id, timeout=5000)

    # the filter runs in the store (SQL)
    channels.filter_box.setText("family")
    qtbot.waitUntil(lambda: loaded(channels, 1), timeout=5000)
    assert column(channels, "name") == ["family"] and channels.totals.text() == "1 row (filtered)"
    channels.filter_box.clear()
    qtbot.waitUntil(lambda: channels.model.rowCount() == 2, timeout=5000)

    messages.table.selectRow(0)
    item = window.detail.item
    assert item.title.startswith("Messages: ") and item.raw["read from"] == "daycare.db#channel_messages"
    del testers


def test_channels_from_legacy_files_without_a_database(qtbot, window, fixture_copy):
    open_and_wait(qtbot, window, fixture_copy("daycare-808af509", with_db=False))
    pane = show(qtbot, window, "channels")
    channels = pane.views["channels"]
    messages, members = channels.details["channel_messages"], channels.details["channel_members"]
    qtbot.waitUntil(lambda: loaded(channels, 1), timeout=5000)
    qtbot.waitUntil(lambda: loaded(messages, 1) and loaded(members, 1), timeout=5000)
    assert column(messages, "text") == ["deploy done"]
    assert column(members, "username") == ["alex"]


def test_signals_are_three_tabs(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    pane = show(qtbot, window, "signals")
    testers = [QAbstractItemModelTester(v.model, FATAL) for v in pane.views.values()]
    counts = {cid: _count(demo_store / "daycare.db", t) for cid, t in
              (("signals", "signals_events"), ("subscriptions", "signals_subscriptions"),
               ("delayed", "signals_delayed"))}
    qtbot.waitUntil(lambda: all(pane.views[c].model.rowCount() == n for c, n in counts.items()), timeout=5000)
    assert [pane.tabs.tabText(i) for i in range(3)] == [
        f"Signal events ({counts['signals']})", f"Signal subscriptions ({counts['subscriptions']})",
        f"Delayed signals ({counts['delayed']})"]
    # only the visible tab drives the detail pane; switching tabs shows that tab's row
    qtbot.waitUntil(lambda: window.detail.item is not None, timeout=5000)
    assert window.detail.item.title.startswith("Signal events: ")
    pane.tabs.setCurrentIndex(2)
    assert window.detail.item.title.startswith("Delayed signals: ")
    delayed = pane.views["delayed"]
    delayed.filter_box.setText("reminder")
    qtbot.waitUntil(lambda: loaded(delayed) and delayed.model.rowCount() >= 1
                    and all("reminder" in t for t in column(delayed, "type")), timeout=5000)
    del testers


@pytest.mark.parametrize("section, table, name", [
    ("processes", "processes", "name"),
    ("expose", "expose_endpoints", "domain"),
    ("system_prompts", "system_prompts", "kind"),
])
def test_single_lists(qtbot, window, demo_store, section, table, name):
    open_and_wait(qtbot, window, demo_store)
    pane = show(qtbot, window, section)
    view = pane.current_view()
    tester = QAbstractItemModelTester(view.model, FATAL)
    n = _count(demo_store / "daycare.db", table)
    qtbot.waitUntil(lambda: loaded(view, n) and n > 0, timeout=5000)
    assert all(column(view, name))
    assert window.detail.item is not None and window.detail.item.raw is not None
    # Ctrl+F reaches the filter
    window.focus_filter()
    assert view.filter_box.hasFocus()
    view.filter_box.setText("zzz-no-such-value")
    qtbot.waitUntil(lambda: view.model.rowCount() == 0, timeout=5000)
    assert view.totals.text().startswith("0 rows")
    del tester


def test_process_env_and_endpoint_auth_never_reach_the_lists(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    processes = show(qtbot, window, "processes").current_view()
    qtbot.waitUntil(lambda: loaded(processes, 3), timeout=5000)
    expose = show(qtbot, window, "expose").current_view()
    qtbot.waitUntil(lambda: loaded(expose, 3), timeout=5000)
    texts = []
    for view in (processes, expose):
        for r in range(view.model.rowCount()):
            view.table.selectRow(r)
            texts += [v for _k, v in window.detail.item.fields] + [window.detail.raw.toPlainText()]
            for c in range(view.model.columnCount()):
                index = view.model.index(r, c)
                texts += [index.data() or "", index.data(Qt.ItemDataRole.ToolTipRole) or ""]
    blob = "\n".join(texts)
    assert "development" not in blob and "argon2" not in blob
    assert "••••••••" in blob
    processes.filter_box.setText("development")  # a masked value is never searched
    qtbot.waitUntil(lambda: processes.model.rowCount() == 0, timeout=5000)


def test_system_prompt_detail_renders_the_prompt(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    view = show(qtbot, window, "system_prompts").current_view()
    qtbot.waitUntil(lambda: loaded(view) and view.model.rowCount() > 0, timeout=5000)
    view.table.selectRow(0)
    assert window.detail.item.markdown == view.current_row().raw["prompt"]
    last = view.model.record(view.model.rowCount() - 1).key
    window.panes["system_prompts"].open_item(last)
    assert view.table.currentIndex().row() == view.model.rowCount() - 1


def test_a_long_list_reads_only_the_rows_shown(qtbot, window, demo_store, monkeypatch):
    """Keys first, then rows in chunks as the view asks: a list of any length costs its keys."""
    from daycare_gui.ui.panes.generic import listing

    monkeypatch.setattr(listing, "FIRST", 2)
    total = _count(demo_store / "daycare.db", "signals_events")
    assert total > 4
    open_and_wait(qtbot, window, demo_store)
    events = show(qtbot, window, "signals").views["signals"]
    tester = QAbstractItemModelTester(events.model, FATAL)  # noqa: F841
    qtbot.waitUntil(lambda: events.model.rowCount() == total, timeout=5000)
    qtbot.waitUntil(lambda: loaded(events, total), timeout=10000)  # the view asked for the rest it shows
    keys = [int(events.model.record(r).key) for r in range(total)]
    assert keys == sorted(keys) and len(set(keys)) == total  # rowid order, none twice, none missed


# -- today's Daycare (PGlite): the same pane over the same kind of lists --------------------------------------
@pytest.fixture(scope="module")
def pglite_demo_dir(tmp_path_factory):
    from daycare_gui.cli import main
    from tests.pg_helpers import use_test_pglite

    use_test_pglite()
    root = tmp_path_factory.mktemp("pglite-demo") / "store"
    assert main(["demo", str(root), "--generation", "pglite", "--now", "2026-11-18T00:00Z", "--quiet"]) == 0
    return root


def test_pglite_inbox_and_processes_on_the_shared_list_pane(qtbot, window, pglite_demo_dir, monkeypatch):
    from daycare_gui.stores.daycare.pg.demo import DEMO_PROCESS_ENV
    from daycare_gui.stores.daycare.pg.lists import PgListing
    from tests.pg_helpers import use_test_pglite

    use_test_pglite()
    monkeypatch.setattr(PgListing, "clock", staticmethod(lambda: 1_794_960_000_000))  # the demo's "now"
    window.open_path(str(pglite_demo_dir))
    qtbot.waitUntil(lambda: window.opened is not None and "inbox" in window._sections, timeout=120_000)
    inbox = show(qtbot, window, "inbox").views["inbox"]  # the id its SQLite stores use
    qtbot.waitUntil(lambda: loaded(inbox, 1), timeout=10000)
    assert inbox.model.record(0).flag == "stuck" and column(inbox, "Age") == ["1h"]
    assert inbox.totals.text() == "1 item, 1 stuck"
    qtbot.waitUntil(lambda: "stuck" in inbox.flags and "agent" in inbox.choices, timeout=10000)
    inbox.table.selectRow(0)
    inbox.table.activated.emit(inbox.table.currentIndex())  # Enter: the item's agent, on the shared page
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is window.panes.get("agents"), timeout=10000)
    window.show_section("inbox")
    inbox.filter_box.setText("no such words")
    qtbot.waitUntil(lambda: inbox.model.rowCount() == 0, timeout=10000)

    processes = show(qtbot, window, "processes").current_view()
    qtbot.waitUntil(lambda: loaded(processes, 1), timeout=10000)
    processes.table.selectRow(0)
    shown = processes.viewer.toPlainText()
    assert "sandbox.json" in shown and "process.log" in shown
    secrets = [v for v in DEMO_PROCESS_ENV.values() if isinstance(v, str) and len(v) > 4]
    assert not [v for v in secrets if v in shown or v in window.detail.raw.toPlainText()]
