"""The shared Automations page: on Daycare's SQLite demo and on the PGlite demo it lists each scheduled task with
its schedule in words and its health, the selected task's runs with the outcome and error the demo wrote, and a
double click opens the run's conversation at the record it starts at. A store with nothing scheduled says so."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from daycare_gui.stores.daycare.demo.db_rows import DIGEST_ERROR, build_small
from daycare_gui.stores.daycare.pg.demo import DEMO_RUNS, RUN_ERROR
from daycare_gui.stores.records import SessionRef
from tests.pg_helpers import use_test_pglite
from tests.ui.conftest import thread_rows
from tests.ui.test_people_panes import open_at, texts

PG_NOW = 1_795_000_000_000


def focused(view, message_id) -> bool:
    shown = view.model.record(max(0, view.current_row()))
    return shown is not None and shown.id == message_id


def column(model, title):
    return next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == title)


def select(pane, qtbot, title):
    qtbot.waitUntil(lambda: title in texts(pane.list.records.proxy, 0), timeout=20000)
    pane.table.selectRow(texts(pane.list.records.proxy, 0).index(title))
    qtbot.waitUntil(lambda: pane.runs.records.proxy.rowCount() > 0, timeout=20000)
    return pane.runs.records.proxy


def test_sqlite_demo_lists_tasks_runs_and_opens_a_run_at_its_record(qtbot, window, demo_store):
    pane = open_at(qtbot, window, demo_store, "automations")
    model = build_small()
    runs = select(pane, qtbot, "Daily digest")
    listed = pane.list.records.proxy
    row = texts(listed, 0).index("Daily digest")
    assert texts(listed, column(listed, "Schedule"))[row] == "At 07:00 AM"
    assert texts(listed, column(listed, "Runs"))[row] == "4"
    assert texts(listed, column(listed, "Health"))[row].startswith("67% of the last 4 worked")
    outcomes = texts(runs, column(runs, "Outcome"))
    assert outcomes == ["skipped", "worked", f"failed: {DIGEST_ERROR}", "worked"]
    written = sorted((r for r in model.scheduled_runs if r["task"] == "daily-digest"), key=lambda r: -r["started_at"])
    assert [r.started_at for r in pane.runs.records.model.records()[1:]] == [w["started_at"] for w in written]
    # the failed run opens Daycare's conversation page at its system message
    pane.runs.table.selectRow(2)
    assert pane.open_button.isEnabled()
    run = pane.runs.current()
    pane.open_run()
    assert window._current_section == "history"
    view = window.panes["history"].view
    failed = written[1]
    qtbot.waitUntil(lambda: view.ref is not None and view.ref.session_id == failed["session_id"]
                    and focused(view, run.message_id), timeout=20000)
    qtbot.waitUntil(lambda: "gmail_search failed" in window.panes["history"].conversation.toPlainText(),
                    timeout=20000)  # the run's error is in the message it opens at
    # a skipped run left no records: nothing to open
    pane_again = open_at(qtbot, window, demo_store, "automations")
    select(pane_again, qtbot, "Daily digest")
    pane_again.runs.table.selectRow(0)
    assert not pane_again.open_button.isEnabled()


def test_sqlite_demo_heartbeat_batch_and_a_stuck_run_are_said(qtbot, window, demo_store):
    pane = open_at(qtbot, window, demo_store, "automations")
    runs = select(pane, qtbot, "Weekly review")
    assert texts(runs, column(runs, "Outcome"))[0] == "running"
    assert "still running after" in pane.health_label.text()
    runs = select(pane, qtbot, "Heartbeat batch of Alex Rivera (2: Check inbox, Plant care)")
    qtbot.waitUntil(lambda: runs.rowCount() == 5, timeout=20000)
    assert texts(runs, column(runs, "Outcome")) == ["unknown"] + ["worked"] * 4
    assert "every heartbeat row" in pane.health_label.text()
    # each run says which heartbeats its batch ran (Daycare's last_run_at stamps say nothing of it)
    told = texts(runs, column(runs, "Told from"))
    assert "another user's batch" in told[0]
    assert all("it ran 2 heartbeats (Check inbox, Plant care)" in t for t in told[1:])


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=PG_NOW)
    return folder


def test_pglite_demo_runs_and_open_in_the_shared_conversations(qtbot, window, pglite_demo):
    from tests.ui.conftest import open_and_wait

    open_and_wait(qtbot, window, pglite_demo, timeout=60000)  # (PGlite starts under Node first)
    window.show_section("automations")
    pane = window.panes["automations"]
    runs = select(pane, qtbot, "Morning digest")
    want = sorted(((PG_NOW + off, out, err) for trig, off, out, err in DEMO_RUNS if trig == "cron-digest"),
                  reverse=True)
    assert [(r.started_at, r.outcome, r.error) for r in pane.runs.records.model.records()] == want
    assert texts(runs, column(runs, "Outcome"))[2] == f"failed: {RUN_ERROR}"
    pane.runs.table.selectRow(2)
    run = pane.runs.current()
    pane.open_run()
    assert window._current_section == "history"  # Daycare's conversation page, as on its SQLite stores
    history = window.panes["history"]
    qtbot.waitUntil(lambda: history.view.ref is not None and history.view.ref.session_id == "staskdigest"
                    and focused(history.view, run.message_id), timeout=20000)


def test_a_store_with_nothing_scheduled_says_so(qtbot, window, demo_store, tmp_path):
    import shutil
    import sqlite3

    from tests.ui.conftest import open_and_wait

    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)  # a private copy: no tasks, so no runs to tell
    with sqlite3.connect(store / "daycare.db") as conn:
        conn.execute("DELETE FROM tasks_cron")
        conn.execute("DELETE FROM tasks_heartbeat")
    shutil.rmtree(store / "cron")
    shutil.rmtree(store / "heartbeat")
    open_and_wait(qtbot, window, store)
    window.show_section("automations")
    pane = window.panes["automations"]
    qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.nothing, timeout=20000)
    assert pane.nothing.text().startswith("Nothing scheduled")


def _hide_runs(qtbot, pane) -> set[str]:
    qtbot.waitUntil(lambda: pane.threads.loaded and "scheduled-runs" in pane.threads.flag_boxes, timeout=20000)
    before = {r.key for r in thread_rows(qtbot, pane)}
    box = pane.threads.flag_boxes["scheduled-runs"]
    assert box.text() == "Hide scheduled runs" and not box.isChecked()
    box.setChecked(True)
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() < len(before), timeout=20000)
    after = {r.key for r in thread_rows(qtbot, pane)}
    return before - after


def test_hide_scheduled_runs_takes_the_task_agents_out_of_the_agent_list(qtbot, window, demo_store):
    model = build_small()
    pane = open_at(qtbot, window, demo_store, "agents")
    hidden = _hide_runs(qtbot, pane)
    assert hidden == {model.agents[r] for r in ("cron_digest", "cron_review", "sys_heartbeat")}
    assert pane.threads.summary.text() == f"{len(thread_rows(qtbot, pane))} agents"  # said as a filter
    # a task agent's session asked for by name (a link, a run) shows its agent again: the filter is cleared
    digest = next(r for r in model.scheduled_runs if r["task"] == "daily-digest")
    ref = SessionRef(model.agents["cron_digest"], digest["session_id"])
    pane.open_item(ref)
    qtbot.waitUntil(lambda: pane.session == ref, timeout=20000)
    assert not pane.threads.flag_boxes["scheduled-runs"].isChecked()


def test_hide_scheduled_runs_on_the_pglite_demo(qtbot, window, pglite_demo):
    from tests.ui.conftest import open_and_wait

    open_and_wait(qtbot, window, pglite_demo, timeout=60000)
    window.show_section("agents")
    pane = window.panes["agents"]
    assert _hide_runs(qtbot, pane) == {"agtaskdigest", "agtaskbackup"}


def test_hide_scheduled_runs_starts_on_where_runs_are_many_and_can_be_turned_off(qtbot, window, demo_store, tmp_path):
    import shutil
    import sqlite3

    from daycare_gui.ui.panes.generic.thread_list import MANY_RUN_SESSIONS

    model = build_small()
    store = tmp_path / "busy"
    shutil.copytree(demo_store, store)
    digest = model.agents["cron_digest"]
    with sqlite3.connect(store / "daycare.db") as conn:  # a session per run, as Daycare's cron agents keep them
        conn.executemany("INSERT INTO sessions (id, agent_id, created_at) VALUES (?, ?, ?)",
                         [(f"run-session-{i:03}", digest, 1_700_000_000_000 + i) for i in range(MANY_RUN_SESSIONS)])
    pane = open_at(qtbot, window, store, "agents")
    qtbot.waitUntil(lambda: "scheduled-runs" in pane.threads.flag_boxes, timeout=20000)
    box = pane.threads.flag_boxes["scheduled-runs"]
    qtbot.waitUntil(lambda: box.isVisibleTo(pane.threads), timeout=20000)  # (a widget added is shown queued)
    assert box.isChecked() and str(MANY_RUN_SESSIONS) in box.toolTip()
    hidden = {model.agents[r] for r in ("cron_digest", "cron_review", "sys_heartbeat")}
    qtbot.waitUntil(lambda: not hidden & {r.key for r in thread_rows(qtbot, pane)}, timeout=20000)
    box.setChecked(False)  # turned off: the task agents are listed again
    qtbot.waitUntil(lambda: hidden <= {r.key for r in thread_rows(qtbot, pane)}, timeout=20000)


def test_an_agent_list_that_starts_with_runs_hidden_is_read_once_and_reads_no_agents_sessions(
        qtbot, window, demo_store, tmp_path, monkeypatch):
    """Where runs are many, the Agents page's first list already leaves the task agents out, read in one go:
    the thread keys once (not a first read thrown away once the filters said to hide runs) and no agent's
    session list (Daycare's task agents hold only runs: the run sessions name them). On the 1M-record demo
    those reads kept the list off screen for a third of a second."""
    import shutil
    import sqlite3

    from daycare_gui.stores.daycare.sqlite.conversations import SqliteConversations
    from daycare_gui.ui.panes.generic.thread_list import MANY_RUN_SESSIONS, ThreadList

    model = build_small()
    store = tmp_path / "busy"
    shutil.copytree(demo_store, store)
    with sqlite3.connect(store / "daycare.db") as conn:
        conn.executemany("INSERT INTO sessions (id, agent_id, created_at) VALUES (?, ?, ?)",
                         [(f"run-session-{i:03}", model.agents["cron_digest"], 1_700_000_000_000 + i)
                          for i in range(MANY_RUN_SESSIONS)])
    reads = {"keys": 0, "sessions": 0}
    shown: list[tuple[dict, list]] = []  # what had been read when each list of keys was shown, and the keys
    keys, sessions, arrived = SqliteConversations.keys, SqliteConversations.sessions, ThreadList._keys_arrived

    def counted(name, fn):
        def call(self, *args, **kwargs):
            reads[name] += 1
            return fn(self, *args, **kwargs)
        return call

    def list_shown(self, keys_shown, first):
        shown.append((dict(reads), list(keys_shown)))
        return arrived(self, keys_shown, first)

    monkeypatch.setattr(SqliteConversations, "keys", counted("keys", keys))
    monkeypatch.setattr(SqliteConversations, "sessions", counted("sessions", sessions))
    monkeypatch.setattr(ThreadList, "_keys_arrived", list_shown)
    pane = open_at(qtbot, window, store, "agents")
    qtbot.waitUntil(lambda: bool(shown), timeout=20000)
    read_then, listed = shown[0]
    hidden = {model.agents[r] for r in ("cron_digest", "cron_review", "sys_heartbeat")}
    assert listed and not hidden & set(listed)
    assert read_then == {"keys": 1, "sessions": 0}
    assert pane.threads.flag_boxes["scheduled-runs"].isChecked()


def test_selecting_agents_with_runs_hidden_reads_the_run_sessions_no_more(qtbot, window, demo_store, tmp_path,
                                                                          monkeypatch):
    """The session list of each agent selected leaves the run sessions out with those read with the agent list,
    not read again for every click (one query over every session: ~90 ms on the 1M-record demo)."""
    import shutil
    import sqlite3

    from daycare_gui.stores.daycare.sqlite.automations import DaycareAutomations
    from daycare_gui.ui.panes.generic.thread_list import MANY_RUN_SESSIONS

    model = build_small()
    store = tmp_path / "busy"
    shutil.copytree(demo_store, store)
    digest = model.agents["cron_digest"]
    with sqlite3.connect(store / "daycare.db") as conn:
        conn.executemany("INSERT INTO sessions (id, agent_id, created_at) VALUES (?, ?, ?)",
                         [(f"run-session-{i:03}", digest, 1_700_000_000_000 + i) for i in range(MANY_RUN_SESSIONS)])
    reads = []
    run_sessions = DaycareAutomations.run_sessions
    monkeypatch.setattr(DaycareAutomations, "run_sessions", lambda self: reads.append(1) or run_sessions(self))
    pane = open_at(qtbot, window, store, "agents")
    qtbot.waitUntil(lambda: pane.threads.loaded and pane.session is not None, timeout=20000)
    before = len(reads)
    for name in ("sam_telegram", "perm_ops"):
        pane.threads.select_key(model.agents[name])
        qtbot.waitUntil(lambda a=model.agents[name]: pane.session is not None and pane.session.thread_id == a,
                        timeout=20000)
    assert len(reads) == before
    # a cron agent asked for by name still lists its runs (the filter is cleared for it)
    pane.open_item(SessionRef(digest, "run-session-007"))
    qtbot.waitUntil(lambda: pane.session == SessionRef(digest, "run-session-007"), timeout=20000)


def test_a_filter_typed_before_the_first_list_arrives_still_hides_the_runs(qtbot, window, demo_store, tmp_path):
    """The first list is read with the filter bar; a filter typed before it arrives asks for newer keys, read
    before the bar said to hide runs: those are read again, so the list never shows task agents under a
    checked "Hide scheduled runs"."""
    import shutil
    import sqlite3

    from daycare_gui.ui.panes.generic.thread_list import MANY_RUN_SESSIONS

    model = build_small()
    store = tmp_path / "busy"
    shutil.copytree(demo_store, store)
    with sqlite3.connect(store / "daycare.db") as conn:
        conn.executemany("INSERT INTO sessions (id, agent_id, created_at) VALUES (?, ?, ?)",
                         [(f"run-session-{i:03}", model.agents["cron_digest"], 1_700_000_000_000 + i)
                          for i in range(MANY_RUN_SESSIONS)])
    from tests.ui.conftest import open_and_wait

    open_and_wait(qtbot, window, store)
    window.worker.hold()  # the first list's read waits until the filter is typed
    window.show_section("agents")
    pane = window.panes["agents"]
    pane.threads.filter_box.setText("a")
    pane.threads.filter_box.changed.emit("a")  # (as the box does after its pause)
    window.worker.release()
    qtbot.waitUntil(lambda: pane.threads.loaded and "scheduled-runs" in pane.threads.flag_boxes, timeout=20000)
    qtbot.waitUntil(lambda: not window.worker.is_busy(), timeout=20000)
    assert pane.threads.flag_boxes["scheduled-runs"].isChecked()
    listed = {pane.threads.model.key(r) for r in range(pane.threads.model.rowCount())}
    hidden = {model.agents[r] for r in ("cron_digest", "cron_review", "sys_heartbeat")}
    assert listed and not hidden & listed


def test_a_run_is_drawn_stuck_only_once_health_calls_it_stuck():
    """A run that started ten minutes ago is still running, not stuck (it was drawn red with a warning, as
    one running for days); after STUCK_AFTER_MS it is marked as health says it."""
    from daycare_gui.stores.common.run_health import STUCK_AFTER_MS
    from daycare_gui.stores.records import Run
    from daycare_gui.ui.panes.generic.automations import _run_state

    now = 1_795_000_000_000
    assert _run_state(Run("r", "a", now - 10 * 60_000, outcome="running"), now) is None
    assert _run_state(Run("r", "a", now - STUCK_AFTER_MS - 1, outcome="running"), now) == "stuck"
    assert _run_state(Run("r", "a", now, outcome="failed"), now) == "error"


def test_the_list_opens_with_what_needs_a_look_first(qtbot, window, demo_store):
    """A stuck or failing automation is at the top and selected, a disabled one at the bottom: the list is not
    sorted Z to A by name (what a table sorted by default on its first column does)."""
    pane = open_at(qtbot, window, demo_store, "automations")
    listed = pane.list.records.proxy
    qtbot.waitUntil(lambda: listed.rowCount() > 2, timeout=20000)
    states = [pane.list.records.model.records()[listed.mapToSource(listed.index(r, 0)).row()]
              for r in range(listed.rowCount())]
    from daycare_gui.ui.panes.generic.automations import _attention

    ranks = [_attention(s) for s in states]
    assert ranks == sorted(ranks) and ranks[0] < 2 and ranks[-1] == 3  # the demo has a failing and a disabled task
    assert pane.list.current() is states[0]
