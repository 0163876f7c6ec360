"""Today's Daycare (PGlite and PostgreSQL) offers ``Automations``: the runs the demo wrote into the task agents
come back with their trigger, outcome, error and start time; a run_python call inside a reply is not a run."""

from __future__ import annotations

import psycopg

from daycare_gui.stores import api
from daycare_gui.stores.common.run_health import run_health
from daycare_gui.stores.daycare.pg.demo import DEMO_RUNS, RUN_ERROR
from daycare_gui.stores.registry import open_store
from tests.stores.daycare_pg.conftest import NOW_MS

PGLITE_NOW = 1_794_960_000_000  # the "--now 2026-11-18T00:00Z" the session's PGlite demo was written at


def runs_by_trigger(opened) -> dict[str, list[tuple[int, str, str]]]:
    cap = opened.capability(api.Automations)
    assert cap is not None
    out = {}
    for a in cap.automations():
        out[a.id] = [(r.started_at, r.outcome, r.error) for r in cap.runs(a.id)]
    return out


def expected(now=NOW_MS) -> dict[str, list[tuple[int, str, str]]]:
    out: dict[str, list] = {}
    for trigger, offset, outcome, error in DEMO_RUNS:
        kind = "webhook" if trigger.startswith("hook") else "cron"
        out.setdefault(f"{kind}:{trigger}", []).append((now + offset, outcome, error))
    return {k: sorted(v, reverse=True) for k, v in out.items()}


def test_pglite_demo_runs_are_the_runs_it_wrote(pglite_demo):
    with open_store(pglite_demo) as opened:
        got = runs_by_trigger(opened)
        cap = opened.capability(api.Automations)
        digest = next(a for a in cap.automations() if a.id == "cron:cron-digest")
        runs = cap.runs(digest.id)
        titles = {a.id: a.title for a in cap.automations()}
        sessions = cap.run_sessions()
    for trigger, runs_written in expected(PGLITE_NOW).items():
        assert got[trigger] == runs_written, trigger
    assert got["cron:cron-plants"] == []  # disabled, never ran
    assert got["task:u1owner/backup"] == []  # every backup run named its trigger
    assert [r.outcome for r in runs] == ["running", "skipped", "failed", "worked"]
    assert runs[2].error == RUN_ERROR and runs[2].tokens == 1940
    assert runs[0].session.thread_id == "agtaskdigest" and runs[0].message_id
    assert titles["webhook:hook-deploy"] == "Nightly backup check (webhook hook-deploy)"
    assert {s.thread_id for s in sessions} == {"agtaskdigest", "agtaskbackup"}
    # ten minutes in, the running run is not stuck; the digest ran yesterday, so it has not stopped firing
    health = run_health(digest, runs, now_ms=PGLITE_NOW)
    assert health.stuck == () and health.failed == 1 and health.last_failure.error == RUN_ERROR


def test_pglite_cli_json_and_inspect_summary(pglite_demo, capsys):
    import json

    from daycare_gui.cli import main

    assert main(["automations", str(pglite_demo), "--task", "cron-digest", "--json"]) == 0
    (digest,) = json.loads(capsys.readouterr().out)["automations"]
    assert [(r["started_ms"], r["outcome"], r["error"]) for r in digest["runs"]] == expected(PGLITE_NOW)["cron:cron-digest"]
    assert digest["schedule"]["timezone"] == "Europe/Lisbon"
    assert main(["inspect", str(pglite_demo), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["automations"]
    assert (summary["count"], summary["runs"], summary["failures"]) == (5, 6, 1)


def test_postgres_runs_and_a_python_call_in_a_reply_is_no_run(pg_fresh_url):
    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:
        # the digest agent's reply calls run_python: it writes rlm_start/rlm_complete under the reply's call id
        conn.execute(
            "INSERT INTO session_history (session_id, type, at, data) VALUES "
            "('staskdigest', 'assistant_message', %s, %s::jsonb), ('staskdigest', 'rlm_start', %s, %s::jsonb), "
            "('staskdigest', 'rlm_complete', %s, %s::jsonb)",
            (NOW_MS - 5 * 60_000, '{"text": "", "toolCalls": [{"id": "toolu_x", "name": "run_python"}]}',
             NOW_MS - 5 * 60_000 + 1, '{"toolCallId": "toolu_x", "code": "print(1)"}',
             NOW_MS - 5 * 60_000 + 2, '{"toolCallId": "toolu_x", "output": "1", "isError": false}'))
    with open_store(pg_fresh_url) as opened:
        got = runs_by_trigger(opened)
    want = expected()
    # the still-running code phase is no longer the agent's last record: it died
    want["cron:cron-digest"][0] = (NOW_MS - 10 * 60_000, "interrupted", "Python execution failed before completion.")
    assert got["cron:cron-digest"] == want["cron:cron-digest"]
    assert got["webhook:hook-deploy"] == want["webhook:hook-deploy"]


def test_runs_are_kept_while_the_database_is_unchanged_and_read_again_after_a_write(pg_fresh_url):
    """The Automations page keeps reconstructed runs by the store's fingerprint (#36): today's Daycare had none,
    so every visit read each task agent's history again. A run written by Daycare is seen at the next read."""
    from daycare_gui.stores.common.run_cache import RunCache

    with open_store(pg_fresh_url) as opened:
        cache = RunCache(opened.capability(api.Automations))
        first = cache.runs("cron:cron-digest")
        assert cache.runs("cron:cron-digest") is first and cache.reads == 1  # nothing written: kept
        with psycopg.connect(pg_fresh_url, autocommit=True) as conn:  # Daycare runs the digest again
            conn.execute(
                "INSERT INTO session_history (session_id, type, at, data) VALUES "
                "('staskdigest', 'rlm_start', %s, %s::jsonb), ('staskdigest', 'rlm_complete', %s, %s::jsonb)",
                (NOW_MS - 60_000, '{"toolCallId": "rc5digest", "code": "x"}',
                 NOW_MS - 58_000, '{"toolCallId": "rc5digest", "output": "Turn skipped", "isError": false}'))
        again = cache.runs("cron:cron-digest")
        assert cache.reads == 2 and (again[0].started_at, again[0].outcome) == (NOW_MS - 60_000, "skipped")


def test_pglite_runs_are_kept_while_its_copy_is_unchanged(pglite_demo):
    from daycare_gui.stores.common.run_cache import RunCache
    from daycare_gui.ui.panes.generic.automations import read_automations

    with open_store(pglite_demo) as opened:
        cache = RunCache(opened.capability(api.Automations))
        first = read_automations(cache)
        reads = cache.reads
        again = read_automations(cache)
        assert reads == len(first) and cache.reads == reads  # the second visit reads no history
        assert [s.health.summary() for s in again] == [s.health.summary() for s in first]


def test_a_code_phase_followed_by_the_next_run_is_no_longer_running(pg_fresh_url):
    """Daycare runs a task agent's work one at a time: a code phase with no rlm_complete that the next run's
    code phase follows died (it was listed "running", and flagged stuck two hours later)."""
    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO session_history (session_id, type, at, data) VALUES "
            "('staskdigest', 'rlm_start', %s, %s::jsonb), ('staskdigest', 'rlm_complete', %s, %s::jsonb)",
            (NOW_MS - 60_000, '{"toolCallId": "rc5digest", "code": "x"}',
             NOW_MS - 58_000, '{"toolCallId": "rc5digest", "output": "Turn skipped", "isError": false}'))
    with open_store(pg_fresh_url) as opened:
        runs = opened.capability(api.Automations).runs("cron:cron-digest")
    assert [(r.started_at, r.outcome, r.error) for r in runs[:2]] == [
        (NOW_MS - 60_000, "skipped", ""), (NOW_MS - 10 * 60_000, "interrupted", "Python execution failed before completion.")]


def test_the_store_daycare_7c3c466c_wrote_has_nothing_scheduled_and_says_so(pglite_fixture, capsys):
    from daycare_gui.cli import main

    assert main(["automations", str(pglite_fixture)]) == 0
    assert capsys.readouterr().out.strip() == "Nothing scheduled."


def test_a_deleted_trigger_keeps_its_runs(pg_fresh_url):
    """Daycare closes a deleted (or delete-after-run) trigger's row and keeps the runs in the task's agent: they
    were listed nowhere; now under the trigger, marked deleted, and health says its runs remain."""
    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:
        conn.execute("UPDATE tasks_cron SET valid_to = %s WHERE id = 'cron-backup'", (NOW_MS - 3_600_000,))
    with open_store(pg_fresh_url) as opened:
        cap = opened.capability(api.Automations)
        backup = next(a for a in cap.automations() if a.id == "cron:cron-backup")
        runs = cap.runs(backup.id)
        hook = cap.runs("webhook:hook-deploy")
    assert backup.deleted and backup.title == "Nightly backup check" and backup.task is None
    assert [(r.started_at, r.outcome) for r in runs] == [(t, o) for t, o, _e in expected()["cron:cron-backup"]]
    assert "The task was deleted; its one run remains" in run_health(backup, runs, now_ms=NOW_MS).problems()
    assert [(r.started_at, r.outcome) for r in hook] == [(t, o) for t, o, _e in expected()["webhook:hook-deploy"]]


def test_a_task_agents_records_are_read_once_for_every_automation_that_shares_it(pg_fresh_url, monkeypatch):
    """The page reads each automation's latest runs, then the selected one's all: the backup agent holds the runs
    of three automations (its cron and webhook triggers, the runs naming none), and each read its whole
    history again (on the 1M demo: seconds each). Now once per agent while the store is unchanged."""
    from daycare_gui.stores.common.run_cache import RunCache
    from daycare_gui.ui.panes.generic.automations import read_automations

    with open_store(pg_fresh_url) as opened:
        cap = opened.capability(api.Automations)
        reads = []
        rows = cap.db.rows

        def counting(sql, params=None):
            if "FROM session_history h WHERE" in sql:
                reads.append(params.get("a"))
            return rows(sql, params)

        monkeypatch.setattr(cap.db, "rows", counting)
        shown = read_automations(RunCache(cap))
        digest = RunCache(cap).runs("cron:cron-digest", limit=20_000)
        assert sorted(reads) == ["agtaskbackup", "agtaskdigest"]
        assert [(r.started_at, r.outcome, r.error) for r in digest] == expected()["cron:cron-digest"]
        assert {s.automation.id: s.health.runs_seen for s in shown}["webhook:hook-deploy"] == 1
        with psycopg.connect(pg_fresh_url, autocommit=True) as conn:  # a write: read again
            conn.execute("UPDATE tasks_cron SET last_run_at = last_run_at + 1 WHERE id = 'cron-digest'")
        cap.runs("cron:cron-digest")
        assert sorted(reads) == ["agtaskbackup", "agtaskdigest", "agtaskdigest"]


def test_inspects_summary_lists_the_automations_once_not_once_per_automation(pglite_demo):
    """``inspect`` asks each automation's runs in turn, and each call listed every automation again (five
    statements each: 30 of the small demo's 45). The list is kept while the store's snapshot is the same."""
    from daycare_gui.stores.common.run_report import automations_summary
    from tests.pg_helpers import traced_statements

    with open_store(pglite_demo) as opened:
        cap = opened.capability(api.Automations)
        statements = traced_statements(opened)
        summary = automations_summary(cap, now_ms=PGLITE_NOW)
        listed = [s for s in statements if "FROM tasks_cron c LEFT JOIN" in s]
        assert summary["count"] >= 3 and summary["runs"] > 0
        assert len(listed) == 1, statements  # (was once, then once more per automation)
