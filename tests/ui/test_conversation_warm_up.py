"""The conversation view's warm-up (one paint off screen, then the rows' badges, so the first session opened
does not pay for polishing, fonts and glyphs) never freezes the window together with the page's build: it
waits for the build's own layout and paint, and a view already on screen (the Agents page shows its
conversation at once) is not drawn off screen a second time — its first real paint does that work."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from tests.ui.conftest import open_and_wait


def _count_renders(monkeypatch) -> list:
    from daycare_gui.ui.panes.generic.conversation_view import ConversationView

    rendered = []
    real = ConversationView.render

    def render(self, *args, **kwargs):
        rendered.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ConversationView, "render", render)
    return rendered


def test_a_hidden_page_is_warmed_after_its_build_not_with_it(qtbot, window, demo_store, monkeypatch):
    rendered = _count_renders(monkeypatch)
    open_and_wait(qtbot, window, demo_store)
    assert "history" not in window.panes  # (built here, not by the window's idle build)
    pane = window.pane("history")  # built hidden, as the window builds it while the user reads
    assert not pane.isVisible()
    QCoreApplication.sendPostedEvents()  # what the build posted (its layout): the warm-up is not among it
    assert rendered == []
    qtbot.waitUntil(lambda: pane.view in rendered, timeout=10000)  # then, in a turn of its own, it is warmed
    assert rendered.count(pane.view) == 1


def test_the_agents_pages_conversation_shown_at_once_is_not_drawn_off_screen(qtbot, window, demo_store,
                                                                           monkeypatch):
    rendered = _count_renders(monkeypatch)
    open_and_wait(qtbot, window, demo_store)
    window.show_section("agents")
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: pane.conversation.model.rowCount() > 0, timeout=10000)
    qtbot.waitUntil(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), timeout=10000)
    qtbot.wait(100)
    assert pane.conversation.isVisible()
    assert pane.conversation not in rendered


def test_the_agents_page_opened_at_an_agent_is_not_drawn_off_screen_either(qtbot, window, demo_store, monkeypatch):
    """Opened at an agent (a link, Jump To), the page is shown once that agent's session is: built hidden,
    but about to be painted for real with that session."""
    import sqlite3

    from daycare_gui.ui.panes.generic import conversation_view

    rendered = _count_renders(monkeypatch)
    # (its session shown before the paint off screen would come: however slow the machine running this)
    monkeypatch.setattr(conversation_view, "WARM_UP_RENDER_MS", 60_000, raising=False)
    open_and_wait(qtbot, window, demo_store)
    conn = sqlite3.connect(f"file:{demo_store / 'daycare.db'}?mode=ro&immutable=1", uri=True)
    agent = conn.execute("SELECT s.agent_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
                         "GROUP BY s.agent_id ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    conn.close()
    window.navigate("agents", agent)
    pane = window.panes["agents"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is pane and pane.conversation.model.rowCount() > 0,
                    timeout=10000)
    qtbot.waitUntil(lambda: not window.worker.is_busy() and not window.bg_worker.is_busy(), timeout=10000)
    qtbot.wait(100)
    assert pane.conversation not in rendered
