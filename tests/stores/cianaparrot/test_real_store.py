"""A deployment whose checkpoints LangGraph itself wrote: chats, threads in reset order, messages with
tool calls paired to results, the checkpoint timeline, inspect --json — and not one byte written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from daycare_gui.cli import main
from daycare_gui.stores import registry
from daycare_gui.stores.api import Charts, Collections, Conversations, Documents, Tables, Tasks
from daycare_gui.stores.records import SessionRef
from tests.conftest import snapshot_tree

REPO = Path(__file__).resolve().parents[3]


def test_chats_group_threads_in_reset_order_with_scheduler_threads_beside_their_task(opened):
    conv = opened.capability(Conversations)
    chats = {t.id: t for t in conv.threads()}
    assert list(chats) == ["telegram_123456", "telegram_789012", "scheduler_a1b2c3d4"]
    assert chats["telegram_123456"].title == "telegram 123456" and chats["telegram_123456"].session_count == 3
    assert chats["scheduler_a1b2c3d4"].title.startswith("Task a1b2c3d4: Check the weather forecast")
    assert "cron 0 8 * * *" in chats["scheduler_a1b2c3d4"].subtitle
    sessions = conv.sessions("telegram_123456")
    assert [s.ref.session_id for s in sessions] == [
        "telegram_123456", "log:telegram_123456", "telegram_123456_s1", "telegram_123456_s2",
        "log:telegram_123456_s2"]
    assert [s.status for s in sessions if not s.ref.session_id.startswith("log:")] == ["earlier", "earlier", "current"]
    tasks = {t.id: t for t in opened.capability(Tasks).tasks()}
    assert ("thread", "scheduler_a1b2c3d4 (5 checkpoints)") in tasks["a1b2c3d4"].meta


def test_latest_checkpoint_shows_the_conversation_with_tool_calls_paired(opened):
    conv = opened.capability(Conversations)
    ref = SessionRef("telegram_123456", "telegram_123456_s1")
    assert conv.message_count(ref) == 8
    msgs = conv.messages(ref, 0, 100)
    assert [m.role for m in msgs] == ["user", "assistant", "tool", "assistant"] * 2
    assert msgs[0].text == "Search the news" and msgs[0].kind == "HumanMessage"
    call = msgs[1].tool_calls[0]
    assert call.name == "web_search" and call.arguments["query"] == "Search the news"
    assert call.arguments["api_key"] != "sk-live-abcdefghijklmnop"  # masked before it leaves the kind
    assert msgs[2].tool_result.call_id == call.id and msgs[2].tool_result.text == "results for Search the news"
    assert msgs[3].text == "Here is what I found: results for Search the news"
    assert ("tokens", "15") in msgs[3].meta
    assert [m.text for m in conv.messages(ref, 6, 5)] == ["results for And tomorrow?",
                                                          "Here is what I found: results for And tomorrow?"]
    assert len({m.id for m in msgs}) == 8


def test_session_logs_from_both_folders_merge_in_time_order_marked_by_origin(opened):
    conv = opened.capability(Conversations)
    msgs = conv.messages(SessionRef("telegram_123456", "log:telegram_123456"), 0, 10)
    assert [m.text for m in msgs] == ["What's the weather in Rome?", "Sunny, 18°C.", "Thanks!", "You're welcome."]
    assert [dict(m.meta)["origin"] for m in msgs] == ["data/sessions"] * 2 + ["workspace/sessions"] * 2
    bad = conv.messages(SessionRef("telegram_123456", "log:telegram_123456_s2"), 0, 10)
    assert [m.role for m in bad] == ["user", "note", "assistant", "note"]
    assert "unparseable" in bad[1].problem and "truncated" in bad[3].problem


def test_timeline_lists_each_step_with_its_source_and_writes(opened):
    cols = opened.capability(Collections)
    assert [c.id for c in cols.collections()] == ["checkpoints", "counters", "claude_code", "session_logs"]
    total = cols.size("checkpoints")
    assert total == 5 + 30  # one row per thread plus its checkpoints
    rows = [r for off in range(0, total, 7) for r in cols.rows("checkpoints", off, 7)]
    assert len(rows) == total and len({r.key for r in rows}) == total
    first = rows[0]
    assert first.key == "t:telegram_123456" and first.links[0].value == SessionRef("telegram_123456", "telegram_123456")
    steps = [r for r in rows if r.parent == "t:telegram_123456"]
    assert [(r.values[1], r.values[2]) for r in steps] == [(-1, "input"), (0, "loop"), (1, "loop"), (2, "loop"),
                                                           (3, "loop")]
    assert steps[0].values[3].startswith("messages: HumanMessage: What's the weather in Rome?")
    assert "→ agent" in steps[0].values[3]
    assert "AIMessage" in steps[1].values[3] and "web_search" in steps[1].values[3] and "→ tools" in steps[1].values[3]
    assert "task_path" not in steps[1].markdown and "~__pregel_pull, agent" in steps[1].markdown
    assert steps[-1].values[3] == ""  # the final checkpoint wrote nothing after it


def test_other_capabilities(opened):
    docs = opened.capability(Documents).documents()
    assert [(d.group, d.title) for d in docs] == [("Workspace", "IDENTITY.md"), ("Workspace", "AGENT.md"),
                                                  ("Workspace", "MEMORY.md"), ("Skills", "weather")]
    tables = {t.name: t.count for t in opened.capability(Tables).tables()}
    assert tables == {"checkpoints": 30, "writes": 42}
    row = opened.capability(Tables).rows("checkpoints", 0, 1)[0]
    assert row[5].startswith("<") and "bytes:" in row[5]
    series = {d.series for d in opened.capability(Charts).activity_per_day()}
    assert series == {"checkpoints", "log: user", "log: assistant"}
    cc = opened.capability(Collections).rows("claude_code", 0, 10)
    assert cc[0].values[:3] == ("123456", "claude_code", "2fUsers2fme2fProjects2fmyapp")


def test_registry_picks_cianaparrot_and_inspect_json_reports_everything(deployment, capsys):
    assert registry.choose(deployment).name == "cianaparrot"
    before = snapshot_tree(deployment)
    assert main(["inspect", str(deployment), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert snapshot_tree(deployment) == before
    assert report["kind"] == "cianaparrot" and report["generation"] == "langgraph-sqlite"
    assert report["open_mode"] == "immutable" and report["engine_running"] is False
    c = report["counts"]
    assert (c["chats"], c["threads"], c["checkpoints"], c["writes"]) == (3, 5, 30, 42)
    threads = {t["id"]: t for t in report["threads"]}
    assert threads["telegram_123456_s1"]["messages"] == 8 and threads["telegram_123456_s1"]["tool_calls"] == 2
    assert threads["telegram_123456_s2"]["log_messages"] == 2 and threads["telegram_123456_s2"]["log_bad_lines"] == 2
    assert report["scheduled_tasks"] == {"by_type": {"cron": 2, "interval": 1, "once": 1},
                                         "by_state": {"active": 2, "done": 1, "cancelled": 1},
                                         "model_tiers": {"lite": 1}}
    assert report["database"]["payload_types"] == {"checkpoints": {"msgpack": 30}, "writes": {"msgpack": 24, "null": 18}}
    assert report["session_counters"] == {"telegram_123456": {"counter": 2}}
    assert {(p["line"], p["path"].endswith("telegram_123456_s2.jsonl")) for p in report["problems"]} == {
        (2, True), (4, True)}
    assert "sk-ant-secret" not in json.dumps(report)


def test_reading_never_imports_langgraph_and_never_writes(deployment):
    """In a fresh interpreter (the tests themselves import LangGraph to build databases)."""
    script = f"""
import sys
from daycare_gui.stores import registry
from daycare_gui.stores.api import Collections, Conversations, Tasks, Documents, Tables, Charts, Actions
from daycare_gui.stores.report import inspect_report
store = registry.open_store({str(deployment)!r})
conv = store.capability(Conversations)
for chat in conv.threads():
    for s in conv.sessions(chat.id):
        conv.messages(s.ref, 0, 100)
cols = store.capability(Collections)
for c in cols.collections():
    cols.rows(c.id, 0, cols.size(c.id))
store.capability(Tasks).tasks(); store.capability(Documents).documents(); store.capability(Charts).activity_per_day()
store.capability(Actions).run("counters-check"); store.capability(Actions).run("db-check")
inspect_report(store)
store.close()
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("langgraph", "langchain_core", "ormsgpack", "pickle5"))
print("IMPORTED:", bad)
"""
    before = snapshot_tree(deployment)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO,
                         env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "IMPORTED: []" in out.stdout
    assert snapshot_tree(deployment) == before


def test_search_source_yields_every_message_once_then_only_what_changed(deployment):
    from daycare_gui.stores.api import SearchSource
    from daycare_gui.stores.cianaparrot import KIND

    with KIND.open(deployment) as store:
        search = store.capability(SearchSource)
        got = list(search.messages(None))
        cursors = [c for c, _, _ in got]
        assert cursors == sorted(cursors) and len(set(cursors)) == len(cursors)
        assert len([1 for _, ref, _ in got if not ref.session_id.startswith("log:")]) == 4 + 4 + 8 + 4 + 4
        assert any(m.text == "Thanks!" for _, _, m in got)
        assert list(search.messages(cursors[-1])) == []
        assert search.identity().startswith("cianaparrot:")


def test_tasks_show_their_next_run_as_the_bots_scheduler_computes_it(opened):
    import datetime as dt

    from daycare_gui.stores.cianaparrot.tasks import next_run

    tasks = {t.id: t for t in opened.capability(Tasks).tasks()}
    cron = tasks["a1b2c3d4"]
    assert (cron.schedule_kind, cron.schedule, cron.timezone, cron.enabled) == ("cron", "0 8 * * *", "UTC", True)
    assert cron.next_run_at == int(dt.datetime(2026, 2, 26, 8, tzinfo=dt.timezone.utc).timestamp() * 1000)
    assert ("model tier", "lite") in tasks["e5f6a7b8"].meta
    assert dict(tasks["c9d0e1f2"].meta)["state"] == "done" and tasks["c9d0e1f2"].next_run_at is None
    assert dict(tasks["0badc0de"].meta)["state"] == "cancelled"
    now = 1_800_000_000_000
    assert next_run({"type": "interval", "value": "3600", "last_run": None}, now) == (now, None)  # due at once
    assert next_run({"type": "interval", "value": "60", "last_run": "2027-01-15T08:00:00+00:00"}, now)[0] == \
        int(dt.datetime(2027, 1, 15, 8, 1, tzinfo=dt.timezone.utc).timestamp() * 1000)
    assert next_run({"type": "once", "value": "2027-01-15T08:00:00", "last_run": None}, now)[0] == \
        int(dt.datetime(2027, 1, 15, 8, tzinfo=dt.timezone.utc).timestamp() * 1000)  # naive means UTC
