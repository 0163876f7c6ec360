"""Signals, channels, expose and processes imports (reference §6.4)."""

from __future__ import annotations

import json

from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from tests.core.migrations.helpers import migrate, owner_id
from tests.core.migrations.test_import_agents import STATE, write_agent


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_signals_user_id_as_written_sources_normalised_and_bad_lines_skipped(tmp_path):
    write(tmp_path / "signals" / "events.jsonl", "\n".join([
        json.dumps({"id": "s1", "type": "t", "source": {"type": "agent", "userId": "nobody"}, "createdAt": 5}),
        json.dumps({"id": "s2", "type": "t", "source": {"type": "webhook", "id": " w "}, "data": None}),
        json.dumps({"id": "s3", "type": "t", "source": "weird", "createdAt": -1}),
        json.dumps({"id": " ", "type": "t"}),
        "not json",
        "",
    ]))
    write(tmp_path / "signals" / "delayed.json", json.dumps({"version": 1, "events": [
        {"id": "d1", "type": "t", "deliverAt": 9, "source": {"type": "process"}, "repeatKey": "k"},
        {"type": "missing-id"},
        "junk",
    ]}))
    conn = migrate(tmp_path, clock=lambda: 777)
    owner = owner_id(conn)
    assert conn.execute("SELECT id, user_id, source, data, created_at FROM signals_events ORDER BY id").fetchall() == [
        ("s1", "nobody", '{"type":"system","userId":"nobody"}', None, 5),
        ("s2", owner, '{"type":"webhook","id":"w"}', "null", 777),
        ("s3", owner, '{"type":"system"}', None, 777),
    ]
    assert conn.execute("SELECT id, user_id, deliver_at, source, data, repeat_key, created_at FROM signals_delayed").fetchall() == [
        ("d1", owner, 9, '{"type":"process"}', None, "k", 777),
    ]


def test_owner_fallback_is_literal_owner_without_an_owner_row(tmp_path):
    conn = migrate(tmp_path, migrations=MIGRATIONS[:10])
    conn.execute("DROP TRIGGER IF EXISTS trg_users_nametag_required_insert")
    conn.execute("DELETE FROM users")
    conn.close()
    write(tmp_path / "signals" / "events.jsonl", json.dumps({"id": "s1", "type": "t"}))
    conn = migrate(tmp_path, migrations=MIGRATIONS[:11])
    assert conn.execute("SELECT user_id FROM signals_events").fetchall() == [("owner",)]


def test_channels_text_trimmed_mentions_strings_only_and_user_from_leader(tmp_path):
    write_agent(tmp_path, "lead", {"type": "user", "connector": "tg", "userId": "1"}, {**STATE, "createdAt": 1})
    write_agent(tmp_path, "other", {"type": "user", "connector": "tg", "userId": "2"}, {**STATE, "createdAt": 2})
    write(tmp_path / "channels" / "folder-name" / "channel.json", json.dumps({
        "id": "ch", "name": "ops", "leader": "other",
        "members": [{"agentId": "lead", "username": "l", "joinedAt": 3}, {"agentId": "ghost", "username": "g"},
                    {"agentId": "nouser"}],
        "createdAt": 1, "updatedAt": 2,
    }))
    write(tmp_path / "channels" / "folder-name" / "history.jsonl", "\n".join([
        json.dumps({"id": "m1", "senderUsername": "l", "text": "  hi there \n", "mentions": ["a", 1, None, "b"], "createdAt": 4}),
        json.dumps({"id": "m2", "senderUsername": "l", "text": "   "}),
        "{bad",
    ]))
    write(tmp_path / "channels" / "broken" / "channel.json", json.dumps({"id": "x", "name": "y"}))
    conn = migrate(tmp_path, clock=lambda: 99)
    users = dict(conn.execute("SELECT id, user_id FROM agents"))
    assert conn.execute("SELECT id, user_id, name, leader FROM channels").fetchall() == [("ch", users["other"], "ops", "other")]
    assert conn.execute("SELECT agent_id, user_id, username, joined_at FROM channel_members ORDER BY id").fetchall() == [
        ("lead", users["lead"], "l", 3), ("ghost", users["other"], "g", 99),
    ]
    assert conn.execute("SELECT id, user_id, text, mentions FROM channel_messages").fetchall() == [
        ("m1", users["other"], "hi there", '["a","b"]'),
    ]


def test_expose_endpoints(tmp_path):
    base = tmp_path / "expose" / "endpoints"
    write(base / "a.json", json.dumps({"id": "a", "target": {"type": "unix", "path": "/s"}, "provider": "p", "domain": "d",
                                       "mode": "local-network", "auth": {"enabled": True, "passwordHash": "h"}}))
    write(base / "b.json", json.dumps({"id": "b", "target": {"type": "port"}, "provider": "p", "domain": "d", "mode": "public"}))
    write(base / "c.json", "{")
    conn = migrate(tmp_path, clock=lambda: 5)
    assert conn.execute("SELECT id, user_id, target, mode, auth, created_at FROM expose_endpoints").fetchall() == [
        ("a", owner_id(conn), '{"type":"unix","path":"/s"}', "local-network", '{"enabled":true,"passwordHash":"h"}', 5),
    ]


def test_processes_version_2_only_and_normalised(tmp_path):
    record = {"version": 2, "id": "p2", "name": "n", "command": "c", "cwd": "/", "settingsPath": "/s", "logPath": "/l",
              "env": {"A": "1", "B": 2}, "permissions": {"workspaceDir": "/w", "writeDirs": ["/x", 3], "network": True},
              "owner": {"type": "plugin", "id": "plug"}, "status": "zombie", "desiredState": "paused",
              "restartCount": 2.7, "pid": "12", "createdAt": 1, "updatedAt": 2}
    write(tmp_path / "processes" / "p2" / "record.json", json.dumps(record))
    write(tmp_path / "processes" / "p1" / "record.json", json.dumps({**record, "version": 1, "id": "p1"}))
    write(tmp_path / "processes" / "p3" / "record.json", json.dumps({**record, "id": "p3", "logPath": ""}))
    conn = migrate(tmp_path)
    rows = conn.execute(
        "SELECT id, user_id, env, permissions, owner, status, desired_state, restart_count, pid FROM processes"
    ).fetchall()
    assert rows == [("p2", owner_id(conn), '{"A":"1"}',
                     '{"workingDir":"/","writeDirs":["/x"],"readDirs":[],"network":true,"events":false}',
                     '{"type":"plugin","id":"plug"}', "stopped", "running", 2, None)]
