"""The agents pane over a demo store: keyed model, SQL filters, sessions, opening a session."""

from PySide6.QtTest import QAbstractItemModelTester

from tests.ui.conftest import open_and_wait


def test_agents_table_filters_and_opens_sessions(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    QAbstractItemModelTester(pane.model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    # rows arrive on demand: the first data() call answers with a placeholder, then the real name
    qtbot.waitUntil(lambda: pane.model.record(0) is not None or pane.model.index(0, 0).data() != "…", timeout=5000)
    qtbot.waitUntil(lambda: pane.model.record(0) is not None, timeout=5000)
    kinds = set()
    for row in range(pane.model.rowCount()):
        pane.model.index(row, 0).data()
    qtbot.waitUntil(lambda: all(pane.model.record(r) is not None for r in range(pane.model.rowCount())), timeout=5000)
    kinds = {pane.model.record(r).type for r in range(pane.model.rowCount())}
    assert kinds == {"user", "cron", "system", "subagent", "app", "permanent"}

    pane.kind_box.setCurrentIndex(pane.kind_box.findData("cron"))
    qtbot.waitUntil(lambda: 0 < pane.model.rowCount() < 15, timeout=5000)
    qtbot.waitUntil(lambda: pane.model.record(0) is not None, timeout=5000)
    assert all(pane.model.record(r).type == "cron" for r in range(pane.model.rowCount()))
    pane.kind_box.setCurrentIndex(0)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)

    pane.table.selectRow(0)
    qtbot.waitUntil(lambda: pane.sessions_model.rowCount() > 0, timeout=5000)
    QAbstractItemModelTester(pane.sessions_model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    assert window.detail.item is not None  # the detail pane shows the selected session
    assert "agent" in pane.sessions_label.text().lower() or "Sessions" in pane.sessions_label.text()


def test_text_filter_runs_in_sql(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    pane.filter_box.setText("no-such-agent-anywhere")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 0, timeout=5000)
    assert pane.summary.text() == "0 agents"


def test_time_range_filter(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
    # the shared demo store is dated at a fixed day in the past: nothing was updated "today"
    pane.time_box.setCurrentIndex(pane.time_box.findData(1))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 0, timeout=5000)
    pane.time_box.setCurrentIndex(0)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 15, timeout=5000)
