"""CianaParrot's scheduled tasks on the automations page: one run per scheduler invocation, told from the
task's scheduler_<id> thread, with how it ended where the checkpoints say it and "unknown" where they do
not (#36). The stores are the demo's and ones LangGraph's own saver wrote."""

from __future__ import annotations

import asyncio
import json
import time

from daycare_gui.stores.api import Automations, Conversations
from daycare_gui.stores.cianaparrot import KIND
from daycare_gui.stores.cianaparrot.demo import FORECAST, SCHEDULED_RUNS, write_demo
from daycare_gui.stores.cianaparrot.files import iso_ms
from daycare_gui.stores.cianaparrot.liveness import BotStatus
from daycare_gui.stores.records import SessionRef
from tests.stores.cianaparrot.builder import make_deployment

DAY = 86_400_000


def test_the_demo_lists_each_run_of_its_forecast_task_with_its_outcome_and_start(tmp_path):
    root = write_demo(tmp_path / "ciana")
    last_run = iso_ms(json.loads((root / "data" / "scheduled_tasks.json").read_text())[0]["last_run"])
    with KIND.open(root) as store:
        auto = store.capability(Automations)
        assert [a.id for a in auto.automations()] == ["a1b2c3d4", "e5f6a7b8", "c9d0e1f2"]
        assert "sets a task's last_run before running it and only logs errors" in auto.automations()[0].notes[0]
        runs = auto.runs("a1b2c3d4")
        expected = {"worked": "worked", "failed": "failed", "cut off": "unknown"}
        assert [r.outcome for r in runs] == [expected[how] for how, _ in reversed(SCHEDULED_RUNS)]
        assert [r.started_at for r in runs] == [last_run - k * DAY for k in range(len(SCHEDULED_RUNS))]
        assert runs[2].error == SCHEDULED_RUNS[1][1] and runs[2].certainty == "reconstructed"
        assert runs[0].certainty == "partial" and "no error was stored" in runs[0].evidence
        assert "only logged" in runs[1].evidence and runs[1].finished_at > runs[1].started_at
        assert all(dict(r.meta)["Prompt"] == FORECAST for r in runs)
        assert runs[1].tokens == 490  # the two answers of that run, each counted once
        thread = SessionRef("scheduler_a1b2c3d4", "scheduler_a1b2c3d4")
        assert auto.run_sessions() == frozenset({thread})
        shown = {m.id for m in store.capability(Conversations).messages(thread, 0, 100)}
        assert {r.message_id for r in runs if r.outcome == "worked"} <= shown  # each opens at its run
        assert auto.runs("e5f6a7b8") == []  # last_run is set, but no run left a checkpoint: none is invented
        assert [r.id for r in auto.runs("a1b2c3d4", since=last_run - DAY, limit=1)] == [runs[0].id]
        store.status = BotStatus(True, "process 1 holds the database", "lock")
        assert auto.runs("a1b2c3d4")[0].outcome == "running"  # the newest, while the bot runs


def _scheduler_store(db, prompts: list[str]) -> list[tuple[float, float]]:
    """Invokes a real LangGraph graph on scheduler_a1b2c3d4 as the bot's scheduler does (the prompt as a
    plain user message), a node raising for a prompt that says "fail". Returns each invocation's span."""
    import aiosqlite
    from langchain_core.messages import AIMessage
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    def agent(state):
        last = state["messages"][-1]
        if "fail" in last.content:
            raise RuntimeError("the model provider refused the request")
        return {"messages": [AIMessage(content=f"Done: {last.content}",
                                       usage_metadata={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15})]}

    spans = []

    async def run():
        async with aiosqlite.connect(str(db)) as conn:
            g = StateGraph(MessagesState)
            g.add_node("agent", agent)
            g.add_edge(START, "agent")
            g.add_edge("agent", END)
            app = g.compile(checkpointer=AsyncSqliteSaver(conn))
            for prompt in prompts:
                before = time.time() * 1000
                try:
                    await app.ainvoke({"messages": [{"role": "user", "content": prompt}]},
                                      config={"configurable": {"thread_id": "scheduler_a1b2c3d4"}})
                except RuntimeError:
                    pass  # the bot's scheduler only logs it
                spans.append((before, time.time() * 1000))
            await app.ainvoke({"messages": [{"role": "user", "content": "hi"}]},  # a chat, not a task
                              config={"configurable": {"thread_id": "telegram_1"}})

    asyncio.run(run())
    return spans


def test_a_store_written_by_langgraph_gives_one_run_per_scheduler_invocation(tmp_path):
    root = make_deployment(tmp_path / "ciana", db=False)
    prompts = ["Forecast please", "Forecast, but fail", "Forecast again", "Forecast once more"]
    spans = _scheduler_store(root / "data" / "checkpoints.db", prompts)
    with KIND.open(root) as store:
        auto = store.capability(Automations)
        runs = list(reversed(auto.runs("a1b2c3d4")))  # oldest first, as invoked
        assert [dict(r.meta)["Prompt"] for r in runs] == prompts
        assert [r.outcome for r in runs] == ["worked", "failed", "worked", "worked"]
        assert "the model provider refused the request" in runs[1].error
        for run, (before, after) in zip(runs, spans):
            assert before - 1 <= run.started_at <= after + 1
        assert [r.tokens for r in runs] == [15, None, 15, 15]
        assert auto.run_sessions() == frozenset({SessionRef("scheduler_a1b2c3d4", "scheduler_a1b2c3d4")})


def test_a_task_gone_from_the_file_keeps_its_runs(tmp_path):
    root = make_deployment(tmp_path / "ciana", db=False)
    tasks_file = root / "data" / "scheduled_tasks.json"
    tasks_file.write_text(json.dumps([t for t in json.loads(tasks_file.read_text()) if t["id"] != "a1b2c3d4"]))
    _scheduler_store(root / "data" / "checkpoints.db", ["Forecast please"])
    with KIND.open(root) as store:
        auto = store.capability(Automations)
        gone = next(a for a in auto.automations() if a.id == "a1b2c3d4")
        assert gone.deleted and gone.task is None and "no longer in scheduled_tasks.json" in gone.title
        assert [r.outcome for r in auto.runs("a1b2c3d4")] == ["worked"]


def test_runs_are_kept_while_checkpoints_db_is_unchanged_and_read_again_after_a_commit(tmp_path):
    """The Automations page keeps the runs told from the checkpoints by the store's fingerprint (#36); CianaParrot
    had none, so every visit decoded the scheduler threads' checkpoints again."""
    import sqlite3

    from daycare_gui.stores.common.run_cache import RunCache

    root = write_demo(tmp_path / "ciana")
    with KIND.open(root) as store:
        cache = RunCache(store.capability(Automations))
        first = cache.runs("a1b2c3d4")
        assert cache.runs("a1b2c3d4") is first and cache.reads == 1
        with sqlite3.connect(root / "data" / "checkpoints.db") as conn:  # the bot commits a checkpoint
            conn.execute("CREATE TABLE IF NOT EXISTS a_later_write (x)")
        again = cache.runs("a1b2c3d4")
        assert cache.reads == 2 and [r.outcome for r in again] == [r.outcome for r in first]
