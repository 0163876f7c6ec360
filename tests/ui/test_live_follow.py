"""Following a live engine: another process appends records (no busy timeout, as Daycare's engine) while the
window shows the session; lists update changed rows in place. The writer must never see SQLITE_BUSY."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from tests.ui.conftest import open_and_wait, thread_rows

REPO = Path(__file__).resolve().parents[2]
FATAL = QAbstractItemModelTester.FailureReportingMode.Fatal


@pytest.fixture
def live_store(tmp_path, demo_store):
    dest = tmp_path / "store" / "daycare"
    shutil.copytree(demo_store, dest)
    return dest


def _session(store: Path) -> tuple[str, str, int]:
    conn = sqlite3.connect(f"file:{store / 'daycare.db'}?mode=ro", uri=True)
    try:
        sid, n = conn.execute("SELECT session_id, count(*) AS n FROM session_history GROUP BY session_id "
                              "ORDER BY n DESC, session_id LIMIT 1").fetchone()
        agent = conn.execute("SELECT agent_id FROM sessions WHERE id = ?", (sid,)).fetchone()[0]
    finally:
        conn.close()
    return agent, sid, n


def _engine(store: Path) -> sqlite3.Connection:
    """A connection like Daycare's engine: WAL, no busy timeout (a held lock fails a write at once)."""
    conn = sqlite3.connect(store / "daycare.db", isolation_level=None, timeout=0)
    conn.execute("PRAGMA busy_timeout=0")
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


class Writer:
    """tests/ui/live_writer.py in its own process."""

    def __init__(self, store: Path, session_id: str, rate: float, count: int, out: Path) -> None:
        self.out = out
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.ui.live_writer", str(store / "daycare.db"),
                                      session_id, str(rate), str(count), str(out)], cwd=str(REPO),
                                     stderr=subprocess.PIPE, text=True)

    def result(self) -> dict:
        _out, err = self.proc.communicate(timeout=60)
        assert self.proc.returncode == 0, err
        return json.loads(self.out.read_text())


def _text(rec) -> str:
    return rec.text or ""


def test_a_conversation_at_its_end_follows_the_writer(qtbot, window, live_store, tmp_path):
    agent, sid, before = _session(live_store)
    open_and_wait(qtbot, window, live_store)
    assert window.store.db.mode.name == "immutable"  # a quiet store: the writer's WAL comes later
    window.navigate("history", (agent, sid, None))
    pane = window.panes["history"]
    tester = QAbstractItemModelTester(pane.model, FATAL)  # noqa: F841 (checks every signal while alive)
    qtbot.waitUntil(lambda: pane.model.rowCount() == before and pane.current_row() == before - 1, timeout=10000)
    at_end_after_each_growth: list[bool] = []
    pane.model.grown.connect(lambda _f, _l: at_end_after_each_growth.append(pane.at_end()))

    added = 150
    writer = Writer(live_store, sid, rate=100, count=added, out=tmp_path / "writer.json")
    qtbot.waitUntil(lambda: pane.model.rowCount() == before + added, timeout=30000)
    result = writer.result()

    assert result["busy"] == 0 and result["errors"] == []  # the window never made the engine fail
    assert result["written"] == added
    assert window.store.db.mode.name == "read-only"  # it now reads through the WAL
    last = before + added - 1
    assert at_end_after_each_growth and all(at_end_after_each_growth)  # the tail followed every time
    assert pane.at_end() and pane.current_row() == last  # the selection moved on with the tail
    qtbot.waitUntil(lambda: pane.model.record(last) is not None, timeout=5000)
    assert pane.model.record(last).id == str(result["commits"][-1][0])
    assert _text(pane.model.record(last)) == f"live record {added - 1} appended while the window reads"
    assert pane.new_records() == 0 and pane.new_marker.isHidden()
    assert f"{before + added:,}" in pane.heading.text() and pane.position.text() == f"{last + 1:,} of {last + 1:,}"
    qtbot.waitUntil(lambda: f"live record {added - 1}" in pane.conversation.toPlainText(), timeout=5000)
    assert window.banner.isHidden()  # no "Refresh to see it": the page shows the change itself


@pytest.mark.parametrize("scroll_by_hand", [False, True], ids=["marker clicked", "scrolled to the end"])
def test_scrolled_up_the_view_stays_and_a_marker_counts_new_records(qtbot, window, live_store, tmp_path,
                                                                     scroll_by_hand):
    agent, sid, _n = _session(live_store)
    engine = _engine(live_store)
    for i in range(300):  # long enough to scroll; the WAL holds them (a running engine)
        engine.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'note', ?, ?)",
                       (sid, 1_772_000_000_000 + i, json.dumps({"text": f"earlier {i}"})))
    engine.close()
    before = _session(live_store)[2]
    open_and_wait(qtbot, window, live_store)
    window.navigate("history", (agent, sid, None))
    pane = window.panes["history"]
    tester = QAbstractItemModelTester(pane.model, FATAL)  # noqa: F841
    qtbot.waitUntil(lambda: pane.model.rowCount() == before and pane.current_row() == before - 1, timeout=10000)
    pane.go_to_row(100)
    qtbot.waitUntil(lambda: not pane.at_end() and pane.list.rowAt(0) > 0, timeout=5000)
    bar = pane.list.verticalScrollBar()
    value, top, current = bar.value(), pane.list.rowAt(0), pane.current_row()

    added = 40
    writer = Writer(live_store, sid, rate=100, count=added, out=tmp_path / "writer.json")
    qtbot.waitUntil(lambda: pane.model.rowCount() == before + added, timeout=30000)
    result = writer.result()
    assert result["busy"] == 0 and result["errors"] == []

    assert bar.value() == value and pane.list.rowAt(0) == top and pane.current_row() == current  # not moved
    assert pane.new_records() == added
    assert not pane.new_marker.isHidden() and pane.new_marker.text() == f"↓ {added} new messages"

    if scroll_by_hand:  # dragging the scroll bar to the bottom shows them too: the marker goes
        bar.setValue(bar.maximum())
        assert pane.new_marker.isHidden() and pane.new_records() == 0
        return
    qtbot.mouseClick(pane.new_marker, Qt.MouseButton.LeftButton)
    last = before + added - 1
    assert pane.at_end() and pane.current_row() == last
    assert pane.new_marker.isHidden() and pane.new_records() == 0
    qtbot.waitUntil(lambda: pane.model.record(last) is not None, timeout=5000)
    assert _text(pane.model.record(last)) == f"live record {added - 1} appended while the window reads"


def test_lists_update_changed_rows_in_place_and_keep_the_selection(qtbot, window, live_store):
    open_and_wait(qtbot, window, live_store)
    window.show_section("agents")
    agents = window.panes["agents"]
    threads = agents.threads
    tester = QAbstractItemModelTester(threads.model, FATAL)  # noqa: F841
    qtbot.waitUntil(lambda: threads.model.rowCount() > 6, timeout=10000)
    resets: list[str] = []
    threads.model.modelReset.connect(lambda: resets.append("agents"))
    rows = thread_rows(qtbot, agents)
    threads.table.selectRow(2)
    selected = threads.model.key(2)
    changed_row = 5
    changed = rows[changed_row]
    new_state = "dead" if changed.values[2] != "dead" else "sleeping"

    engine = _engine(live_store)
    engine.execute("UPDATE agents SET lifecycle = ? WHERE id = ?", (new_state, changed.key))  # same order
    qtbot.waitUntil(lambda: threads.model.index(changed_row, 2).data() == new_state, timeout=10000)
    assert resets == []  # updated in place, not reset
    assert threads.current_key() == selected and threads.table.currentIndex().row() == 2
    assert threads.model.key(changed_row) == changed.key

    # Updated now: sorted by "Updated" (newest first) it moves to the top; the selection follows its agent.
    engine.execute("UPDATE agents SET updated_at = ? WHERE id = ?", (int(time.time() * 1000), selected))
    qtbot.waitUntil(lambda: threads.model.key(0) == selected, timeout=10000)
    assert resets == []
    assert threads.table.currentIndex().row() == 0 and threads.current_key() == selected

    window.show_section("inbox")
    inbox = window.panes["inbox"].views["inbox"]  # the shared list pane's list
    inbox_tester = QAbstractItemModelTester(inbox.model, FATAL)  # noqa: F841
    qtbot.waitUntil(lambda: inbox.model.rowCount() > 1, timeout=10000)
    inbox.model.modelReset.connect(lambda: resets.append("inbox"))
    count = inbox.model.rowCount()
    inbox.table.selectRow(1)
    qtbot.waitUntil(lambda: inbox.model.record(1) is not None, timeout=10000)
    selected_item = inbox.model.record(1).key
    inserted: list[tuple[int, int]] = []
    inbox.model.rowsInserted.connect(lambda _p, first, last: inserted.append((first, last)))
    data = {"type": "message", "message": {"text": "a message the engine just received", "files": []}}
    engine.execute("INSERT INTO inbox (id, agent_id, posted_at, type, data) VALUES (?, ?, ?, 'message', ?)",
                   ("liveitem000000000000000a", changed.key, int(time.time() * 1000), json.dumps(data)))
    qtbot.waitUntil(lambda: inbox.model.rowCount() == count + 1, timeout=10000)
    # the navigation counts it too, and a new agent on a page not shown (read from tables, not files)
    qtbot.waitUntil(lambda: window.nav.text_of("inbox").endswith(f"({count + 1})"), timeout=10000)
    agents_before = threads.model.rowCount()
    engine.execute("INSERT INTO agents SELECT 'liveagent00000000000000a', " + ", ".join(
        c for c in _columns(engine, "agents") if c != "id") + " FROM agents WHERE id = ?", (changed.key,))
    qtbot.waitUntil(lambda: window.nav.text_of("agents").endswith(f"({agents_before + 1})"), timeout=10000)
    engine.close()
    assert inserted == [(count, count)]  # the newest item, inserted at the end (oldest first)
    assert resets == []
    assert inbox.model.key(count) == "liveitem000000000000000a"
    qtbot.waitUntil(lambda: inbox.model.index(count, 5).data() == "a message the engine just received", timeout=10000)
    assert inbox.model.key(inbox.table.currentIndex().row()) == selected_item


def _columns(conn, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
