"""``inspect --json`` for CianaParrot: threads, checkpoints, writes, messages per thread, tasks, counters."""

from __future__ import annotations

import sqlite3
from collections import Counter

from daycare_gui.stores.api import Conversations
from daycare_gui.stores.cianaparrot.bot_json import as_text, json_safe
from daycare_gui.stores.cianaparrot.checkpoints import id_time_ms
from daycare_gui.stores.cianaparrot.files import task_state
from daycare_gui.stores.cianaparrot.sqlite_ro import wal_size


def _iso(ms):
    import datetime as dt

    return None if ms is None else dt.datetime.fromtimestamp(ms / 1000, dt.timezone.utc).isoformat()


def counts_of(store) -> dict[str, int]:
    cps = writes = 0
    if store.reader is not None:
        try:
            cps, writes = store.reader.totals()
        except sqlite3.Error:
            pass
    tasks = store.tasks or []
    return {
        "chats": len(store.chats()),
        "threads": len(store.threads),
        "checkpoints": cps,
        "writes": writes,
        "session_logs": sum(len(v) for v in store.logs.values()),
        "scheduled_tasks": len(tasks),
        "active_tasks": sum(1 for t in tasks if task_state(t) == "active"),
        "session_counters": len(store.counters or {}),
        "counters_too_low": len(store.counter_findings()),
        "claude_code_states": len(store.cc_states or {}),
    }


def report_of(store) -> dict:
    conv = store.capability(Conversations)
    threads = []
    for info in sorted(store.threads.values(), key=lambda i: (i.chat, i.n, i.id)):
        entry = {"id": info.id, "chat": info.chat, "session": info.n, "checkpoints": info.checkpoints,
                 "writes": info.writes, "latest_checkpoint": info.latest, "updated_at": _iso(id_time_ms(info.latest)),
                 "session_logs": [{"origin": log.origin, "path": str(log.path)} for log in info.logs]}
        if info.subgraph_checkpoints:
            entry["subgraph_checkpoints"] = info.subgraph_checkpoints
        if info.checkpoints and conv is not None:
            msgs = [m for m in conv._checkpoint_messages(info.id) if m.kind not in ("note",) or m.role != "note"]
            entry["messages"] = len(msgs)
            entry["messages_by_role"] = dict(Counter(m.role for m in msgs))
            entry["tool_calls"] = sum(len(m.tool_calls) for m in msgs)
        if info.logs and conv is not None:
            from daycare_gui.stores.records import SessionRef

            ref = SessionRef(info.chat, "log:" + info.id)
            count = conv.message_count(ref)
            bad = sum(1 for e in conv._log_entries(ref, record=False) if e.value is None)
            entry["log_messages"], entry["log_bad_lines"] = count - bad, bad
        threads.append(entry)
    tasks = store.tasks or []
    counters = {chat: {"counter": json_safe(v)} for chat, v in (store.counters or {}).items()}
    for chat, _value, top in store.counter_findings():
        counters.setdefault(chat, {"counter": None})
        counters[chat].update({"highest_thread": f"{chat}_s{top}", "too_low": True})
    db = None
    if store.layout.db is not None and store.layout.db.exists():
        db = {"path": str(store.layout.db), "size": store.layout.db.stat().st_size,
              "wal_size": wal_size(store.layout.db), "schema": store.schema.generation if store.schema else None,
              "task_path_column": bool(store.schema and store.schema.writes and store.schema.writes.get("task_path"))}
        if store.reader is not None:
            try:
                db["payload_types"] = store.reader.type_counts()
            except sqlite3.Error:
                pass
    return {
        "kind": store.kind,
        "paths": store.layout.to_dict(),
        "bot": {"running": store.status.running, "detail": store.status.detail, "method": store.status.method},
        "engine": {"running": store.status.running, "detail": store.status.detail},
        "database": db,
        "threads": threads,
        "scheduled_tasks": {
            "by_type": dict(Counter(as_text(t.get("type")) for t in tasks)),
            "by_state": dict(Counter(task_state(t) for t in tasks)),
            "model_tiers": dict(Counter(as_text(t["model_tier"]) for t in tasks if t.get("model_tier"))),
        },
        "session_counters": counters,
        "claude_code_states": len(store.cc_states or {}),
        "counts": counts_of(store),
    }
