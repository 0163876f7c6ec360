"""Every kind's store is watched while the window shows it: when the system's own program writes (AgentStack
adds a memory, CianaParrot's LangGraph saver a checkpoint, Linggen a message line, Daycare's PGlite a WAL
record), the user sees it — the conversation shown grows by itself, anything else gets the non-modal
"changed on disk" banner, whose Reload reopens the store on the same page."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest

from tests.ui.conftest import open_and_wait

CHANGED = "The store changed on disk"


def _banner_says_changed(window) -> bool:
    return window.banner.isVisible() and CHANGED in window.banner.label.text()


def _show(qtbot, window, section: str):
    window.show_section(section)
    qtbot.waitUntil(lambda: window._current_section == section, timeout=5000)
    return window.pane(section)


def test_agentstack_a_memory_added_by_agentstack_brings_the_reload_banner(qtbot, window, tmp_path):
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.memory("greeting", "hello")
    path = b.close()
    open_and_wait(qtbot, window, path)
    _show(qtbot, window, "overview")
    qtbot.wait(300)  # the watch is in place once the store is shown; let the open's own reads settle
    assert not _banner_says_changed(window)

    conn = sqlite3.connect(path, isolation_level=None)  # as AgentStack's better-sqlite3: WAL, commit
    try:
        conn.execute("PRAGMA journal_mode=wal")
        conn.execute("INSERT INTO memory (id, key, namespace, content, created_at, updated_at) "
                     "VALUES ('m-new', 'later', 'default', 'written while the window reads', 1, 1)")
        qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)
    finally:
        conn.close()
    assert window.banner.button.text() == "Reload"

    section, before = window._current_section, window.store
    window.banner.button.click()  # Reload: the same store again, on the same page
    qtbot.waitUntil(lambda: window.store is not None and window.store is not before, timeout=10000)
    assert window._current_section == section and window.banner.isHidden()
    assert window.store.counts()["memory"] == 2  # the reopened store holds the new memory


def test_cianaparrot_a_checkpoint_saved_by_langgraph_brings_the_reload_banner(qtbot, window, tmp_path):
    from tests.stores.cianaparrot.builder import make_checkpoints, make_deployment

    root = make_deployment(tmp_path / "ciana")
    open_and_wait(qtbot, window, root)
    _show(qtbot, window, "overview")
    qtbot.wait(300)
    assert not _banner_says_changed(window)
    make_checkpoints(root / "data" / "checkpoints.db", {"telegram_555": ["A new chat"]})  # the bot's saver
    qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)


def test_cianaparrot_a_task_the_scheduler_saves_brings_the_reload_banner(qtbot, window, tmp_path):
    from tests.stores.cianaparrot.builder import make_deployment

    root = make_deployment(tmp_path / "ciana")
    open_and_wait(qtbot, window, root)
    _show(qtbot, window, "overview")
    qtbot.wait(300)
    tasks = root / "data" / "scheduled_tasks.json"
    fd, tmp = tempfile.mkstemp(dir=tasks.parent)  # the scheduler replaces its file atomically
    with os.fdopen(fd, "w") as f:
        f.write(tasks.read_text().replace("Stretch!", "Stretch twice!"))
    os.replace(tmp, tasks)
    qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)


@pytest.fixture
def linggen_home(tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


def _a_session_file(home: Path) -> Path:
    return sorted(home.glob("projects/*/sessions/*/messages.jsonl"))[0]


def test_linggen_a_line_appended_to_a_session_not_shown_brings_the_reload_banner(qtbot, window, linggen_home):
    from tests.stores.linggen.builder import line

    open_and_wait(qtbot, window, linggen_home)
    _show(qtbot, window, "overview")
    qtbot.wait(300)
    assert not _banner_says_changed(window)
    with _a_session_file(linggen_home).open("a", encoding="utf-8") as f:  # Linggen appends a message
        f.write(line("user", "ling", "appended while the window reads"))
    qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)


def test_linggen_a_new_session_folder_brings_the_reload_banner(qtbot, window, linggen_home):
    open_and_wait(qtbot, window, linggen_home)
    _show(qtbot, window, "overview")
    qtbot.wait(300)
    sessions = _a_session_file(linggen_home).parent.parent
    new = sessions / "sess-1767400000-00000009"
    new.mkdir()
    (new / "session.yaml").write_text("id: sess-1767400000-00000009\ntitle: New\ncreated_at: 1767400000\n")
    qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)


def test_linggen_the_conversation_shown_grows_by_itself_without_a_banner(qtbot, window, linggen_home):
    from tests.stores.linggen.builder import line

    open_and_wait(qtbot, window, linggen_home)
    pane = _show(qtbot, window, "conversations")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 0, timeout=10000)
    qtbot.waitUntil(lambda: pane.session is not None and pane.conversation.model.rowCount() > 0, timeout=10000)
    followed = [Path(p) for p in pane.conversation._watch.watcher.files()]
    assert followed, "the session shown is followed live"
    with followed[0].open("a", encoding="utf-8") as f:
        f.write(line("user", "ling", "appended while the window reads"))
    qtbot.waitUntil(lambda: "appended while the window reads" in pane.shown_text(), timeout=10000)
    qtbot.wait(800)  # the watcher's burst is reported after its debounce
    assert not _banner_says_changed(window)


OPEN_TIMEOUT = 120_000  # a busy two-core machine: the copy and Node's start take seconds


def test_pglite_a_write_into_pg_wal_brings_the_reload_banner(qtbot, window, pglite_store, monkeypatch):
    from tests.pg_helpers import use_test_pglite

    tmp = Path(tempfile.mkdtemp(prefix="dg-watch-"))  # a short path: the sidecar's socket lives there
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.setenv("DAYCARE_GUI_PGLITE_DIR", str(use_test_pglite({})))
    try:
        open_and_wait(qtbot, window, pglite_store, timeout=OPEN_TIMEOUT)
        assert window.opened.generation == "pglite"
        _show(qtbot, window, "overview")
        qtbot.wait(300)
        assert not _banner_says_changed(window)
        segment = sorted(p for p in (pglite_store / "daycare.pglite" / "pg_wal").iterdir() if p.is_file())[0]
        os.utime(segment)  # Daycare's PGlite wrote a WAL record: the copy shown is now behind
        qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)
    finally:
        window.close_store()
        qtbot.waitUntil(lambda: not list(tmp.glob("daycare-gui-pglite-*")), timeout=OPEN_TIMEOUT)
        shutil.rmtree(tmp, ignore_errors=True)


def test_a_task_saved_through_the_window_brings_no_changed_on_disk_banner(qtbot, window, tmp_path, monkeypatch):
    """The window's own save is shown by the page that made it: the watcher must not take it for another
    program's change and offer a Reload; a change by another program right after still brings it."""
    from PySide6.QtWidgets import QPlainTextEdit

    from daycare_gui.ui.panes.generic import task_writes
    from tests.stores.cianaparrot.builder import make_deployment

    root = make_deployment(tmp_path / "cp")
    path = root / "data" / "scheduled_tasks.json"
    open_and_wait(qtbot, window, root)
    section = next(s for s in window._sections if "task" in s)
    pane = _show(qtbot, window, section)
    qtbot.waitUntil(lambda: pane.list.select_key("a1b2c3d4") and pane.list.current() is not None, timeout=5000)

    def user_types_a_prompt(dialog) -> bool:
        dialog.findChildren(QPlainTextEdit)[0].setPlainText("Check the weather, briefly")
        return True

    monkeypatch.setattr(task_writes.EditDialog, "exec", user_types_a_prompt)
    before = path.read_text()
    pane.edit()
    qtbot.waitUntil(lambda: path.read_text() != before, timeout=5000)
    qtbot.wait(1500)  # longer than the watcher's debounce: our own write must not raise the banner
    assert not _banner_says_changed(window)

    counters = root / "data" / "session_counters.json"
    counters.write_text('{"telegram_123456": 3}')  # the bot, a moment later
    qtbot.waitUntil(lambda: _banner_says_changed(window), timeout=10000)
