"""The conversation page, built in idle time after a store opens, is also laid out and drawn off screen
at the size it will be shown at (beside the Details dock that comes with it), so opening the first session
does not pay for polishing and laying out the page and the dock on that click."""

from __future__ import annotations

import sqlite3

from PySide6.QtCore import QEvent, QObject

from daycare_gui.ui.warm_pages import DRAWN_AHEAD
from tests.ui.conftest import open_and_wait


class _Events(QObject):
    """The polish and resize events each watched widget receives."""

    KINDS = (QEvent.Type.Polish, QEvent.Type.Resize)

    def __init__(self, widgets) -> None:
        super().__init__()
        self.seen: list[tuple[str, QEvent.Type]] = []
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
        if event.type() in self.KINDS:
            self.seen.append((obj.objectName() or type(obj).__name__, event.type()))
        return False


def _a_session(path):
    conn = sqlite3.connect(f"file:{path / 'daycare.db'}?mode=ro&immutable=1", uri=True)
    row = conn.execute("SELECT s.agent_id, h.session_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
                       "GROUP BY h.session_id HAVING count(*) > 3 ORDER BY h.session_id LIMIT 1").fetchone()
    conn.close()
    return row


def test_the_first_session_opened_finds_its_page_and_the_dock_laid_out(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: "history" in window.panes and window.details.warmed, timeout=15000)
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: bool(pane.property(DRAWN_AHEAD)), timeout=5000)
    assert not pane.isVisible() and window.details.dock.isHidden()  # nothing was shown on the way
    assert window.pane_stack.currentWidget() is not pane
    watched = [pane, pane.list, window.details.pane]
    events = _Events(watched)

    agent, session = _a_session(demo_store)
    window.navigate("history", (agent, session, None))
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane and pane.model.session_id == session
                    and pane.model.rowCount() > 0, timeout=10000)
    qtbot.wait(50)
    assert not window.details.dock.isHidden()
    # Shown at the size it was laid out at, already polished: no page-wide layout or polish on the click
    assert [e for e in events.seen if e[1] == QEvent.Type.Polish] == []
    # and at the width it was laid out at (the dock's pane is sent the resize it kept pending, at the size
    # it was drawn at: its layout has nothing to move)
    assert [e for e in events.seen if e[1] == QEvent.Type.Resize and e[0] != "detailPane"] == []
