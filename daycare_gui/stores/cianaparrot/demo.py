"""``write_demo(dir)``: a small, realistic CianaParrot deployment for screenshots and benchmarks.

The checkpoints are written in LangGraph's SQLite layout and MessagePack format (extension code 5 for
messages) by hand, so the demo needs no LangGraph. Without ``now_ms`` its times are fixed (the same bytes
every time); with it (``daycare-gui demo --kind cianaparrot --now``) every time moves with that moment, and
the tasks are due after it, as a bot running now would have them.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import uuid
from pathlib import Path

import msgpack

_EPOCH = 0x01B21DD213814000
_START_MS = 1_771_900_000_000  # 2026-02-24
_NOW_MS = 1_772_011_800_000  # 2026-02-25 09:30 UTC: "now" for the fixed times below


def _cid(ms: int, seq: int) -> str:
    ticks = ms * 10_000 + _EPOCH
    h = f"{ticks:015x}"
    return str(uuid.UUID(f"{h[:8]}{h[8:12]}6{h[12:15]}{0x8000 + seq:04x}{seq:012x}"))


def _ext(code: int, *parts) -> msgpack.ExtType:
    return msgpack.ExtType(code, msgpack.packb(list(parts), use_bin_type=True))


def _msg(cls: str, module: str, **fields) -> msgpack.ExtType:
    base = {"additional_kwargs": {}, "response_metadata": {}, "name": None}
    return _ext(5, f"langchain_core.messages.{module}", cls, {**base, **fields}, "model_validate_json")


CONVERSATIONS = {
    "telegram_123456": [("What's the weather in Rome?", "web_search", "Rome: sunny, 18°C", "Sunny and 18°C in Rome.")],
    "telegram_123456_s1": [("Find me a pasta recipe", "web_search", "Cacio e pepe: pecorino, pepper",
                            "Try cacio e pepe: pecorino and black pepper."),
                           ("Add it to my reminders", "remindctl", "Reminder added", "Done, it's in Reminders.")],
    "telegram_789012": [("hello", None, None, "Hi! How can I help?")],
}
FORECAST = "Check the weather forecast and send me a summary"
# What langchain-anthropic puts in an answer's response_metadata: the model the costs page prices it with.
MODEL = {"model_name": "claude-sonnet-4-5-20250929", "model_provider": "anthropic", "stop_reason": "end_turn"}
# The daily forecast task's runs, oldest first, the last at its last_run: (how it went, its answer). Each is
# laid out as LangGraph's saver leaves an invocation: an "input" checkpoint whose __start__ writes carry the
# scheduler's message, a checkpoint per step with the step's writes against the one it ran from, and a last
# checkpoint with no writes when the graph reached its end.
SCHEDULED_RUNS = (
    ("worked", "Rain is expected after 3pm; take an umbrella."),
    ("failed", "RateLimitError('Error code: 429 - rate limit reached for requests')"),
    ("worked", "Sunny all day, 19°C at noon."),
    ("cut off", None),  # the agent asked for a tool and nothing followed: the bot stopped mid-run
)


def _iso(text: str, shift_ms: int) -> str:
    """A fixed time of the demo, moved by ``shift_ms``, in the bot's spelling (isoformat, UTC offset)."""
    moved = _dt.datetime.fromisoformat(text) + _dt.timedelta(milliseconds=shift_ms)
    return moved.isoformat()


def _last_cron_run(now_ms: int) -> str:
    """When a daily 08:00 UTC task last ran (12 s late) before ``now_ms``: its next run is still ahead."""
    now = _dt.datetime.fromtimestamp(now_ms / 1000, tz=_dt.timezone.utc)
    ran = now.replace(hour=8, minute=0, second=12, microsecond=0)
    if ran > now:
        ran -= _dt.timedelta(days=1)
    return ran.isoformat()


def _write_db(db: Path, shift_ms: int, last_run_ms: int) -> None:
    conn = sqlite3.connect(db)
    conn.executescript("""
        PRAGMA journal_mode=WAL;
        CREATE TABLE IF NOT EXISTS checkpoints (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '',
            checkpoint_id TEXT NOT NULL, parent_checkpoint_id TEXT, type TEXT, checkpoint BLOB, metadata BLOB,
            PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id));
        CREATE TABLE IF NOT EXISTS writes (thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '',
            checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL, task_path TEXT NOT NULL DEFAULT '',
            idx INTEGER NOT NULL, channel TEXT NOT NULL, type TEXT, value BLOB,
            PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx));
    """)
    ms, seq = _START_MS + shift_ms, 0
    for t, (thread, turns) in enumerate(CONVERSATIONS.items()):
        messages: list = []
        parent = None
        step = -1
        for n, (question, tool, result, answer) in enumerate(turns):
            new = [_msg("HumanMessage", "human", content=question, type="human", id=f"h-{t}-{n}")]
            if tool:
                call = f"toolu_{t}{n:02d}"
                new.append(_msg("AIMessage", "ai", content="", type="ai", id=f"a-{t}-{n}", invalid_tool_calls=[],
                                usage_metadata=None,
                                tool_calls=[{"name": tool, "args": {"query": question}, "id": call, "type": "tool_call"}]))
                new.append(_msg("ToolMessage", "tool", content=result, type="tool", id=f"t-{t}-{n}", tool_call_id=call,
                                name=tool, status="success", artifact=None))
            # (a later turn of a chat reads its start from the prompt cache: input_tokens includes it)
            cached = {"input_token_details": {"cache_read": 80, "cache_creation": 0}} if n else {}
            new.append(_msg("AIMessage", "ai", content=answer, type="ai", id=f"b-{t}-{n}", tool_calls=[],
                            invalid_tool_calls=[], response_metadata=MODEL,
                            usage_metadata={"input_tokens": 120, "output_tokens": 30, "total_tokens": 150,
                                            **cached}))
            for i, item in enumerate(new):
                ms += 1500
                seq += 1
                source = "input" if i == 0 else "loop"
                cid = _cid(ms, seq)
                messages.append(item)
                checkpoint = {"v": 4, "ts": _iso(f"2026-02-24T12:00:{seq % 60:02d}+00:00", shift_ms), "id": cid,
                              "channel_values": {"messages": list(messages)},
                              "channel_versions": {"messages": f"{seq:032d}.0.5"}, "versions_seen": {},
                              "updated_channels": ["messages"]}
                meta = {"source": source, "step": step, "parents": {}}
                conn.execute("INSERT INTO checkpoints VALUES (?, '', ?, ?, 'msgpack', ?, ?)",
                             (thread, cid, parent, msgpack.packb(checkpoint, use_bin_type=True),
                              json.dumps(meta).encode()))
                if parent is not None:
                    conn.execute("INSERT INTO writes VALUES (?, '', ?, ?, ?, 0, 'messages', 'msgpack', ?)",
                                 (thread, parent, f"task-{seq:04d}", "~__pregel_pull, agent",
                                  msgpack.packb([item], use_bin_type=True)))
                parent, step = cid, step + 1
    _scheduled_runs(conn, "scheduler_a1b2c3d4", last_run_ms)  # (its times follow last_run, moved already)
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)


def _scheduled_runs(conn: sqlite3.Connection, thread: str, last_run_ms: int) -> None:
    """The forecast task's runs, a day apart, the newest at its last_run (its thread as LangGraph writes it)."""
    messages: list = []
    parent, step, seq = None, -1, 1000

    def checkpoint(ms: int, source: str, writes: list[tuple[str, str, object]]) -> None:
        nonlocal parent, step, seq
        seq += 1
        cid = _cid(ms, seq)
        ts = _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).isoformat()
        state = {"v": 4, "ts": ts, "id": cid, "channel_values": {"messages": list(messages)},
                 "channel_versions": {"messages": f"{seq:032d}.0.5"}, "versions_seen": {},
                 "updated_channels": ["messages"]}
        conn.execute("INSERT INTO checkpoints VALUES (?, '', ?, ?, 'msgpack', ?, ?)",
                     (thread, cid, parent, msgpack.packb(state, use_bin_type=True),
                      json.dumps({"source": source, "step": step, "parents": {}}).encode()))
        task = str(uuid.UUID(int=seq))
        for idx, (channel, node, value) in enumerate(writes):
            tag, blob = ("null", None) if value is None else ("msgpack", msgpack.packb(value, use_bin_type=True))
            conn.execute("INSERT INTO writes VALUES (?, '', ?, ?, ?, ?, ?, ?, ?)",
                         (thread, cid, task, f"~__pregel_pull, {node}", -1 if channel == "__error__" else idx,
                          channel, tag, blob))
        parent, step = cid, step + 1

    for k, (how, answer) in enumerate(SCHEDULED_RUNS):
        ms = last_run_ms - (len(SCHEDULED_RUNS) - 1 - k) * 86_400_000
        checkpoint(ms, "input", [("messages", "__start__", [{"role": "user", "content": FORECAST}]),
                                 ("branch:to:agent", "__start__", None)])
        messages.append(_msg("HumanMessage", "human", content=FORECAST, type="human", id=f"sched-h-{k}"))
        if how == "failed":
            checkpoint(ms + 900, "loop", [("__error__", "agent", answer)])
            continue
        call = f"toolu_sched{k:02d}"
        asked = _msg("AIMessage", "ai", content="", type="ai", id=f"sched-a-{k}", invalid_tool_calls=[],
                     response_metadata={**MODEL, "stop_reason": "tool_use"}, usage_metadata={"input_tokens": 180, "output_tokens": 20, "total_tokens": 200},
                     tool_calls=[{"name": "web_search", "args": {"query": "weather forecast Rome"}, "id": call,
                                  "type": "tool_call"}])
        checkpoint(ms + 900, "loop", [("messages", "agent", [asked]), ("branch:to:tools", "agent", None)])
        if how == "cut off":
            continue
        messages.append(asked)
        result = _msg("ToolMessage", "tool", content="Rome: rain after 3pm" if k == 0 else "Rome: sunny, 19°C",
                      type="tool", id=f"sched-t-{k}", tool_call_id=call, name="web_search", status="success",
                      artifact=None)
        checkpoint(ms + 2400, "loop", [("messages", "tools", [result]), ("branch:to:agent", "tools", None)])
        messages.append(result)
        reply = _msg("AIMessage", "ai", content=answer, type="ai", id=f"sched-b-{k}", tool_calls=[],
                     invalid_tool_calls=[], response_metadata=MODEL, usage_metadata={"input_tokens": 260, "output_tokens": 30,
                                                            "total_tokens": 290})
        checkpoint(ms + 4800, "loop", [("messages", "agent", [reply])])
        messages.append(reply)
        checkpoint(ms + 4900, "loop", [])


def write_demo(directory, *, now_ms: int | None = None) -> Path:
    root = Path(directory)
    shift = 0 if now_ms is None else now_ms - _NOW_MS

    def at(text: str) -> str:
        return text if now_ms is None else _iso(text, shift)

    data, ws = root / "data", root / "workspace"
    (ws / "sessions").mkdir(parents=True, exist_ok=True)
    (ws / "skills" / "weather").mkdir(parents=True, exist_ok=True)
    data.mkdir(parents=True, exist_ok=True)
    (root / "config.yaml").write_text('agent:\n  workspace: "./workspace"\n  data_dir: "./data"\n'
                                      'scheduler:\n  enabled: true\n  data_file: "./data/scheduled_tasks.json"\n',
                                      encoding="utf-8")
    last_cron_run = "2026-02-25T08:00:12+00:00" if now_ms is None else _last_cron_run(now_ms)
    _write_db(data / "checkpoints.db", shift, int(_dt.datetime.fromisoformat(last_cron_run).timestamp() * 1000))
    (data / "session_counters.json").write_text(json.dumps({"telegram_123456": 1}, indent=2))
    tasks = [
        {"id": "a1b2c3d4", "prompt": "Check the weather forecast and send me a summary", "type": "cron",
         "value": "0 8 * * *", "channel": "telegram", "chat_id": "123456", "created_at": at("2026-02-24T10:00:00+00:00"),
         "last_run": last_cron_run, "active": True},
        {"id": "e5f6a7b8", "prompt": "Remind me to stretch", "type": "interval", "value": "3600",
         "channel": "telegram", "chat_id": "123456", "created_at": at("2026-02-24T10:05:00+00:00"),
         "last_run": at("2026-02-25T09:00:00+00:00"), "active": True, "model_tier": "lite"},
        {"id": "c9d0e1f2", "prompt": "Call mum", "type": "once", "value": at("2026-03-01T18:00:00+00:00"),
         "channel": "telegram", "chat_id": "789012", "created_at": at("2026-02-24T10:10:00+00:00"), "last_run": None,
         "active": True},
    ]
    (data / "scheduled_tasks.json").write_text(json.dumps(tasks, indent=2))
    (data / "cc_user_states.json").write_text(json.dumps({"123456": {
        "mode": "claude_code", "active_project": "2fUsers2fme2fProjects2fmyapp",
        "active_project_path": "/Users/me/Projects/myapp", "active_session_id": None, "active_model": "sonnet",
        "active_effort": "high"}}, indent=2))
    lines = [("user", "What's the weather in Rome?", "2026-02-24T12:00:01+00:00"),
             ("assistant", "Sunny and 18°C in Rome.", "2026-02-24T12:00:06+00:00")]
    (data / "sessions").mkdir(exist_ok=True)
    (data / "sessions" / "telegram_123456.jsonl").write_text("".join(
        json.dumps({"role": r, "content": c, "ts": ts, "channel": "telegram",
                    "user_id": "123456" if r == "user" else None}, ensure_ascii=False) + "\n" for r, c, ts in
        ((r, c, at(ts)) for r, c, ts in lines)),
        encoding="utf-8")
    (ws / "sessions" / "telegram_123456_s1.jsonl").write_text("".join(
        json.dumps({"role": r, "content": c, "ts": ts, "channel": "telegram",
                    "user_id": "123456" if r == "user" else None}, ensure_ascii=False) + "\n" for r, c, ts in [
            ("user", "Find me a pasta recipe", at("2026-02-24T12:01:00+00:00")),
            ("assistant", "Try cacio e pepe: pecorino and black pepper.", at("2026-02-24T12:01:09+00:00"))]),
        encoding="utf-8")
    (ws / "IDENTITY.md").write_text("# Ciana\n\nYou are Ciana, a cheerful parrot who helps with everyday tasks.\n")
    (ws / "AGENT.md").write_text("# Capabilities\n\n- web_search\n- schedule_task, list_tasks, cancel_task\n")
    (ws / "MEMORY.md").write_text("# Memory\n\n- Lives in Rome\n- Likes cacio e pepe\n")
    (ws / "skills" / "weather" / "SKILL.md").write_text(
        "---\nname: weather\ndescription: Current weather and forecasts\n---\n\nUse wttr.in for forecasts.\n")
    return root
