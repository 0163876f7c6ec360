"""The shared Search page for stores of other kinds: Ctrl+Shift+F reaches it, it indexes into a private
cache folder, a query shows highlighted matches by thread and session, and Enter on a match opens the
conversation at that message — on the right page of a long session."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from daycare_gui.stores import registry
from daycare_gui.stores.common.search_query import SessionHits, SourceHit, ThreadHits
from daycare_gui.stores.records import SessionRef
from tests.conftest import snapshot_tree
from tests.stores.plugin import install_chatlog_entry_point
from tests.ui.conftest import open_and_wait

T = 1_767_225_600_000


@pytest.fixture(autouse=True)
def private_index(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    return tmp_path / "index"


@pytest.fixture
def chatlog(monkeypatch, tmp_path):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    from chatlog_kind import write_chatlog

    root = write_chatlog(tmp_path / "store")
    # a long session: the match sits on an early page, far from where a conversation opens (its end)
    lines = [{"role": "user" if i % 2 else "assistant", "text": f"ordinary line {i}", "at": T + 10_000 + i}
             for i in range(260)]
    lines[12]["text"] = "the capybara arrived"
    (root / "ops" / "long.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    yield root
    registry.unregister("chatlog")


def _open_search(qtbot, window, store):
    open_and_wait(qtbot, window, store)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    pane = window.panes["search"]
    assert window.pane_stack.currentWidget() is pane
    qtbot.waitUntil(lambda: pane.build_button.isEnabled() and pane.last_build is not None, timeout=10000)
    return pane


def test_enter_on_a_match_opens_the_conversation_at_that_message(qtbot, window, chatlog, private_index):
    before = snapshot_tree(chatlog)
    pane = _open_search(qtbot, window, chatlog)
    tester = QAbstractItemModelTester(pane.model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    assert window.actions_.actions["search"].isEnabled()
    assert "266 messages" in pane.index_label.text()
    assert list((private_index / "sources").glob("*.sqlite"))

    pane.query_box.setFocus()
    qtbot.keyClicks(pane.query_box, "capybara")
    qtbot.keyClick(pane.query_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.tree.hasFocus() and pane.tree.currentIndex().isValid(), timeout=5000)
    model = pane.model
    thread = model.item(model.index(0, 0))
    assert isinstance(thread, ThreadHits) and model.index(0, 0).data().startswith("Ops — 1 match in 1 session")
    assert isinstance(model.item(model.index(0, 0, model.index(0, 0))), SessionHits)
    hit = model.item(pane.tree.currentIndex())
    assert isinstance(hit, SourceHit) and (hit.ref, hit.message_id) == (SessionRef("ops", "long"), "12")
    assert pane.summary.text().startswith("1 match; showing 1 in 1 thread")

    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    conversations = window.panes["conversations"]
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is conversations, timeout=5000)  # once read
    view = conversations.conversation

    def focused(message_id):
        shown = view.model.record(max(0, view.current_row()))
        return shown is not None and shown.id == message_id

    qtbot.waitUntil(lambda: focused("12") and "the capybara arrived" in conversations.shown_text(), timeout=5000)
    assert conversations.session == SessionRef("ops", "long")
    assert view.current_row() == 12 < view.model.rowCount() - 200  # at the hit, not at the end where it opens

    # a second match, in another session of the same thread: the view follows
    window.show_section("search")
    pane.query_box.setText("pods")
    pane.query_box.cancel_pending()  # searched now, as Enter does: no second search replacing these results
    pane.last_results = None
    pane.run_search()
    qtbot.waitUntil(lambda: pane.last_results is not None and pane.last_results.query == "pods", timeout=5000)
    first_hit = model.index(0, 0, model.index(0, 0, model.index(0, 0)))
    pane.tree.setFocus()
    pane.tree.setCurrentIndex(first_hit)
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: conversations.session == SessionRef("ops", "s1") and focused("2"), timeout=5000)
    qtbot.waitUntil(lambda: "green: 42 pods" in conversations.shown_text(), timeout=5000)
    assert tester is not None
    window.close_store()
    assert snapshot_tree(chatlog) == before


def test_cancel_keeps_what_was_indexed(qtbot, window, chatlog):
    pane = _open_search(qtbot, window, chatlog)
    pane.start_build(rebuild=True)
    assert pane.cancel_button.isVisible() or pane.last_build is not None
    pane.cancel_build()
    assert pane.build_button.isEnabled() and "stopped" in pane.index_label.text()  # Update index offered again
    pane.start_build()
    qtbot.waitUntil(lambda: pane.build_button.isEnabled() and "266 messages" in pane.index_label.text(), timeout=10000)


def test_no_search_page_for_a_store_without_messages(qtbot, window, tmp_path):
    from daycare_gui.stores.agentstack import write_demo

    store = write_demo(tmp_path / "agentstack")
    open_and_wait(qtbot, window, store)
    assert "search" not in window._sections
    assert not window.actions_.actions["search"].isEnabled()
