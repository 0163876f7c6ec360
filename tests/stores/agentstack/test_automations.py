"""AgentStack's task queue on the automations page: each agent type's task rows as its runs, with the
outcome their status says, queued and completed times, the output of a failed one as its error, and a
task whose session is over said to be one nothing will run (#36)."""

from __future__ import annotations

import sqlite3

from daycare_gui.stores.agentstack import write_demo
from daycare_gui.stores.api import Automations
from tests.stores.agentstack.builder import plain

OUTCOME = {"completed": "worked", "failed": "failed", "running": "running", "pending": "unknown"}


def test_the_demo_lists_every_task_row_as_a_run_of_its_agent_type(tmp_path, opened):
    db = write_demo(tmp_path / "demo")
    conn = plain(db)
    conn.row_factory = sqlite3.Row
    written = conn.execute("SELECT * FROM tasks ORDER BY created_at DESC, id").fetchall()
    conn.close()
    auto = opened(db).capability(Automations)
    assert [a.id for a in auto.automations()] == [f"agent:{t}" for t in sorted({r["agent_type"] for r in written})]
    listed = {r.id: r for a in auto.automations() for r in auto.runs(a.id)}
    assert list(listed) == [r["id"] for r in written if r["agent_type"] == "coder"] + [
        r["id"] for t in ("coordinator", "researcher", "reviewer") for r in written if r["agent_type"] == t]
    for row in written:
        run = listed[row["id"]]
        assert (run.outcome, run.started_at, run.finished_at) == (
            OUTCOME[row["status"]], row["created_at"], row["completed_at"])
    assert {r.outcome for r in listed.values()} >= {"worked", "failed", "running"}
    failed = next(r for r in listed.values() if r.outcome == "failed")
    assert failed.error == "Error: the payment sandbox refused the connection"
    stuck = next(r for r in listed.values() if dict(r.meta)["Status"] == "pending")
    assert stuck.evidence.startswith("pending, but its session has failed: nothing will run it")
    assert "AgentStack has no scheduler" in auto.automations()[0].notes[0]


def test_runs_of_a_built_store_newest_first_with_since_and_limit(build, opened):
    b = build()
    session = b.session("active")
    first = b.task("lint", session=session, status="completed", agent_type="tester")
    second = b.task("unit tests", session=session, status="failed", agent_type="tester")
    third = b.task("e2e", session=session, status="running", agent_type="tester")
    b.task("write code", session=session, agent_type="coder", status="failed",
           output="Error: provider said 401 for api_key=sk-live-abcdefghijklmnop")
    b.sql("UPDATE tasks SET completed_at = created_at + 30000 WHERE id IN (?, ?)", (first, second))
    b.close()
    auto = opened(b.path).capability(Automations)
    runs = auto.runs("agent:tester")
    assert [r.id for r in runs] == [third, second, first]
    assert [r.outcome for r in runs] == ["running", "failed", "worked"]
    assert runs[1].error == "" and "keeps no error text" in runs[1].evidence  # no output: nothing invented
    assert runs[2].finished_at == runs[2].started_at + 30000
    assert [r.id for r in auto.runs("agent:tester", since=runs[1].started_at, limit=1)] == [third]
    assert auto.run_sessions() == frozenset()  # AgentStack keeps no conversations to hide
    (coder,) = auto.runs("agent:coder")
    assert coder.error.startswith("Error: provider said 401") and "abcdefghijklmnop" not in coder.error
