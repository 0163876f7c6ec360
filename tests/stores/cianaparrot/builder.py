"""Builds CianaParrot deployments for the tests: real checkpoint databases made by LangGraph itself
(langgraph + langgraph-checkpoint-sqlite + aiosqlite, pinned in the test extra), the bot's JSON files and
session logs, and the damage the as-built notes list (written byte by byte where LangGraph would not)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import msgpack

CHATS = {  # thread id → the user's messages, in the bot's id patterns and resets
    "telegram_123456": ["What's the weather in Rome?"],
    "telegram_123456_s1": ["Search the news", "And tomorrow?"],
    "telegram_123456_s2": ["Remember that I like tea"],
    "telegram_789012": ["hello"],
    "scheduler_a1b2c3d4": ["Check the weather forecast and send me a summary"],
}


def _graph(saver):
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.graph import END, START, MessagesState, StateGraph

    def agent(state):
        last = state["messages"][-1]
        if isinstance(last, HumanMessage):
            n = sum(isinstance(m, HumanMessage) for m in state["messages"])
            call = {"id": f"call_{n}_{abs(hash(last.content)) % 10_000}", "name": "web_search",
                    "args": {"query": last.content, "api_key": "sk-live-abcdefghijklmnop"}}
            return {"messages": [AIMessage(content="Let me look that up.", tool_calls=[call])]}
        return {"messages": [AIMessage(content=f"Here is what I found: {last.content}",
                                       usage_metadata={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15})]}

    def tools(state):
        call = state["messages"][-1].tool_calls[0]
        return {"messages": [ToolMessage(content=f"results for {call['args']['query']}", tool_call_id=call["id"],
                                         name=call["name"])]}

    def route(state):
        return "tools" if getattr(state["messages"][-1], "tool_calls", None) else END

    g = StateGraph(MessagesState)
    g.add_node("agent", agent)
    g.add_node("tools", tools)
    g.add_edge(START, "agent")
    g.add_conditional_edges("agent", route)
    g.add_edge("tools", "agent")
    return g.compile(checkpointer=saver)


def make_checkpoints(db: Path, chats: dict[str, list[str]] = CHATS) -> Path:
    """A genuine checkpoints.db written through AsyncSqliteSaver over aiosqlite, as the bot does."""
    import aiosqlite
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

    async def run():
        async with aiosqlite.connect(str(db)) as conn:
            app = _graph(AsyncSqliteSaver(conn))
            for thread, texts in chats.items():
                for text in texts:
                    await app.ainvoke({"messages": [HumanMessage(content=text)]},
                                      {"configurable": {"thread_id": thread}})

    db.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(run())
    return db


_TEMPLATE: dict[str, Path] = {}


def checkpoints_copy(target: Path) -> Path:
    """A copy of one real database made once per test session (LangGraph takes ~1 s to build it)."""
    import atexit
    import shutil
    import tempfile

    if "db" not in _TEMPLATE:
        folder = Path(tempfile.mkdtemp(prefix="cianaparrot-template-"))
        atexit.register(shutil.rmtree, folder, True)  # a test run leaves nothing in the temporary folder
        _TEMPLATE["db"] = make_checkpoints(folder / "checkpoints.db")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_TEMPLATE["db"], target)
    return target


TASKS = [
    {"id": "a1b2c3d4", "prompt": "Check the weather forecast and send me a summary", "type": "cron",
     "value": "0 8 * * *", "channel": "telegram", "chat_id": "123456", "created_at": "2026-02-24T10:00:00+00:00",
     "last_run": "2026-02-25T08:00:12+00:00", "active": True},
    {"id": "e5f6a7b8", "prompt": "Stretch!", "type": "interval", "value": "3600", "channel": "telegram",
     "chat_id": "123456", "created_at": "2026-02-24T10:00:00+00:00", "last_run": None, "active": True,
     "model_tier": "lite"},
    {"id": "c9d0e1f2", "prompt": "Call mum", "type": "once", "value": "2026-03-01T18:00:00", "channel": "telegram",
     "chat_id": "789012", "created_at": "2026-02-24T10:00:00+00:00", "last_run": "2026-03-01T18:00:30+00:00",
     "active": False},
    {"id": "0badc0de", "prompt": "Cancelled one", "type": "cron", "value": "*/5 * * * *", "channel": "telegram",
     "chat_id": "789012", "created_at": "2026-02-24T10:00:00+00:00", "last_run": None, "active": False},
]


def log_line(role: str, content: str, ts: str, user_id: str | None = "123456") -> str:
    return json.dumps({"role": role, "content": content, "ts": ts, "channel": "telegram",
                       "user_id": user_id if role == "user" else None}, ensure_ascii=False) + "\n"


def make_deployment(root: Path, *, db: bool = True, counters: dict | None = None) -> Path:
    """A deployment folder as the bot leaves it: config.yaml, data/, workspace/ with logs in both folders."""
    data, ws = root / "data", root / "workspace"
    (ws / "sessions").mkdir(parents=True)
    (data / "sessions").mkdir(parents=True)
    (root / "config.yaml").write_text("agent:\n  workspace: \"./workspace\"\n  data_dir: \"./data\"\n"
                                      "scheduler:\n  enabled: true\n  data_file: \"./data/scheduled_tasks.json\"\n"
                                      "provider:\n  api_key: \"sk-ant-secret-value-123\"\n")
    if db:
        checkpoints_copy(data / "checkpoints.db")
    (data / "session_counters.json").write_text(json.dumps(counters if counters is not None else
                                                           {"telegram_123456": 2}, indent=2))
    (data / "scheduled_tasks.json").write_text(json.dumps(TASKS, indent=2))
    (data / "cc_user_states.json").write_text(json.dumps({"123456": {
        "mode": "claude_code", "active_project": "2fUsers2fme2fProjects2fmyapp",
        "active_project_path": "/Users/me/Projects/myapp", "active_session_id": None,
        "active_model": "sonnet", "active_effort": "high"}}, indent=2))
    # The older folder holds the first session's start; the new one its continuation.
    (data / "sessions" / "telegram_123456.jsonl").write_text(
        log_line("user", "What's the weather in Rome?", "2026-02-24T14:30:00.123456+00:00")
        + log_line("assistant", "Sunny, 18°C.", "2026-02-24T14:30:05.789012+00:00"))
    (ws / "sessions" / "telegram_123456.jsonl").write_text(
        log_line("user", "Thanks!", "2026-04-02T09:00:00+00:00")
        + log_line("assistant", "You're welcome.", "2026-04-02T09:00:02+00:00"))
    (ws / "sessions" / "telegram_123456_s2.jsonl").write_text(
        log_line("user", "Remember that I like tea", "2026-04-03T10:00:00+00:00")
        + "{\"role\": \"assistant\", \"content\": \"Noted\n"  # a corrupt line
        + log_line("assistant", "Noted.", "2026-04-03T10:00:03+00:00")
        + "{\"role\": \"user\", \"content\": \"half")  # truncated by a crash
    (ws / "IDENTITY.md").write_text("# Ciana\n\nA helpful parrot.\n")
    (ws / "AGENT.md").write_text("# Tools\n\nweb_search, schedule_task\n")
    (ws / "MEMORY.md").write_text("# Memory\n\n- likes tea\n")
    (ws / "skills" / "weather").mkdir(parents=True)
    (ws / "skills" / "weather" / "SKILL.md").write_text("---\nname: weather\ndescription: Forecasts\n---\n\nUse wttr.in\n")
    return root


def ext(code: int, *parts) -> msgpack.ExtType:
    return msgpack.ExtType(code, msgpack.packb(list(parts), use_bin_type=True))


def message_ext(cls: str, module: str, **fields) -> msgpack.ExtType:
    return ext(5, f"langchain_core.messages.{module}", cls, fields, "model_validate_json")


def add_raw_checkpoint(db: Path, thread: str, checkpoint_id: str, tag: str, payload: bytes,
                       metadata: bytes = b'{"source": "loop", "step": 9, "parents": {}}', parent: str | None = None):
    """Write one checkpoint row by hand (pickle, encrypted, hand-made msgpack): LangGraph refuses to."""
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO checkpoints VALUES (?, '', ?, ?, ?, ?, ?)",
                     (thread, checkpoint_id, parent, tag, payload, metadata))
    conn.close()


def make_old_database(db: Path) -> Path:
    """A database as older langgraph-checkpoint-sqlite releases left it: no writes.task_path, ``json``
    payloads with ``lc`` envelopes, checkpoint format v1 with pending_sends, metadata with ``writes``."""
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db)
    conn.executescript("""
        CREATE TABLE checkpoints (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '',
            checkpoint_id TEXT NOT NULL, parent_checkpoint_id TEXT, type TEXT, checkpoint BLOB, metadata BLOB,
            PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id));
        CREATE TABLE writes (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '',
            checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL, idx INTEGER NOT NULL, channel TEXT NOT NULL,
            type TEXT, value BLOB, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx));
    """)

    def lc(cls, **kwargs):
        return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", cls], "kwargs": kwargs}

    msgs = [lc("HumanMessage", content="old hello", id="h1"),
            lc("AIMessage", content="", id="a1", additional_kwargs={"tool_calls": [
                {"id": "call_old", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}),
            lc("ToolMessage", content="12:00", tool_call_id="call_old", id="t1"),
            lc("AIMessage", content=[{"type": "text", "text": "It is noon."}], id="a2")]
    cp = {"v": 1, "ts": "2024-06-01T12:00:00+00:00", "id": "1ef1f0a0-0000-6000-8000-000000000001",
          "channel_values": {"messages": msgs}, "channel_versions": {"messages": 3}, "versions_seen": {},
          "pending_sends": []}
    meta = {"source": "loop", "step": 1, "writes": {"agent": {"messages": [msgs[-1]]}}, "parents": {}}
    conn.execute("INSERT INTO checkpoints VALUES ('telegram_555', '', ?, NULL, 'json', ?, ?)",
                 (cp["id"], json.dumps(cp).encode(), json.dumps(meta).encode()))
    conn.execute("INSERT INTO writes VALUES ('telegram_555', '', ?, 'task-1', 0, 'messages', 'json', ?)",
                 (cp["id"], json.dumps([msgs[-1]]).encode()))
    conn.commit()
    conn.close()
    return db
