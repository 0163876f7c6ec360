"""The window builds its navigation from what the opened store offers; a kind defined only in the tests
shows its conversations in the shared conversation view; an unknown folder says which kinds declined."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from daycare_gui.stores import registry
from tests.conftest import snapshot_tree
from tests.ui.conftest import open_and_wait


def _nav_titles(window) -> list[str]:
    m = window.nav.nav_model
    return [m.item(r).text().split("  (")[0] for r in range(m.rowCount())]


def test_outside_kind_gets_sections_from_its_capabilities(qtbot, window, chatlog):
    open_and_wait(qtbot, window, chatlog)
    assert _nav_titles(window) == ["Overview", "Chats", "Search", "Problems"]
    assert not window.actions_.actions["upgrade"].isEnabled()  # Daycare's migrations are not offered
    assert window.actions_.actions["search"].isEnabled()  # its SearchSource: the shared Search page
    qtbot.waitUntil(lambda: "(2)" in window.nav.text_of("conversations"), timeout=5000)


def test_outside_kind_conversation_in_the_shared_view(qtbot, window, chatlog):
    before = snapshot_tree(chatlog)
    open_and_wait(qtbot, window, chatlog)
    window.show_section("conversations")
    pane = window.pane("conversations")
    threads_tester = QAbstractItemModelTester(pane.threads.model)  # kept: watches the loading
    sessions_tester = QAbstractItemModelTester(pane.sessions.records.model)
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 2, timeout=5000)
    pane.open_item("ops")
    qtbot.waitUntil(lambda: "Yes, prod is green." in pane.shown_text(), timeout=5000)
    text = pane.shown_text()
    assert "Is the deploy done?" in text
    # the tool result is drawn under the call it answers, once
    assert text.index("deploy_status") < text.index("green: 42 pods") < text.index("Yes, prod is green.")
    assert text.count("green: 42 pods") == 1
    assert pane.conversation.model.rowCount() == 4 and "<b>4</b> messages" in pane.conversation.heading.text()
    assert threads_tester is not None and sessions_tester is not None
    window.close_store()
    assert snapshot_tree(chatlog) == before


def test_outside_kind_problems_page_lists_the_bad_line(qtbot, window, chatlog):
    open_and_wait(qtbot, window, chatlog)
    window.show_section("conversations")
    pane = window.pane("conversations")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 2, timeout=5000)
    pane.open_item(registry_ref("home", "b"))
    qtbot.waitUntil(lambda: "again" in pane.shown_text(), timeout=5000)
    window.show_section("problems")
    problems = window.pane("problems")
    qtbot.waitUntil(lambda: problems.model.rowCount() >= 1, timeout=5000)
    shown = problems.model.record(0)
    assert shown.path.endswith("b.jsonl") and shown.line == 2


def test_a_problem_found_while_reading_is_counted_in_the_navigation_at_once(qtbot, window, chatlog):
    """Readers find problems as they read pages (a message that does not decode), after the counts were
    taken at opening: the navigation's Problems count follows without a visit to the Problems page, and
    the same problem found again is listed once."""
    open_and_wait(qtbot, window, chatlog)
    qtbot.waitUntil(lambda: window.nav.text_of("problems") == "Problems  (1)", timeout=5000)  # b.jsonl's line 2
    window.show_section("conversations")
    pane = window.pane("conversations")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 2, timeout=5000)
    pane.open_item(registry_ref("home", "b"))  # reads b.jsonl again: its bad line is not a second problem
    qtbot.waitUntil(lambda: "again" in pane.shown_text(), timeout=5000)
    opened = window.opened
    window.worker.submit("read", lambda: opened.problems.add("home/c.jsonl", "a message that does not decode", 7))
    qtbot.waitUntil(lambda: window.nav.text_of("problems") == "Problems  (2)", timeout=5000)
    assert window._current_section == "conversations"


def registry_ref(thread, session):
    from daycare_gui.stores.records import SessionRef

    return SessionRef(thread, session)


def test_unknown_folder_names_every_kind_tried(qtbot, window, tmp_path):
    window.open_path(str(tmp_path))
    qtbot.waitUntil(lambda: window.welcome.declined.isVisible(), timeout=5000)
    text = window.welcome.declined.text()
    assert "not a store that daycare-gui knows" in text
    for name in registry.kind_names():
        assert name in text
    assert window.store is None


def test_daycare_store_keeps_its_own_sections(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    titles = _nav_titles(window)
    assert titles[:3] == ["Overview", "Users", "Agents"] and "Inbox" in titles and "Storage" in titles
    assert window.actions_.actions["upgrade"].isEnabled()


def _append(path, first: int, count: int) -> None:
    with open(path, "a") as f:  # as a live agent does: whole lines appended to the session's JSONL file
        for i in range(first, first + count):
            f.write(json.dumps({"role": "assistant", "text": f"live line {i}", "at": 1767225700000 + i}) + "\n")


def test_outside_kind_session_followed_live(qtbot, window, chatlog):
    """The kind offers growth_paths/growth_token: appended lines appear at the end without a Refresh; a
    view scrolled up stays put and a button counts the new messages."""
    open_and_wait(qtbot, window, chatlog)
    window.show_section("conversations")
    pane = window.pane("conversations")
    sessions_tester = QAbstractItemModelTester(pane.sessions.records.model)  # noqa: F841
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() == 2, timeout=5000)
    pane.open_item("ops")
    view = pane.conversation
    qtbot.waitUntil(lambda: view.model.rowCount() == 4 and "Yes, prod is green." in pane.shown_text(), timeout=5000)
    session = chatlog / "ops" / "s1.jsonl"
    _append(session, 0, 60)
    qtbot.waitUntil(lambda: view.model.rowCount() == 64, timeout=10000)
    assert "<b>64</b> messages" in view.heading.text()
    bar = view.list.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum() and view.current_row() == 63  # followed to the end
    qtbot.waitUntil(lambda: "live line 59" in pane.shown_text(), timeout=10000)  # the conversation too
    assert view.new_marker.isHidden()

    bar.setValue(0)  # the user scrolls up to read
    _append(session, 60, 5)
    qtbot.waitUntil(lambda: not view.new_marker.isHidden(), timeout=10000)
    assert view.new_marker.text() == "↓ 5 new messages"
    assert bar.value() == 0 and view.current_row() == 63  # not moved
    assert "live line 60" not in pane.shown_text()  # not redrawn
    qtbot.mouseClick(view.new_marker, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "live line 64" in pane.shown_text(), timeout=5000)
    assert view.model.rowCount() == 69 and view.current_row() == 68 and view.new_marker.isHidden()
    assert window.banner.isHidden()
