"""Issue #34: the conversation page shows two numbers for a record — its place in the session and the id the
store gave it — and a user must be able to tell them apart: the "go to" box says it takes a position, each
message header says its number is the message's id, and nothing shows either as a bare "#N"."""

from __future__ import annotations

import re
import sqlite3

from tests.ui.conftest import open_and_wait


def _session_with_ids_unlike_positions(store):
    conn = sqlite3.connect(f"file:{store / 'daycare.db'}?immutable=1", uri=True)
    try:
        sid, agent_id = conn.execute(
            "SELECT h.session_id, s.agent_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
            "GROUP BY h.session_id HAVING min(h.id) > 1 ORDER BY count(*) DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    return agent_id, sid


def test_the_position_box_and_the_headers_say_which_number_they_show(qtbot, window, demo_store):
    agent_id, session_id = _session_with_ids_unlike_positions(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", (agent_id, session_id, None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: pane.model.rowCount() > 2, timeout=5000)
    pane.go_to_row(1)
    qtbot.waitUntil(lambda: pane.model.record(1) is not None, timeout=5000)
    record = pane.model.record(1)
    assert record.id != "2"  # the second record's id is not its place: the case that misled
    box = pane.goto_box.text()
    assert "position" in box.lower() and "#" not in box
    assert re.search(r"\b2\b", box) and str(record.id) not in box.replace(f"of {pane.model.rowCount()}", "")
    qtbot.waitUntil(lambda: f"id {record.id} ·" in pane.conversation.toPlainText(), timeout=5000)
    assert not re.search(r"#\d", pane.conversation.toPlainText())  # no bare "#24" to take for a position
    qtbot.waitUntil(lambda: window.detail.item is not None and f"id {record.id}" in window.detail.item.title,
                    timeout=5000)
