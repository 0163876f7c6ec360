"""The Costs page (#37) on Daycare's SQLite demo and its PGlite demo: totals priced from the bundled table, each
total's records below it summing to it, a double-click opening the conversation at the record, the table's
version shown, the store's own cost beside; a store without usage has no Costs section."""

from __future__ import annotations

import shutil
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.costs import compute, money
from daycare_gui.stores.common.run_costs import compute_costs
from tests.ui.conftest import open_and_wait


def _texts(proxy, column: int) -> list[str]:
    return [proxy.index(r, column).data() for r in range(proxy.rowCount())]


def _shown_totals(qtbot, window):
    window.show_section("costs")
    pane = window.panes["costs"]
    qtbot.waitUntil(lambda: pane.totals.records.proxy.rowCount() > 0, timeout=60000)
    return pane


def test_sqlite_demo_totals_drill_down_and_open_the_record(qtbot, window, demo_store):
    with registry.open_store(demo_store) as opened:
        expected = compute(opened.capability(api.Usage), "model")
    open_and_wait(qtbot, window, demo_store)
    pane = _shown_totals(qtbot, window)
    assert "genai-prices" in pane.prices.text() and expected.table.version in pane.prices.text()
    assert "agents.stats" in pane.prices.text()  # which of the two counts is used is said
    assert not pane.stored.isVisible()  # this store keeps no cost of its own
    proxy = pane.totals.records.proxy
    shown = dict(zip(_texts(proxy, 0), _texts(proxy, 3)))
    assert shown == {t.label: money(t.usd) for t in expected.totals}
    # the dearest first; its records below sum to it exactly
    first = pane.totals.records.record_at(proxy.index(0, 0))
    assert first.usd == max(t.usd for t in expected.totals)
    pane.totals.table.selectRow(0)
    qtbot.waitUntil(lambda: pane.records.records.proxy.rowCount() == first.records, timeout=20000)
    rows = pane.records.records.visible_records()
    assert sum((r.price.usd for r in rows), Decimal(0)) == first.usd
    # its details read as money and a share, not as the raw figures Raw JSON keeps
    fields = dict(window.detail.item.fields)
    assert fields["Cost"] == money(first.usd) and fields["Saved by the cache"].startswith("$")
    assert fields["Cache-read share"].endswith("%") or fields["Cache-read share"] == ""
    # a double-click opens Daycare's conversation page at that record
    index = pane.records.records.proxy.index(0, 0)
    record = pane.records.records.record_at(index)
    pane.records.table.activated.emit(index)
    history = window.panes["history"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is history, timeout=10000)
    target = history._target  # the session at that record
    assert target.ref.session_id == record.record.ref.session_id and target.message_id == str(record.record.message_id)
    # another grouping: the same overall cost, by day
    window.show_section("costs")
    pane.group.setCurrentIndex([pane.group.itemData(i) for i in range(pane.group.count())].index("day"))
    qtbot.waitUntil(lambda: pane.report is not None and pane.report.by == "day", timeout=20000)
    assert pane.report.overall.usd == expected.overall.usd
    # by task: each automation's runs' records (the Automations page's runs), the rest "(no task)"
    with registry.open_store(demo_store) as opened:
        by_task = compute_costs(opened.capability(api.Usage), opened.capability(api.Automations), "task")
    pane.group.setCurrentIndex([pane.group.itemData(i) for i in range(pane.group.count())].index("task"))
    qtbot.waitUntil(lambda: pane.report is not None and pane.report.by == "task", timeout=20000)
    shown = dict(zip(_texts(pane.totals.records.proxy, 0), _texts(pane.totals.records.proxy, 3)))
    assert shown == {t.label: money(t.usd) for t in by_task.totals} and "Daily digest" in shown


def test_a_store_without_usage_has_no_costs_section(qtbot, window, tmp_path):
    from daycare_gui.stores.linggen.demo import write_demo

    write_demo(tmp_path / "lg")
    open_and_wait(qtbot, window, tmp_path / "lg")
    assert window.pane("costs") is None


@pytest.fixture
def pglite_demo(tmp_path, monkeypatch):
    from daycare_gui.cli import main
    from tests.pg_helpers import use_test_pglite

    tmp = Path(tempfile.mkdtemp(prefix="dg-costs-"))  # short: the sidecar's socket lives there
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(use_test_pglite({})))
    root = tmp_path / "store"
    assert main(["demo", str(root), "--generation", "pglite", "--now", "2026-11-18T00:00Z", "--quiet"]) == 0
    yield root
    shutil.rmtree(tmp, ignore_errors=True)


def test_pglite_demo_costs_with_the_stores_own_cost_beside(qtbot, window, pglite_demo):
    with registry.open_store(pglite_demo) as opened:
        expected = compute(opened.capability(api.Usage), "model")
    open_and_wait(qtbot, window, pglite_demo, timeout=120000)
    pane = _shown_totals(qtbot, window)
    proxy = pane.totals.records.proxy
    assert dict(zip(_texts(proxy, 0), _texts(proxy, 3))) == {t.label: money(t.usd) for t in expected.totals}
    assert "The store's own cost" in pane.notes.text() and "not added to the total" in pane.notes.text()
    assert "token_stats_hourly" in pane.notes.text()
    # each day and model of the store's own cost beside the recomputed one, with why they differ
    stored = pane.stored.records.proxy
    assert pane.stored.isVisible() and stored.rowCount() == len(expected.stored) > 0
    why = _texts(stored, 5)
    assert sorted(why) == sorted(s.why for s in expected.stored) and any("float4" in w for w in why)
    assert any("never reached the hourly table" in w for w in why)


def test_calls_whose_counts_cannot_be_read_are_said_and_listed(qtbot, window, tmp_path):
    """Another tool's rows: a call whose token count is text is in no total; the page says so under the
    tables and its link lists those calls, each priced as unreadable, never $0.00."""
    import json
    import sqlite3

    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path / "odd"
    write_demo(root)
    conn = sqlite3.connect(root / "daycare.db")
    sid, at = conn.execute("SELECT session_id, max(at) FROM session_history WHERE type = 'assistant_message'").fetchone()
    odd = {"text": "odd", "tokens": {"provider": "anthropic", "model": "claude-sonnet-4-5",
                                     "size": {"input": "lots", "output": 5}}}
    conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'assistant_message', ?, ?)",
                     [(sid, at + 1, json.dumps(odd)), (sid, at + 2, json.dumps({**odd, "tokens": "many"}))])
    conn.commit()
    conn.close()
    open_and_wait(qtbot, window, root)
    pane = _shown_totals(qtbot, window)
    assert "Not counted in any total: 2 model calls whose token counts cannot be read" in pane.notes.text()
    assert "lots" not in pane.notes.text() and "many" not in pane.notes.text()
    pane.notes.linkActivated.emit("unreadable")
    qtbot.waitUntil(lambda: pane.records.records.proxy.rowCount() == 2, timeout=20000)
    assert _texts(pane.records.records.proxy, 7) == ["unreadable"] * 2 and _texts(pane.records.records.proxy, 3) == ["—"] * 2
    assert "cannot be read" in pane.records.caption.text()
