"""A person's path through the window: user → their agents → a session → a tool result, with filters,
on the demo store and on a real Daycare fixture; and the window's own behaviour (welcome page, recent
stores, drop a folder, change banner, remembered geometry, keyboard)."""

import sqlite3

from PySide6.QtCore import QMimeData, QPoint, Qt, QUrl
from PySide6.QtGui import QDropEvent

from tests.ui.conftest import open_and_wait, thread_rows


def _wait_rows(qtbot, model, n=None):
    qtbot.waitUntil(lambda: model.rowCount() > 0 if n is None else model.rowCount() == n, timeout=5000)


def test_user_to_agent_to_session_to_tool_result(qtbot, window, demo_store):
    # the owner's telegram agent holds a session where a tool call has a result
    conn = sqlite3.connect(f"file:{demo_store / 'daycare.db'}?immutable=1", uri=True)
    session_id, agent_id, user_id = conn.execute(
        "SELECT s.id, a.id, a.user_id FROM session_history h JOIN sessions s ON s.id = h.session_id "
        "JOIN agents a ON a.id = s.agent_id WHERE h.type = 'tool_result' AND a.type = 'user' "
        "ORDER BY h.id LIMIT 1").fetchone()
    conn.close()
    open_and_wait(qtbot, window, demo_store)

    window.show_section("collection:users")
    users = window.panes["collection:users"]
    qtbot.waitUntil(lambda: users.tree.topLevelItemCount() == 4, timeout=5000)
    users.open_item(user_id)
    assert users.current_row().key == user_id
    users._link(QUrl("link:0"))  # "Agents of …": this user's agents

    agents = window.panes["agents"]
    assert window.pane_stack.currentWidget() is agents
    threads = agents.threads
    qtbot.waitUntil(lambda: "user" in threads.choice_boxes
                    and threads.choice_boxes["user"].currentData() == user_id, timeout=5000)
    qtbot.waitUntil(lambda: threads.model.row_of_key(agent_id) >= 0, timeout=5000)
    # every agent listed belongs to that user (the filter ran in SQL)
    assert {r.raw["user_id"] for r in thread_rows(qtbot, agents)} == {user_id}

    threads.table.selectRow(threads.model.row_of_key(agent_id))
    qtbot.waitUntil(lambda: agents.sessions.records.proxy_row_of_key(session_id) >= 0, timeout=5000)
    agents.sessions.table.selectRow(agents.sessions.records.proxy_row_of_key(session_id))  # read it, beside
    view = agents.conversation
    qtbot.waitUntil(lambda: view.model.rowCount() > 0, timeout=5000)
    # find the tool result row and open it
    rows = range(view.model.rowCount())
    for r in rows:
        view.model.request_row(r)
    qtbot.waitUntil(lambda: all(view.model.record(r) is not None for r in rows), timeout=5000)
    result_row = next(r for r in rows if view.model.record(r).kind == "tool_result")
    view.go_to_row(result_row)
    result = view.model.record(result_row)
    qtbot.waitUntil(lambda: window.detail.item is not None and str(result.id) in window.detail.item.title, timeout=5000)
    # the conversation shows the call and its result text together
    qtbot.waitUntil(lambda: " result" in view.conversation.toPlainText(), timeout=5000)
    assert (result.tool_result.text or "").splitlines()[0][:30] in view.conversation.toPlainText()

    # Back from another page returns to the agents page, keeping its filter
    window.show_section("inbox")
    window.go_back()
    assert window.pane_stack.currentWidget() is agents and threads.choice_boxes["user"].currentData() == user_id


def test_fixture_store_journey(qtbot, window, fixture_copy):
    root = fixture_copy("daycare-808af509")
    open_and_wait(qtbot, window, root)
    window.show_section("agents")
    agents = window.panes["agents"]
    _wait_rows(qtbot, agents.threads.model, 2)
    agents.filter_box.setText("telegram")
    qtbot.waitUntil(lambda: agents.threads.model.rowCount() == 1, timeout=5000)
    agents.threads.table.selectRow(0)
    qtbot.waitUntil(lambda: agents.sessions.records.model.rowCount() == 2, timeout=5000)
    active = next(s for s in agents.sessions.records.visible_records() if s.status == "active")
    assert active.status == "active" and ("Reset message", "manual reset") in active.meta
    window.navigate("history", (active.ref.thread_id, active.ref.session_id, None))
    history = window.panes["history"]
    qtbot.waitUntil(lambda: "Agent booted" in history.conversation.toPlainText(), timeout=5000)
    # the session the Agents page picked beside its list is drawn too: the two views' reads never cancel
    # each other (they once shared one worker channel, and the Agents page stayed "Loading…")
    qtbot.waitUntil(lambda: "Agent booted" in agents.conversation.conversation.toPlainText(), timeout=5000)
    # the bad legacy line is listed in Problems, with its file and line
    window.show_section("problems")
    problems = window.panes["problems"]

    def bad_line_listed():
        rows = [[problems.proxy.index(r, c).data() for c in range(4)] for r in range(problems.proxy.rowCount())]
        return any(path.endswith("agents/agentusr1/history.jsonl") and line == "6" for _s, path, line, _m in rows)

    qtbot.waitUntil(bad_line_listed, timeout=5000)


def test_welcome_recent_and_reopen_last(qtbot, settings, demo_store, fixture_copy):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    make_application()
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.show()
    assert w.central.currentWidget() is w.welcome  # nothing opened yet
    open_and_wait(qtbot, w, demo_store)
    assert w.recent_menu.actions()[0].text() == str(demo_store.resolve())
    w.close()  # remembers geometry, splitter and the last store
    assert settings.value("geometry") is not None and settings.value("main_splitter") is not None

    w2 = MainWindow(settings)
    qtbot.addWidget(w2)
    w2.show()
    w2.open_initial(None, demo=False)  # no PATH: the last store comes back
    qtbot.waitUntil(lambda: w2.store is not None, timeout=10000)
    assert w2.opened.core.paths.root == demo_store.resolve() or w2.opened.core.paths.root == demo_store
    assert w2.welcome.recent.count() >= 1
    w2.close_store()
    w2.worker.shutdown()
    w2.bg_worker.shutdown()


def test_dropping_a_folder_opens_it(qtbot, window, fixture_copy):
    root = fixture_copy("daycare-stuck")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(root))])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    window.dropEvent(event)
    qtbot.waitUntil(lambda: window.store is not None, timeout=10000)
    assert window.opened.core.migrations.next_later == "20260227_require_cron_task_id"


def test_a_change_on_disk_shows_the_reload_banner(qtbot, window, fixture_copy):
    root = fixture_copy("daycare-808af509")
    open_and_wait(qtbot, window, root)
    assert not window.banner.isVisible()
    task = root / "cron" / "dailycleanup" / "TASK.md"
    task.write_text(task.read_text() + "\nMore.\n")
    qtbot.waitUntil(lambda: window.banner.isVisible(), timeout=5000)
    assert "changed on disk" in window.banner.label.text() and window.banner.button.text() == "Reload"
    window.banner.button.click()  # Reload reopens the store; nothing reloaded before that
    qtbot.waitUntil(lambda: not window.banner.isVisible(), timeout=5000)


def test_status_bar_and_keyboard(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    assert "read-only" in window.status_mode.text()
    assert window.status_engine.text() == "engine not running"
    window.show_section("agents")
    agents = window.panes["agents"]
    window.actions_.actions["filter"].trigger()  # Ctrl+F
    qtbot.waitUntil(lambda: agents.filter_box.hasFocus(), timeout=2000)
    window.actions_.actions["focus_nav"].trigger()  # Ctrl+L
    qtbot.waitUntil(lambda: window.nav.hasFocus(), timeout=2000)
    # arrow keys in the tree change the page
    window.nav.select("overview")
    qtbot.keyClick(window.nav, Qt.Key.Key_Down)
    qtbot.waitUntil(lambda: window.pane_stack.currentWidget() is window.panes.get("collection:users"), timeout=5000)


def test_ctrl_f_reaches_the_filter_of_every_page_that_has_one(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    for spec in list(window._sections.values()):
        if spec.id in ("history",):
            continue
        window.show_section(spec.id)
        pane = window.panes[spec.id]
        window.actions_.actions["filter"].trigger()
        box = getattr(pane, "filter_box", None) or getattr(pane, "query_box", None)
        if box is not None:
            qtbot.waitUntil(lambda b=box: b.hasFocus(), timeout=2000)


def test_opening_a_folder_that_is_not_daycare_says_why(qtbot, window, tmp_path):
    (tmp_path / "photos").mkdir()
    window.open_path(str(tmp_path / "photos"))
    qtbot.waitUntil(lambda: window.welcome.declined.isVisible(), timeout=5000)
    text = window.welcome.declined.text()
    assert "not a store that daycare-gui knows" in text and "not a Daycare data directory" in text
    assert window.store is None and window.central.currentWidget() is window.welcome


def test_a_store_with_broken_files_opens_and_lists_them(qtbot, window, tmp_path):
    from daycare_gui.stores.daycare.demo import write_demo

    root = tmp_path / "daycare"
    write_demo(root)
    (root / "signals" / "delayed.json").write_text('{"version": 1, "events": [')  # truncated JSON
    (root / "heartbeat" / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n")
    (root / "cron" / "latin1").mkdir()
    (root / "cron" / "latin1" / "TASK.md").write_bytes(b"---\nname: caf\xe9\n---\nx\n")
    open_and_wait(qtbot, window, root)
    window.show_section("problems")
    pane = window.panes["problems"]
    qtbot.waitUntil(lambda: pane.model.rowCount() >= 3, timeout=5000)
    paths = [pane.model.index(r, 1).data() for r in range(pane.model.rowCount())]
    assert any(p.endswith("delayed.json") for p in paths)
    assert any(p.endswith("broken.md") for p in paths)
    assert any(p.endswith("latin1/TASK.md") for p in paths)
    # and everything else still loads
    window.show_section("agents")
    qtbot.waitUntil(lambda: window.panes["agents"].threads.model.rowCount() == 15, timeout=5000)


def test_a_legacy_store_reads_its_sessions_as_conversations(qtbot, window, fixture_copy):
    root = fixture_copy("daycare-808af509", with_db=False)
    open_and_wait(qtbot, window, root)
    window.show_section("agents")
    agents = window.panes["agents"]
    threads = agents.threads
    _wait_rows(qtbot, threads.model, 2)
    row = threads.model.row_of_key("agentusr1")
    threads.table.selectRow(row)
    qtbot.waitUntil(lambda: agents.sessions.records.model.rowCount() == 2, timeout=5000)
    qtbot.waitUntil(lambda: threads.model.record(row) is not None, timeout=5000)  # rows arrive on demand
    assert threads.model.record(row).values[0] == "telegram user 42 · chat-42"
    first, second = sorted(agents.sessions.records.visible_records(), key=lambda s: s.started_at or 0)
    assert second.status == "active" and ("Reset message", "manual reset") in second.meta and second.message_count == 1
    agents.sessions.select_key(first.ref.session_id)  # the first session, read beside the list
    view = agents.conversation
    qtbot.waitUntil(lambda: "hello" in view.conversation.toPlainText(), timeout=5000)
    assert "hi!" in view.conversation.toPlainText() and "agentusr1#1" in view.heading.text()
    view.show_raw_row(0)  # "raw JSON" of the record on line 2
    qtbot.waitUntil(lambda: window.detail.item is not None and "Raw" in window.detail.item.title, timeout=5000)
    assert window.detail.item.raw["text"] == "hello" and "id 2" in window.detail.item.title
    # the kind filter works without a database too
    qtbot.waitUntil(lambda: "kind" in threads.choice_boxes, timeout=5000)
    threads.choice_boxes["kind"].setCurrentIndex(threads.choice_boxes["kind"].findData("cron"))
    qtbot.waitUntil(lambda: threads.model.rowCount() == 1, timeout=5000)


def test_open_demo_writes_a_fresh_store_and_removes_it_on_close(qtbot, settings):
    from daycare_gui.ui.app import make_application
    from daycare_gui.ui.main_window import MainWindow

    make_application()
    w = MainWindow(settings)
    qtbot.addWidget(w)
    w.show()
    w.open_demo()
    qtbot.waitUntil(lambda: w.store is not None, timeout=15000)
    folder = w.opened.core.paths.root.parent
    assert folder.exists() and w.opened.core.generation == "sqlite"
    assert settings.value("recent") in (None, [], "")  # a demo is not a store to remember
    w.close()
    assert not folder.exists()
