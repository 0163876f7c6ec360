"""The small demo database: schema, migrations, and every kind of row the GUI must show."""

import json

from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509, schema_statements

HISTORY_KINDS = {"user_message", "assistant_message", "tool_result", "rlm_start", "rlm_tool_call",
                 "rlm_tool_result", "rlm_complete", "assistant_rewrite", "note"}

# table → JSON columns (NULL allowed where the schema allows it)
JSON_COLUMNS = {
    "agents": ("descriptor", "permissions", "tokens", "stats"),
    "session_history": ("data",),
    "inbox": ("data",),
    "signals_events": ("source", "data"),
    "signals_delayed": ("source", "data"),
    "channel_messages": ("mentions",),
    "expose_endpoints": ("target", "auth"),
    "processes": ("env", "package_managers", "allowed_domains", "permissions", "owner"),
}


def test_integrity_and_foreign_keys(demo_db):
    assert demo_db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert demo_db.execute("PRAGMA foreign_key_check").fetchall() == []


def test_wal_mode_and_no_wal_files_left(small_demo):
    dest, _ = small_demo
    header = (dest / "daycare.db").read_bytes()[:20]
    assert header[:16] == b"SQLite format 3\x00" and header[18:20] == b"\x02\x02"
    assert not (dest / "daycare.db-wal").exists() and not (dest / "daycare.db-shm").exists()


def test_schema_is_the_808af509_ddl(demo_db, small_demo):
    _, summary = small_demo
    stored = [r[0] for r in demo_db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL "
                                           "AND name != 'sqlite_sequence' ORDER BY rowid")]
    assert stored == schema_statements(summary.owner_id)


def test_migrations_all_26_in_order(demo_db):
    rows = demo_db.execute("SELECT name, applied_at FROM _migrations ORDER BY applied_at, rowid").fetchall()
    assert [r["name"] for r in rows] == list(MIGRATIONS_808AF509)
    times = [r["applied_at"] for r in rows]
    assert times == sorted(times) and len(set(times)) == 26


def test_every_json_column_parses(demo_db):
    for table, columns in JSON_COLUMNS.items():
        for row in demo_db.execute(f"SELECT {', '.join(columns)} FROM {table}"):
            for col in columns:
                if row[col] is not None:
                    json.loads(row[col])


def test_every_descriptor_kind_and_lifecycle(demo_db):
    kinds = {r[0] for r in demo_db.execute("SELECT json_extract(descriptor, '$.type') FROM agents")}
    assert kinds == {"user", "cron", "system", "subagent", "app", "permanent"}
    assert all(r[0] == r[1] for r in demo_db.execute("SELECT type, json_extract(descriptor, '$.type') FROM agents"))
    assert {r[0] for r in demo_db.execute("SELECT lifecycle FROM agents")} == {"active", "sleeping", "dead"}
    assert 12 <= demo_db.execute("SELECT count(*) FROM agents").fetchone()[0] <= 20
    perms = [json.loads(r[0]) for r in demo_db.execute("SELECT permissions FROM agents")]
    assert any(set(p) == {"workingDir", "writeDirs"} for p in perms)  # reduced legacy form
    assert any({"workingDir", "writeDirs", "readDirs", "network", "events"} <= set(p) for p in perms)


def test_every_agent_has_its_active_session(demo_db):
    bad = demo_db.execute("SELECT id FROM agents WHERE active_session_id NOT IN (SELECT id FROM sessions)").fetchall()
    assert bad == []


def test_users_owner_child_and_connector_keys(demo_db):
    users = demo_db.execute("SELECT * FROM users").fetchall()
    assert 3 <= len(users) <= 4
    assert sum(u["is_owner"] for u in users) == 1
    assert any(u["parent_user_id"] for u in users)
    assert all(u["nametag"] for u in users)
    keys = {r[0] for r in demo_db.execute("SELECT connector_key FROM user_connector_keys")}
    assert "telegram:42" in keys and any(k.startswith("whatsapp:") for k in keys)
    assert demo_db.execute("SELECT count(*) FROM connections").fetchone()[0] >= 1


def test_every_history_record_kind_with_its_shape(demo_db):
    kinds = {r[0] for r in demo_db.execute("SELECT DISTINCT type FROM session_history")}
    assert kinds == HISTORY_KINDS
    by_kind = {}
    for row in demo_db.execute("SELECT type, at, data FROM session_history ORDER BY id"):
        by_kind.setdefault(row["type"], []).append((row["at"], json.loads(row["data"])))
    users = [d for _, d in by_kind["user_message"]]
    assert any(d["files"] for d in users) and any(d.get("firstMessagePrepended") for d in users)
    calls = [c for _, d in by_kind["assistant_message"] for c in d["toolCalls"]]
    assert calls and all(c["type"] == "toolCall" and {"id", "name", "arguments"} <= set(c) for c in calls)
    assert any(d["tokens"] for _, d in by_kind["assistant_message"])
    out = by_kind["tool_result"][0][1]["output"]
    assert out["toolMessage"]["role"] == "toolResult" and out["toolMessage"]["content"][0]["type"] == "text"
    assert "typedResult" in out and "isError" in out["toolMessage"]
    assert {"code", "preamble"} <= set(by_kind["rlm_start"][0][1])
    assert {"snapshot", "printOutput", "toolName", "toolArgs", "toolCallCount"} <= set(by_kind["rlm_tool_call"][0][1])
    assert any(d["isError"] and d.get("error") for _, d in by_kind["rlm_complete"])
    assistant_ats = {at for at, _ in by_kind["assistant_message"]}
    assert all(d["assistantAt"] in assistant_ats for _, d in by_kind["assistant_rewrite"])
    texts = [d["text"] for _, d in by_kind["assistant_message"]]
    assert any("```" in t for t in texts) and any(t.startswith("#") for t in texts)  # realistic Markdown
    assert any("](http" in t for t in texts) and any("\n- " in t for t in texts)


def test_session_columns(demo_db):
    rows = demo_db.execute("SELECT * FROM sessions").fetchall()
    assert any(r["ended_at"] for r in rows) and any(r["ended_at"] is None for r in rows)
    assert any(r["reset_message"] for r in rows) and any(r["inference_session_id"] for r in rows)
    max_id = demo_db.execute("SELECT max(id) FROM session_history").fetchone()[0]
    marks = [r["processed_until"] for r in rows if r["processed_until"]] + [r["invalidated_at"] for r in rows if r["invalidated_at"]]
    assert marks and all(1 <= m <= max_id for m in marks)  # history ids, not times
    assert any(r["invalidated_at"] for r in rows)


def test_inbox_fresh_and_stuck(demo_db):
    rows = demo_db.execute("SELECT * FROM inbox").fetchall()
    newest = max(r["posted_at"] for r in rows)
    stuck = [r for r in rows if newest - r["posted_at"] > 24 * 3600 * 1000]
    fresh = [r for r in rows if newest - r["posted_at"] < 3600 * 1000]
    assert len(stuck) >= 2 and len(fresh) >= 2
    assert {r["type"] for r in rows} == {"message", "system_message", "signal", "reset", "compact", "restore"}
    assert all(json.loads(r["data"])["type"] == r["type"] for r in rows)


def test_other_tables_have_variety(demo_db):
    one = lambda sql: demo_db.execute(sql).fetchone()[0]  # noqa: E731
    assert one("SELECT count(*) FROM tasks_cron WHERE enabled = 0") >= 1
    assert one("SELECT count(*) FROM tasks_cron WHERE delete_after_run = 1") >= 1
    assert one("SELECT count(*) FROM tasks_heartbeat") >= 2
    assert one("SELECT count(*) FROM signals_subscriptions") >= 2 and one("SELECT count(*) FROM signals_delayed") >= 2
    assert one("SELECT count(*) FROM channel_messages") >= 3 and one("SELECT count(*) FROM channel_members") >= 2
    targets = {json.loads(r[0])["type"] for r in demo_db.execute("SELECT target FROM expose_endpoints")}
    assert targets == {"port", "unix"}
    assert one("SELECT count(*) FROM expose_endpoints WHERE auth IS NULL") >= 1
    assert one("SELECT count(*) FROM expose_endpoints WHERE auth IS NOT NULL") >= 1
    assert {r[0] for r in demo_db.execute("SELECT status FROM processes")} == {"running", "stopped", "exited"}
    assert {r[0] for r in demo_db.execute("SELECT scope FROM system_prompts")} == {"global", "user"}
