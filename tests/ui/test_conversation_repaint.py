"""What a session's opening repaints of the conversation view around its list: only what changed. The
buttons that stay enabled from one session to the next are not repainted (the view used to disable them
and enable them again in the same moment, and each flip repainted every button of the bar)."""

from __future__ import annotations

import sqlite3
import threading

from PySide6.QtCore import QEvent, QObject

from tests.ui.conftest import open_and_wait


class _Paints(QObject):
    """How often each watched widget is asked to paint."""

    def __init__(self, widgets) -> None:
        super().__init__()
        self.count = {w: 0 for w in widgets}
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Paint and obj in self.count:
            self.count[obj] += 1
        return False


def _two_sessions(path):
    """Two sessions of the demo with messages, and their agents."""
    conn = sqlite3.connect(f"file:{path / 'daycare.db'}?mode=ro&immutable=1", uri=True)
    rows = conn.execute("SELECT s.agent_id, h.session_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
                        "GROUP BY h.session_id HAVING count(*) > 3 ORDER BY h.session_id LIMIT 2").fetchall()
    conn.close()
    assert len(rows) == 2
    return rows


def _shown(qtbot, window, pane, session_id):
    model = pane.model
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane and model.session_id == session_id
                    and model.counted and model.rowCount() > 0 and pane.current_row() == model.rowCount() - 1
                    and model.is_loaded(model.rowCount() - 1), timeout=10000)
    qtbot.waitUntil(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), timeout=10000)
    qtbot.wait(300)  # the conversation beside the list, read after a pause, lands too


def test_opening_another_session_leaves_the_buttons_that_stay_enabled_unpainted(qtbot, window, demo_store):
    (agent_a, first), (agent_b, second) = _two_sessions(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", (agent_a, first, None))
    pane = window.panes["history"]
    _shown(qtbot, window, pane, first)
    view = pane.view
    steady = [view.home_button, view.end_button]
    assert all(b.isEnabled() and b.isVisible() for b in steady)
    where = [b.geometry() for b in steady]
    paints = _Paints([*steady, pane.list.viewport()])

    window.navigate("history", (agent_b, second, None))
    _shown(qtbot, window, pane, second)

    assert [b.geometry() for b in steady] == where  # (not moved by a heading of another height: a fair test)
    assert all(b.isEnabled() for b in steady)
    assert paints.count[pane.list.viewport()] > 0  # the new session's rows were painted
    assert [paints.count[b] for b in steady] == [0, 0]


def test_a_slow_session_still_says_it_is_loading_until_it_comes(qtbot, window, demo_store, monkeypatch):
    from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations

    (agent_a, first), (agent_b, second) = _two_sessions(demo_store)
    open_and_wait(qtbot, window, demo_store)
    window.navigate("history", (agent_a, first, None))
    pane = window.panes["history"]
    _shown(qtbot, window, pane, first)
    held = threading.Event()
    real_page_before = SqliteConversations.page_before

    def page_before(cap, ref, *args, **kwargs):  # (the read that opens a session at its end)
        if ref.session_id == second:
            held.wait(10)
        return real_page_before(cap, ref, *args, **kwargs)

    monkeypatch.setattr(SqliteConversations, "page_before", page_before)
    window.navigate("history", (agent_b, second, None))
    view = pane.view
    qtbot.waitUntil(lambda: "Loading session" in view.heading.text(), timeout=5000)
    assert not view.home_button.isEnabled() and "Loading" in view.conversation.toPlainText()
    held.set()
    _shown(qtbot, window, pane, second)
    assert view.home_button.isEnabled() and "messages" in view.heading.text()
