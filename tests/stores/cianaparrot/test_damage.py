"""Every hazard the as-built notes list opens with problems, never an exception: truncated JSON files,
corrupt log lines, old database formats, pickle and encrypted payloads, unknown extension codes."""

from __future__ import annotations

import json
import pickle
import sqlite3

import msgpack

from daycare_gui.cli import main
from daycare_gui.stores.api import Actions, Charts, Collections, Conversations, Tasks
from daycare_gui.stores.cianaparrot import KIND
from daycare_gui.stores.records import SessionRef
from tests.conftest import snapshot_tree
from tests.stores.cianaparrot.builder import (
    add_raw_checkpoint,
    checkpoints_copy,
    ext,
    make_old_database,
    message_ext,
)


def _problems(store, name):
    return [p for p in store.problems if p.path.endswith(name)]


def test_truncated_json_files_are_problems_that_say_what_the_bot_will_do(deployment):
    data = deployment / "data"
    (data / "session_counters.json").write_text('{\n  "telegram_123456": 2,\n  "telegr')
    (data / "scheduled_tasks.json").write_text('[\n  {\n    "id": "a1b2c3d4",\n    "prompt": "Che')
    (data / "cc_user_states.json").write_bytes(b'{"1": {"mode": "claude_code"')
    with KIND.open(deployment) as store:
        counters = _problems(store, "session_counters.json")
        assert counters and "starts this store empty" in counters[0].message and counters[0].line == 3
        assert "fails on every poll" in _problems(store, "scheduled_tasks.json")[0].message
        assert _problems(store, "cc_user_states.json")
        assert store.capability(Tasks).tasks() == []
        assert store.capability(Tasks).editable is not None
        # the conversations still open
        conv = store.capability(Conversations)
        assert conv.message_count(SessionRef("telegram_123456", "telegram_123456")) == 4


def test_odd_values_in_the_bot_files(deployment):
    data = deployment / "data"
    (data / "session_counters.json").write_text(json.dumps({"telegram_123456": "two"}))
    (data / "scheduled_tasks.json").write_text(json.dumps([
        "not a task", {"id": "x", "type": "cron", "value": "not cron", "active": True},
        {"id": "y", "type": "interval", "value": "soon", "active": True},
        {"id": "z", "type": "weekly", "value": "mon", "active": True}]))
    with KIND.open(deployment) as store:
        assert "not a number" in _problems(store, "session_counters.json")[0].message
        assert "not an object" in _problems(store, "scheduled_tasks.json")[0].message
        probs = {t.id: t.problem for t in store.capability(Tasks).tasks()}
        assert "not a valid cron" in probs["x"] and "whole number" in probs["y"] and "unknown task type" in probs["z"]
        # a non-number counter counts as 0: the s1 and s2 threads make it too low
        assert store.counter_findings() == [("telegram_123456", 0, 2)]


def test_pickle_encrypted_and_unknown_payloads_show_what_they_are(deployment):
    db = deployment / "data" / "checkpoints.db"
    add_raw_checkpoint(db, "telegram_999", "1f1e0000-0000-6000-8000-000000000001", "pickle",
                       pickle.dumps({"channel_values": {}}))
    add_raw_checkpoint(db, "telegram_998", "1f1e0000-0000-6000-8000-000000000002", "msgpack+aes", bytes(range(64)))
    odd = msgpack.packb({"v": 4, "channel_values": {"messages": [
        message_ext("HumanMessage", "human", content="still readable", type="human", id="h"),
        msgpack.ExtType(99, b"\x01\x02"), ext(0, "uuid", "UUID", "00ff")]}}, use_bin_type=True)
    add_raw_checkpoint(db, "telegram_997", "1f1e0000-0000-6000-8000-000000000003", "msgpack", odd,
                       metadata=b"\xff\xfe not json")
    with KIND.open(deployment) as store:
        conv = store.capability(Conversations)
        pick = conv.messages(SessionRef("telegram_999", "telegram_999"), 0, 5)
        assert len(pick) == 1 and "pickle" in pick[0].problem and f"{len(pickle.dumps({'channel_values': {}}))} bytes" \
            in pick[0].text
        sealed = conv.messages(SessionRef("telegram_998", "telegram_998"), 0, 5)
        assert "encrypted (aes)" in sealed[0].text and "64 bytes, starts 000102" in sealed[0].text
        mixed = conv.messages(SessionRef("telegram_997", "telegram_997"), 0, 5)
        assert [m.role for m in mixed] == ["user", "note", "note"]
        assert mixed[0].text == "still readable" and "unknown extension code 99" in mixed[1].problem
        assert "uuid.UUID" in mixed[2].text or "uuid" in json.dumps(mixed[2].raw)
        rows = store.capability(Collections).rows("checkpoints", 0, 200)
        bad_meta = next(r for r in rows if r.key.endswith("000000000003"))
        assert "metadata could not be read" in bad_meta.problem
        assert any("pickle" in p.message for p in _problems(store, "checkpoints.db"))


def test_metadata_that_is_not_an_object_or_has_an_infinite_step_is_shown_with_a_problem(deployment):
    db = deployment / "data" / "checkpoints.db"
    payload = msgpack.packb({"v": 4}, use_bin_type=True)
    add_raw_checkpoint(db, "telegram_701", "1f1e0000-0000-6000-8000-000000000011", "msgpack", payload,
                       metadata=b"[1, 2]")
    add_raw_checkpoint(db, "telegram_702", "1f1e0000-0000-6000-8000-000000000012", "msgpack", payload,
                       metadata=b'{"step": 1e400, "source": "loop"}')
    with KIND.open(deployment) as store:
        rows = {r.key: r for r in store.capability(Collections).rows("checkpoints", 0, 200)}
        listed = rows["c:telegram_701::1f1e0000-0000-6000-8000-000000000011"]
        assert "metadata is a JSON list, not an object" in listed.problem
        infinite = rows["c:telegram_702::1f1e0000-0000-6000-8000-000000000012"]
        assert infinite.values[1:3] == (float("inf"), "loop") and not infinite.problem


def test_an_old_format_database_opens(tmp_path, capsys):
    db = make_old_database(tmp_path / "checkpoints.db")
    before = snapshot_tree(tmp_path)
    with KIND.open(db) as store:
        assert store.summary().generation == "langgraph-sqlite-no-task-path"
        assert any("task_path" in p.message for p in store.problems)
        conv = store.capability(Conversations)
        msgs = conv.messages(SessionRef("telegram_555", "telegram_555"), 0, 10)
        assert [m.role for m in msgs] == ["user", "assistant", "tool", "assistant"]
        assert msgs[1].tool_calls[0].name == "get_time" and msgs[1].tool_calls[0].id == "call_old"
        assert msgs[2].tool_result.call_id == "call_old" and msgs[3].text == "It is noon."
        row = store.capability(Collections).rows("checkpoints", 1, 1)[0]
        assert row.values[1:3] == (1, "loop") and "messages: HumanMessage" not in row.values[3]
        assert "writes" in row.raw["metadata"]  # older releases kept writes in metadata
    assert main(["inspect", str(db), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["kind"] == "cianaparrot" and report["database"]["task_path_column"] is False
    assert report["database"]["payload_types"]["checkpoints"] == {"json": 1}
    assert snapshot_tree(tmp_path) == before


def test_the_oldest_thread_ts_layout_with_untyped_payloads_opens(tmp_path):
    db = tmp_path / "checkpoints.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE checkpoints (thread_id TEXT NOT NULL, thread_ts TEXT NOT NULL, parent_ts TEXT, "
                 "checkpoint BLOB, metadata BLOB, PRIMARY KEY (thread_id, thread_ts))")
    conn.execute("INSERT INTO checkpoints VALUES ('telegram_1', '2024-05-01T10:00:00+00:00', NULL, ?, ?)",
                 (pickle.dumps({"v": 1}), b'{"source": "loop", "step": 1}'))
    conn.commit()
    conn.close()
    with KIND.open(db) as store:
        assert store.summary().generation == "langgraph-sqlite-thread-ts"
        msgs = store.capability(Conversations).messages(SessionRef("telegram_1", "telegram_1"), 0, 5)
        assert "pickle" in msgs[0].problem
        rows = store.capability(Collections).rows("checkpoints", 0, 5)
        assert rows[1].values[4] == "2024-05-01 10:00:00"


def test_a_checkpoint_without_a_message_list_is_rebuilt_from_its_writes(deployment):
    db = deployment / "data" / "checkpoints.db"
    with sqlite3.connect(db) as conn:  # blank the channel values of one thread's latest checkpoint
        cid = conn.execute("SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id='telegram_789012'").fetchone()[0]
        conn.execute("UPDATE checkpoints SET checkpoint=? WHERE checkpoint_id=?",
                     (msgpack.packb({"v": 4, "channel_values": {}}), cid))
    conn.close()
    with KIND.open(deployment) as store:
        msgs = store.capability(Conversations).messages(SessionRef("telegram_789012", "telegram_789012"), 0, 10)
        assert msgs[0].role == "note" and "rebuilt from the thread's writes" in msgs[0].text
        assert [m.role for m in msgs[1:]] == ["user", "assistant", "tool", "assistant"]


def test_garbage_files_where_the_store_expects_things(tmp_path):
    root = tmp_path / "bot"
    (root / "data").mkdir(parents=True)
    (root / "workspace").mkdir()
    (root / "config.yaml").write_text("agent: [unclosed\n")
    (root / "data" / "checkpoints.db").write_bytes(b"not a database at all" * 10)
    (root / "data" / "session_counters.json").write_bytes(b"\xff\xfe\x00{")
    with KIND.open(root) as store:
        messages = " ".join(p.message for p in store.problems)
        assert "cannot read the configuration" in messages and "cannot read the checkpoints database" in messages
        assert store.capability(Conversations).threads() == []


def test_an_unreadable_checkpoint_is_one_problem_however_often_it_is_shown(deployment):
    db = deployment / "data" / "checkpoints.db"
    add_raw_checkpoint(db, "telegram_999", "1f1e0000-0000-6000-8000-000000000001", "pickle", pickle.dumps(1))
    with KIND.open(deployment) as store:
        conv = store.capability(Conversations)
        for thread in ["telegram_999", "telegram_123456", "telegram_123456_s1", "telegram_123456_s2",
                       "telegram_789012", "scheduler_a1b2c3d4", "telegram_999"]:
            conv.messages(SessionRef("x", thread), 0, 10)
        assert len([p for p in store.problems if "pickle" in p.message]) == 1


def test_an_empty_database_is_said_to_be_empty_not_to_have_passed_a_check(deployment):
    db = deployment / "data" / "checkpoints.db"
    db.write_bytes(b"")
    with KIND.open(deployment) as store:
        assert [p.message for p in _problems(store, "checkpoints.db")] == [
            "the checkpoints database is empty (0 bytes): no checkpoints to show"]
        said = store.capability(Actions).run("db-check")
        assert said == "checkpoints.db is empty (0 bytes): there is nothing in it to check."
    db.unlink()
    conn = sqlite3.connect(db)  # a real database whose only table was dropped: pages, but no tables
    conn.execute("CREATE TABLE t (x)")
    conn.execute("DROP TABLE t")
    conn.close()
    assert db.stat().st_size > 0
    with KIND.open(deployment) as store:
        assert "empty (no tables)" in _problems(store, "checkpoints.db")[0].message
        said = store.capability(Actions).run("db-check")
        assert said == "checkpoints.db is empty (no tables): there is nothing in it to check."
    # a database with its tables still passes as before
    checkpoints_copy(db)
    with KIND.open(deployment) as store:
        assert store.capability(Actions).run("db-check") == "checkpoints.db passed SQLite's quick check."


def test_odd_roles_and_contents_read_as_text_or_json_never_as_python_repr(deployment):
    lines = [
        {"role": ["a", {"b": 1}], "content": ["hi", {"type": "text", "text": "there"},
                                              {"type": "image", "api_key": "sk-ant-abcdefghijklmnopqrstu"}],
         "ts": "2026-04-05T10:00:00+00:00"},
        {"role": 5, "content": {"type": "x", "token": "abc123"}, "ts": "2026-04-05T10:00:01+00:00"},
        {"role": "narrator", "content": 3.5, "ts": "2026-04-05T10:00:02+00:00"},
    ]
    (deployment / "workspace" / "sessions" / "telegram_789012.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines))
    db = deployment / "data" / "checkpoints.db"
    odd = msgpack.packb({"v": 4, "channel_values": {"messages": [
        message_ext("ChatMessage", "chat", role=["x", 1], content={"type": "x", "password": "hunter2"}, type="chat",
                    id="c1"),
        message_ext("ChatMessage", "chat", role="narrator", content=["a", 7, {"k": "v"}], type="chat", id="c2"),
    ]}}, use_bin_type=True)
    add_raw_checkpoint(db, "telegram_996", "1f1e0000-0000-6000-8000-000000000021", "msgpack", odd)
    with KIND.open(deployment) as store:
        conv = store.capability(Conversations)
        logged = conv.messages(SessionRef("telegram_789012", "log:telegram_789012"), 0, 10)
        assert [(m.role, m.text) for m in logged] == [
            ('["a", {"b": 1}]', 'hi\n\nthere\n\n{"type": "image", "api_key": "sk-••••••••"}'),
            ("5", '{"type": "x", "token": "••••••••"}'),
            ("narrator", "3.5"),
        ]
        assert logged[0].problem == 'role ["a", {"b": 1}] is not user or assistant; content is a list, not text'
        chat = conv.messages(SessionRef("telegram_996", "telegram_996"), 0, 10)
        assert [(m.role, m.text) for m in chat] == [
            ('["x", 1]', '{"type": "x", "password": "••••••••"}'),
            ("narrator", 'a\n\n7\n\n{"k": "v"}'),
        ]
        series = {d.series for d in store.capability(Charts).activity_per_day() if d.day == "2026-04-05"}
        assert series == {'log: ["a", {"b": 1}]', "log: 5", "log: narrator"}
        shown = " ".join(m.role + m.text for m in logged + chat)
        assert "['" not in shown and "{'" not in shown and "hunter2" not in shown and "abc123" not in shown
