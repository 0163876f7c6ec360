"""Export… and Copy as Markdown from the window: Daycare's History pane and the shared conversation view.
The save dialog is answered by the test; the file written is read back and compared with the records."""

from __future__ import annotations

import json
import sqlite3

import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QFileDialog

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.export import message_markdown
from tests.conftest import snapshot_tree
from tests.stores.export.check import assert_export_matches
from tests.ui.conftest import open_and_wait


@pytest.fixture
def save_as(monkeypatch):
    """Answers the save dialog with (path, filter) and remembers what it was offered."""
    offered = {}

    def answer(path, chosen):
        def fake(parent, title, suggested, filters, *args, **kwargs):
            offered.update(title=title, suggested=suggested, filters=filters.split(";;"))
            return str(path), chosen

        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
        return offered

    return answer


def _largest_session(store):
    conn = sqlite3.connect(f"file:{store / 'daycare.db'}?mode=ro&immutable=1", uri=True)
    agent_id, session_id = conn.execute(
        "SELECT s.agent_id, h.session_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
        "GROUP BY h.session_id ORDER BY count(*) DESC, h.session_id LIMIT 1").fetchone()
    conn.close()
    return agent_id, session_id


def _records(store, agent_id, session_id):
    from daycare_gui.stores.records import SessionRef

    with registry.open_store(store, live=False) as opened:
        return opened.capability(api.Conversations).messages(SessionRef(agent_id, session_id), 0, 10_000)


def _open_history(qtbot, window, store):
    agent_id, session_id = _largest_session(store)
    open_and_wait(qtbot, window, store)
    window.navigate("history", (agent_id, session_id, None))
    pane = window.panes["history"]
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0 and pane.current_row() >= 0, timeout=5000)
    return pane, agent_id, session_id


def test_export_a_session_from_the_history_pane(qtbot, window, demo_store, tmp_path, save_as):
    before = snapshot_tree(demo_store)
    pane, agent_id, session_id = _open_history(qtbot, window, demo_store)
    tester = QAbstractItemModelTester(pane.model)  # kept alive for the whole test
    offered = save_as(tmp_path / "deploy", "HTML page (*.html)")  # typed without a suffix: the filter's
    window.actions_.actions["export_conversation"].trigger()
    target = tmp_path / "deploy.html"
    qtbot.waitUntil(lambda: "Exported" in pane.export_status.text(), timeout=10000)
    assert offered["filters"] == ["Markdown (*.md)", "HTML page (*.html)", "JSON Lines, records as stored (*.jsonl)"]
    assert offered["suggested"].endswith(f"{session_id}.md")
    messages = _records(demo_store, agent_id, session_id)
    assert pane.export_status.text() == f"Exported {len(messages)} messages to {target}"
    assert_export_matches(messages, "html", target.read_text(encoding="utf-8"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deploy.html", "settings.ini"]  # no temporary left
    assert snapshot_tree(demo_store) == before
    assert tester is not None


def test_export_selected_records_from_the_history_pane(qtbot, window, demo_store, tmp_path, save_as):
    pane, agent_id, session_id = _open_history(qtbot, window, demo_store)
    tester = QAbstractItemModelTester(pane.model)
    selection = QItemSelection(pane.model.index(1), pane.model.index(3))
    selection.select(pane.model.index(6), pane.model.index(6))  # two runs: exported by id
    pane.list.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    assert pane.selected_rows() == [1, 2, 3, 6]
    save_as(tmp_path / "picked.jsonl", "Markdown (*.md)")  # the typed suffix wins over the filter
    pane.export_conversation()
    qtbot.waitUntil(lambda: "Exported" in pane.export_status.text(), timeout=10000)
    messages = _records(demo_store, agent_id, session_id)
    picked = [messages[i] for i in (1, 2, 3, 6)]
    assert_export_matches(picked, "jsonl", (tmp_path / "picked.jsonl").read_text(encoding="utf-8"))
    pane.list.selectionModel().select(QItemSelection(pane.model.index(0), pane.model.index(2)),
                                      QItemSelectionModel.SelectionFlag.ClearAndSelect)  # one run: by position
    save_as(tmp_path / "first.md", "Markdown (*.md)")
    pane.export_selected()
    qtbot.waitUntil(lambda: "first.md" in pane.export_status.text(), timeout=10000)
    assert_export_matches(messages[:3], "md", (tmp_path / "first.md").read_text(encoding="utf-8"))
    assert tester is not None


def test_copy_a_record_as_markdown_with_the_shortcut(qtbot, window, demo_store):
    pane, _agent_id, _session_id = _open_history(qtbot, window, demo_store)
    tester = QAbstractItemModelTester(pane.model)
    QGuiApplication.clipboard().clear()
    pane.go_to_row(1)
    qtbot.waitUntil(lambda: pane.model.record(1) is not None, timeout=5000)
    pane.list.setFocus()
    qtbot.keyClick(pane.list, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    expected = message_markdown(pane.model.record(1))
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text() == expected, timeout=3000)
    assert expected.startswith("## assistant · ")
    assert "Copied message" in pane.export_status.text()
    assert window.actions_.actions["copy_markdown"].shortcut().toString() == "Ctrl+Shift+C"
    assert tester is not None


@pytest.fixture
def linggen_home(tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


def _open_conversation(qtbot, window, home):
    open_and_wait(qtbot, window, home)
    window.show_section("conversations")
    pane = window.pane("conversations")
    threads = QAbstractItemModelTester(pane.threads.model)
    view = pane.conversation
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 0 and view.model.rowCount() >= 3
                    and all(view.model.record(r) is not None for r in range(3)), timeout=10000)
    return pane, threads


def test_export_from_the_shared_conversation_view(qtbot, window, linggen_home, tmp_path, save_as):
    pane, threads = _open_conversation(qtbot, window, linggen_home)
    ref = pane.session
    with registry.open_store(linggen_home) as opened:
        messages = opened.capability(api.Conversations).messages(ref, 0, 10_000)
    view = pane.conversation
    save_as(tmp_path / "chat.md", "Markdown (*.md)")
    assert view.export.button.isEnabled()
    view.export.button.menu().actions()[0].trigger()  # Export… → Whole session…
    qtbot.waitUntil(lambda: "Exported" in view.export.status.text(), timeout=10000)
    assert_export_matches(messages, "md", (tmp_path / "chat.md").read_text(encoding="utf-8"))

    # the second and third message selected in the list: those two are "the selection"
    shown = [view.model.record(r) for r in range(3)]
    view.list.selectionModel().select(QItemSelection(view.model.index(1), view.model.index(2)),
                                      QItemSelectionModel.SelectionFlag.ClearAndSelect)
    assert view.export.selected_rows() == [1, 2]
    save_as(tmp_path / "two.jsonl", "JSON Lines, records as stored (*.jsonl)")
    window.actions_.actions["export_conversation"].trigger()  # Ctrl+Shift+E: the selection
    qtbot.waitUntil(lambda: "two.jsonl" in view.export.status.text(), timeout=10000)
    assert_export_matches(shown[1:3], "jsonl", (tmp_path / "two.jsonl").read_text(encoding="utf-8"))
    assert threads is not None


def test_copy_as_markdown_from_the_shared_conversation_view(qtbot, window, linggen_home):
    pane, threads = _open_conversation(qtbot, window, linggen_home)
    QGuiApplication.clipboard().clear()
    view = pane.conversation
    view.go_to_row(0)  # the message chosen in the list
    target = view.model.record(0)
    window.actions_.actions["copy_markdown"].trigger()
    assert QGuiApplication.clipboard().text() == message_markdown(target)
    assert QGuiApplication.clipboard().text().startswith("## ")
    assert threads is not None


def test_export_elsewhere_says_where_to_go(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("overview")
    window.actions_.actions["export_conversation"].trigger()
    assert window.statusBar().currentMessage() == "Open a conversation to export it."


def test_a_big_export_shows_progress_and_cancels_without_a_file(qtbot, tmp_path):
    from types import SimpleNamespace

    from PySide6.QtWidgets import QPushButton, QWidget

    from daycare_gui.ui.widgets.export import ConversationExporter
    from tests.stores.export.fake import REF, FakeConversations
    from tests.stores.export.test_export_formats import _numbered

    parent = QWidget()
    qtbot.addWidget(parent)
    parent.show()
    exporter = ConversationExporter(parent)
    said = []
    exporter.finished.connect(said.append)
    target = tmp_path / "big.jsonl"
    opened = SimpleNamespace(title=str(tmp_path), kind="daycare")
    exporter.start_export(opened, FakeConversations(count=120_000, make=_numbered), REF, str(target), "jsonl")
    dialog = exporter._dialog
    qtbot.waitUntil(lambda: dialog.value() > 0 and dialog.isVisible(), timeout=10000)  # progress, off the GUI thread
    assert dialog.maximum() == 120_000 and "of 120,000 messages" in dialog.labelText()
    qtbot.mouseClick(dialog.findChild(QPushButton), Qt.MouseButton.LeftButton)  # Cancel
    assert said == ["Export cancelled; nothing was written."] and not exporter.busy
    qtbot.waitUntil(lambda: list(tmp_path.iterdir()) == [], timeout=10000)  # the temporary file is removed too
    exporter.start_export(opened, FakeConversations(count=2_000, make=_numbered), REF, str(target), "jsonl")
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10000)
    assert said[1] == f"Exported 2,000 messages to {target}"
    assert len(target.read_text().splitlines()) == 2_000
    exporter.shutdown()


def test_the_context_menus_offer_copy_and_export(qtbot, window, linggen_home):
    from PySide6.QtCore import QPoint, QTimer
    from PySide6.QtWidgets import QApplication

    pane, threads = _open_conversation(qtbot, window, linggen_home)
    offered = []

    def read_and_close():
        menu = QApplication.activePopupWidget()
        offered.extend(a.text() for a in menu.actions() if not a.isSeparator())
        menu.close()

    QTimer.singleShot(0, read_and_close)
    pane.conversation.export.context_menu(QPoint(10, 10))
    assert offered[-3:] == ["Copy as Markdown\tCtrl+Shift+C", "Export selected messages…", "Export session…"]
    assert threads is not None


def test_export_a_legacy_session_and_one_of_its_records(qtbot, window, fixture_copy, tmp_path, save_as):
    root = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(root)
    open_and_wait(qtbot, window, root)
    window.navigate("history", ("legacy", "agentusr1", 0))
    pane = window.panes["history"]
    tester = QAbstractItemModelTester(pane.model)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2, timeout=5000)
    save_as(tmp_path / "legacy.md", "Markdown (*.md)")
    pane.export_session()
    qtbot.waitUntil(lambda: "Exported" in pane.export_status.text(), timeout=10000)
    text = (tmp_path / "legacy.md").read_text(encoding="utf-8")
    assert "hello" in text and "hi!" in text and text.count("\n## ") == 2
    # (not selectRow: it toggles the row while the application believes Ctrl is held, as it may after another
    # test's synthetic Ctrl+Shift+C)
    pane.list.selectionModel().select(pane.model.index(1), QItemSelectionModel.SelectionFlag.ClearAndSelect)
    save_as(tmp_path / "one.jsonl", "Markdown (*.md)")
    pane.export_selected()
    qtbot.waitUntil(lambda: "one.jsonl" in pane.export_status.text(), timeout=10000)
    (line,) = (tmp_path / "one.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line) == pane.view.cap.raw(pane.view.ref, pane.model.key_of(1))  # the history.jsonl line
    assert snapshot_tree(root) == before
    assert tester is not None
