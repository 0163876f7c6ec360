"""Daycare's SQLite generation offers ``Automations``: the runs the demo wrote come back as runs, each with the
outcome, error and start time a person would check, found through the records the run left."""

from __future__ import annotations

import pytest

from daycare_gui.stores import api
from daycare_gui.stores.common.run_health import run_health
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.db_rows import DIGEST_ERROR, build_small
from daycare_gui.stores.daycare.demo.ids import DAY, HOUR, MINUTE, NOW_MS
from daycare_gui.stores.registry import open_store


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(root)
    opened = open_store(root)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def model():
    return build_small()


def autos(opened) -> api.Automations:
    cap = opened.capability(api.Automations)
    assert cap is not None
    return cap


def by_title(cap, title):
    return next(a for a in cap.automations() if a.title == title)


def test_each_cron_task_and_each_users_heartbeat_batch_is_an_automation(demo):
    titles = {a.title for a in autos(demo).automations()}
    assert {"Daily digest", "Weekly review", "Dentist reminder", "Back up photos", "Stand-up notes"} <= titles
    assert "Heartbeat batch of Alex Rivera (2: Check inbox, Plant care)" in titles
    digest = by_title(autos(demo), "Daily digest")
    assert digest.task.schedule == "0 7 * * *"


def test_the_digest_runs_are_the_runs_the_demo_wrote_with_outcome_error_and_start(demo, model):
    cap = autos(demo)
    runs = cap.runs(by_title(cap, "Daily digest").id)
    written = sorted((r for r in model.scheduled_runs if r["task"] == "daily-digest"),
                     key=lambda r: r["started_at"], reverse=True)
    told = [r for r in runs if r.certainty == "reconstructed"]
    assert [(r.started_at, r.outcome, r.error) for r in told] == [
        (w["started_at"], w["outcome"], w["error"]) for w in written]
    assert [r.outcome for r in told] == ["worked", "failed", "worked"]
    assert told[1].error == DIGEST_ERROR
    # each opens at its system message in the digest agent's session, with the tokens its replies used
    assert [r.session.session_id for r in told] == [w["session_id"] for w in written]
    assert all(r.message_id and r.tokens and r.finished_at > r.started_at for r in told)
    # the newest: last_run_at 5 hours ago, no records after it — the code skipped
    assert runs[0].outcome == "skipped" and runs[0].started_at == NOW_MS - 5 * HOUR
    assert runs[0].certainty == "partial" and "skip()" in runs[0].evidence


def test_a_cron_run_queued_days_ago_is_still_running_and_health_flags_it(demo):
    cap = autos(demo)
    review = by_title(cap, "Weekly review")
    runs = cap.runs(review.id)
    assert [r.outcome for r in runs] == ["running", "skipped", "worked"]
    assert runs[0].started_at == NOW_MS - 2 * DAY - 7 * HOUR and "inbox" in runs[0].evidence
    health = run_health(review, runs, now_ms=NOW_MS)
    assert [r.id for r in health.stuck] == [runs[0].id]
    assert any(p.startswith(f"Run {runs[0].id} still running after 2 days") for p in health.problems())


def test_the_heartbeat_batch_lists_its_runs_and_says_how_daycare_stamps_last_run_at(demo, model):
    cap = autos(demo)
    batch = by_title(cap, "Heartbeat batch of Alex Rivera (2: Check inbox, Plant care)")
    runs = cap.runs(batch.id)
    written = sorted((r["started_at"] for r in model.scheduled_runs if r["task"] == "heartbeat"), reverse=True)
    assert [r.started_at for r in runs[1:]] == written and {r.outcome for r in runs[1:]} == {"worked"}
    # the heartbeats were stamped 25 minutes ago with no batch message since: a batch ran then and wrote nothing,
    # or the stamp was another user's; listed as that, so the batch does not read as stopped firing 19 days ago
    assert (runs[0].started_at, runs[0].outcome, runs[0].certainty) == (model.heartbeat_last_run, "unknown", "partial")
    assert "another user's batch" in runs[0].evidence
    assert not run_health(batch, runs, now_ms=NOW_MS).stopped_firing
    assert any("every heartbeat row's last_run_at" in n for n in batch.notes)
    assert batch.task.schedule_kind == "interval" and batch.task.schedule == "1800"


def test_runs_are_keyed_newest_first_and_bounded(demo, model):
    cap = autos(demo)
    digest = by_title(cap, "Daily digest").id
    everything = cap.runs(digest)
    assert cap.runs(digest, limit=2) == everything[:2]
    cut = everything[2].started_at
    assert cap.runs(digest, since=cut) == [r for r in everything if r.started_at >= cut]


def test_run_sessions_are_the_task_agents_sessions_only(demo, model):
    refs = autos(demo).run_sessions()
    ids = {ref.session_id for ref in refs}
    for role in ("cron_digest", "cron_review", "sys_heartbeat"):
        assert {s["id"] for s, _ in model.sessions_by_agent[role]} <= ids
    assert not ({s["id"] for s, _ in model.sessions_by_agent["alex_telegram"]} & ids)


def test_the_808af509_fixtures_cron_task_ran_without_records(fixture_copy):
    opened = open_store(fixture_copy("daycare-808af509"))
    try:
        cap = autos(opened)
        cleanup = by_title(cap, "Daily cleanup")
        runs = cap.runs(cleanup.id)
        # its last run time came with it; its (legacy, per-task) cron agent holds no record of it
        assert [(r.outcome, r.started_at, r.certainty) for r in runs] == [("skipped", 1771466400000, "partial")]
        assert run_health(cleanup, runs, now_ms=1771466400000 + 3 * DAY + 10 * MINUTE).missed_since_last == 3
    finally:
        opened.close()


def test_a_deleted_delete_after_run_task_keeps_its_runs_in_the_shared_cron_agent(tmp_path):
    """Daycare hard-deletes a delete-after-run row after its run; the run it left in the user's shared cron agent
    is still listed, under the task marked deleted."""
    import json
    import sqlite3

    from daycare_gui.stores.daycare.demo.db_rows import cron_run_text

    root = tmp_path / "daycare"
    write_demo(root)
    m = build_small()
    owner = m.users["owner"]
    with sqlite3.connect(root / "daycare.db") as conn:
        conn.execute("INSERT INTO agents (id, user_id, type, descriptor, active_session_id, permissions, lifecycle, "
                     "created_at, updated_at) VALUES ('syscron', ?, 'system', ?, 'scron', '{}', 'active', ?, ?)",
                     (owner, json.dumps({"type": "system", "tag": "cron"}), NOW_MS - DAY, NOW_MS - DAY))
        conn.execute("INSERT INTO sessions (id, agent_id, created_at) VALUES ('scron', 'syscron', ?)", (NOW_MS - DAY,))
        text = cron_run_text("pay-rent", "r3nt0000000000000000000a", "Pay the rent")
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES ('scron', 'user_message', ?, ?)",
                     (NOW_MS - DAY, json.dumps({"text": text, "files": []})))
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES ('scron', 'assistant_message', "
                     "?, ?)", (NOW_MS - DAY + 5000, json.dumps({"text": "Reminded Alex.", "toolCalls": [],
                                                                 "tokens": None})))
    opened = open_store(root)
    try:
        cap = autos(opened)
        rent = by_title(cap, "Pay the rent")
        assert rent.deleted and rent.id == "cron:pay-rent"
        runs = cap.runs(rent.id)
        assert [(r.started_at, r.outcome) for r in runs] == [(NOW_MS - DAY, "worked")]
        assert runs[0].session.thread_id == "syscron"
        assert "The task was deleted; its one run remains" in run_health(rent, runs, now_ms=NOW_MS).problems()
        # the shared agent's run belongs to Stand-up notes only when it names it: none listed there
        assert [r.outcome for r in cap.runs(by_title(cap, "Stand-up notes").id)] == ["skipped"]
        assert any(ref.thread_id == "syscron" for ref in cap.run_sessions())  # hidden as scheduled runs
    finally:
        opened.close()


def test_each_heartbeat_run_says_which_heartbeats_it_ran_and_which_were_stamped_without_running(tmp_path):
    """Daycare runs a user's heartbeats as one batch and stamps every row's last_run_at, even for a heartbeat a
    batch left out (``runNow({ids})``): each run says which it ran, and which it did not though stamped."""
    import json
    import sqlite3

    root = tmp_path / "daycare"
    write_demo(root)
    m = build_small()
    agent = m.agents["sys_heartbeat"]
    with sqlite3.connect(root / "daycare.db") as conn:
        session = conn.execute("SELECT active_session_id FROM agents WHERE id = ?", (agent,)).fetchone()[0]
        one = ('<system_message origin="heartbeat">Heartbeat: Check inbox (id: check-inbox)\n\n'
               '1. Reply to Sam (id: not-a-task)</system_message>')  # (an output line after it is no heartbeat)
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
                     (session, NOW_MS - 10 * MINUTE, json.dumps({"text": one, "files": []})))
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'assistant_message', ?, ?)",
                     (session, NOW_MS - 9 * MINUTE, json.dumps({"text": "Inbox checked.", "toolCalls": []})))
    opened = open_store(root)
    try:
        cap = autos(opened)
        batch = by_title(cap, "Heartbeat batch of Alex Rivera (2: Check inbox, Plant care)")
        runs = cap.runs(batch.id)
        assert runs[0].started_at == NOW_MS - 10 * MINUTE and runs[0].outcome == "worked"
        assert dict(runs[0].meta)["Heartbeats run"] == "Check inbox"
        assert dict(runs[0].meta)["Not run"] == "Plant care (Daycare stamped their last_run_at all the same)"
        assert "not Plant care, whose last_run_at Daycare stamped all the same" in runs[0].evidence
        # the demo's batches ran both
        assert all(dict(r.meta)["Heartbeats run"] == "Check inbox, Plant care" and "Not run" not in dict(r.meta)
                   for r in runs[1:])
        assert "it ran 2 heartbeats (Check inbox, Plant care)" in runs[1].evidence
    finally:
        opened.close()


def test_a_heartbeat_task_says_its_last_run_time_is_every_batchs_stamp(demo):
    """The Heartbeat tasks page shows a heartbeat's last_run_at as its last run: each says it is the stamp
    Daycare puts on every heartbeat after any batch, ran or not (#36)."""
    tasks = demo.capability(api.Tasks).tasks()
    inbox = next(t for t in tasks if t.schedule_kind == "heartbeat" and t.id == "check-inbox")
    assert dict(inbox.meta)["Last run time"].startswith("stamped on every heartbeat after each batch of any user")
    never = next(t for t in tasks if t.schedule_kind == "heartbeat" and t.id == "weekly-budget")
    assert "Last run time" not in dict(never.meta)  # (never stamped: nothing to say)
    assert all("Last run time" not in dict(t.meta) for t in tasks if t.schedule_kind == "cron")


def test_run_sessions_are_found_through_the_agents_not_by_reading_every_session(demo, monkeypatch):
    """The Agents page's first list reads the run sessions (to hide them): its query picks the task agents and
    finds their sessions by the sessions' agent index, rather than reading every session of the store and looking
    each one's agent up (8-10 ms on the 1M-record demo's 20,000 sessions, against ~2)."""
    import re
    import sqlite3

    cap = autos(demo)
    asked: list[str] = []
    rows = cap.db.rows
    monkeypatch.setattr(cap.db, "rows", lambda sql, params=None: asked.append(sql) or rows(sql, params))
    assert cap.run_sessions()
    conn = sqlite3.connect(f"file:{demo.core.paths.db_path}?mode=ro", uri=True)
    try:
        steps = [row[3] for sql in asked for row in conn.execute("EXPLAIN QUERY PLAN " + sql)]
    finally:
        conn.close()
    assert asked and not [s for s in steps if re.match(r"SCAN (sessions|s)\b", s)], steps
    assert any("idx_sessions_agent_id" in s for s in steps), steps
