"""The shared conversation view on today's Daycare (a PGlite store, as Daycare 7c3c466c wrote it): the
session's messages in the keyed list (pages by session_history.id), the conversation beside it, First and
Last, and a message's raw JSON."""

from __future__ import annotations

from PySide6.QtCore import QUrl

from daycare_gui.stores import api
from tests.pg_helpers import use_test_pglite

OPEN_TIMEOUT = 120_000  # the copy and PGlite's start on a busy machine


def test_a_pglite_session_in_the_shared_view(qtbot, window, pglite_store):
    use_test_pglite()
    window.open_path(str(pglite_store))
    qtbot.waitUntil(lambda: window.opened is not None and "agents" in window._sections, timeout=OPEN_TIMEOUT)
    window.show_section("agents")
    pane = window.pane("agents")
    view = pane.conversation
    qtbot.waitUntil(lambda: view.model.rowCount() > 0 and view.current_row() == view.model.rowCount() - 1,
                    timeout=30000)
    count = view.model.rowCount()
    cap = window.opened.capability(api.Conversations)
    ref = view.ref
    messages = cap.messages(ref, 0, count)  # what the positional pages give, for comparison
    assert len(messages) == count and f"<b>{count:,}</b> messages" in view.heading.text()
    last = messages[-1]
    qtbot.waitUntil(lambda: view.model.record(count - 1) is not None, timeout=10000)
    assert view.model.record(count - 1).id == last.id and view.model.key_of(count - 1) == int(last.id)
    qtbot.waitUntil(lambda: f"id {last.id} · raw" in view.shown_text(), timeout=10000)  # the conversation, at its end
    view.go_first()
    qtbot.waitUntil(lambda: view.model.record(0) is not None, timeout=10000)
    assert view.model.record(0).id == messages[0].id
    # the message's own header: "id 1" alone is also in "id 12", still on screen from the end
    qtbot.waitUntil(lambda: f"id {messages[0].id} · raw" in view.shown_text(), timeout=10000)
    # the page settled (its count, the session's details and the thread's memory read), as a reader sees it
    qtbot.waitUntil(lambda: view.model.counted and not window.worker.is_busy() and not window.bg_worker.is_busy(),
                    timeout=30000)
    view.conversation.anchorClicked.emit(QUrl(f"raw:{messages[0].id}"))

    def raw_shown() -> bool:
        item = window.detail.item
        assert item is not None and item.title.startswith("Raw"), (
            f"details show {item.title if item else None!r}; worker busy: {window.worker.is_busy()}")
        return True

    qtbot.waitUntil(raw_shown, timeout=10000)
    # its page read again a moment later (a count confirmed, a live check): the Raw view the user opened stays
    view.model.rows_loaded.emit(0, count - 1)
    qtbot.wait(100)
    assert window.detail.item.title.startswith("Raw"), window.detail.item.title
    assert window.detail.item.raw == messages[0].raw  # the jsonb value as stored
