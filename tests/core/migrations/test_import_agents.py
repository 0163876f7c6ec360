"""20260219_import_files edge cases (reference §6.1)."""

from __future__ import annotations

import json

import pytest

from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.runner import MigrationFailed
from tests.core.migrations.helpers import migrate

FIRST_TWO = MIGRATIONS[:2]  # initial + import_files


def write_agent(root, agent_id, descriptor=None, state=None, history=None):
    folder = root / "agents" / agent_id
    folder.mkdir(parents=True)
    if descriptor is not None:
        (folder / "descriptor.json").write_text(descriptor if isinstance(descriptor, str) else json.dumps(descriptor))
    if state is not None:
        (folder / "state.json").write_text(state if isinstance(state, str) else json.dumps(state))
    if history is not None:
        (folder / "history.jsonl").write_text(
            "\n".join(h if isinstance(h, str) else json.dumps(h) for h in history) + "\n"
        )
    return folder


USER = {"type": "user", "connector": "telegram", "userId": "1", "channelId": "c"}
STATE = {"inferenceSessionId": "inf-1", "createdAt": 1000, "updatedAt": 2000, "state": "active"}


def sessions(conn, agent_id):
    return conn.execute(
        "SELECT id, inference_session_id, created_at, reset_message FROM sessions WHERE agent_id = ? ORDER BY created_at",
        (agent_id,),
    ).fetchall()


def history(conn, session_id):
    return conn.execute("SELECT type, at, data FROM session_history WHERE session_id = ? ORDER BY id", (session_id,)).fetchall()


def test_records_before_first_marker_open_an_implicit_session(tmp_path):
    write_agent(tmp_path, "a1", USER, STATE, [
        {"type": "note", "at": 5, "text": "early"},
        {"type": "start", "at": 10},
        {"type": "note", "at": 11, "text": "x"},
    ])
    conn = migrate(tmp_path, migrations=FIRST_TWO)
    rows = sessions(conn, "a1")
    assert [(r[1], r[2], r[3]) for r in rows] == [(None, 5, None), ("inf-1", 10, None)]
    assert history(conn, rows[0][0]) == [("note", 5, '{"text":"early"}')]
    assert conn.execute("SELECT active_session_id FROM agents").fetchone()[0] == rows[1][0]


def test_several_resets_and_inference_id_only_on_last(tmp_path):
    write_agent(tmp_path, "a1", USER, STATE, [
        {"type": "start", "at": 1},
        {"type": "reset", "at": 2, "message": "first"},
        {"type": "reset", "at": 3},
        {"type": "user_message", "at": 4, "text": "hé", "files": []},
    ])
    conn = migrate(tmp_path, migrations=FIRST_TWO)
    rows = sessions(conn, "a1")
    assert [(r[1], r[2], r[3]) for r in rows] == [(None, 1, None), (None, 2, "first"), ("inf-1", 3, None)]
    assert history(conn, rows[2][0]) == [("user_message", 4, '{"text":"hé","files":[]}')]


def test_blank_and_unparseable_lines_are_skipped(tmp_path):
    write_agent(tmp_path, "a1", USER, STATE, ["", "   ", "{not json", {"type": "note", "at": 7, "text": "ok"}, "NaN"])
    conn = migrate(tmp_path, migrations=FIRST_TWO)
    (sid, inference, created, _), = sessions(conn, "a1")
    assert (inference, created) == ("inf-1", 7)
    assert history(conn, sid) == [("note", 7, '{"text":"ok"}')]


def test_no_history_gives_one_empty_session_at_state_created_at(tmp_path):
    write_agent(tmp_path, "a1", USER, STATE)
    conn = migrate(tmp_path, migrations=FIRST_TWO)
    assert [(r[1], r[2], r[3]) for r in sessions(conn, "a1")] == [("inf-1", 1000, None)]


def test_state_fallbacks_and_sleeping_flag(tmp_path):
    write_agent(tmp_path, "a1", {"type": "cron", "id": "t"}, {"sleeping": True, "context": {"messages": []}})
    write_agent(tmp_path, "a2", {"type": "cron", "id": "u"}, {"state": "dead", "sleeping": True, "tokens": 0})
    conn = migrate(tmp_path, migrations=FIRST_TWO, clock=lambda: 4242)
    rows = conn.execute("SELECT id, lifecycle, permissions, tokens, stats, created_at, updated_at FROM agents ORDER BY id").fetchall()
    assert rows == [
        ("a1", "sleeping", '{"workingDir":"/","writeDirs":[]}', None, "{}", 4242, 4242),
        ("a2", "dead", '{"workingDir":"/","writeDirs":[]}', None, "{}", 4242, 4242),
    ]


def test_agents_with_invalid_descriptor_or_state_are_skipped(tmp_path):
    write_agent(tmp_path, "bad-descriptor", "{oops", STATE)
    write_agent(tmp_path, "no-state", USER)
    write_agent(tmp_path, "bad-state", USER, "[1,")
    write_agent(tmp_path, "null-state", USER, "null")
    write_agent(tmp_path, "good", USER, STATE)
    (tmp_path / "agents" / "stray.json").write_text("{}")
    conn = migrate(tmp_path, migrations=FIRST_TWO)
    assert [r[0] for r in conn.execute("SELECT id FROM agents")] == ["good"]


def test_descriptor_without_type_aborts_the_migration(tmp_path):
    write_agent(tmp_path, "a1", USER, STATE)
    write_agent(tmp_path, "a2", {"id": "x"}, STATE)
    with pytest.raises(MigrationFailed) as err:
        migrate(tmp_path, migrations=FIRST_TWO)
    assert err.value.name == "20260219_import_files"
    assert err.value.applied == ["20260219_initial"]


def test_record_without_at_aborts_and_rolls_back(tmp_path):
    write_agent(tmp_path, "a1", USER, STATE, [{"type": "note", "text": "no time"}])
    with pytest.raises(MigrationFailed):
        migrate(tmp_path, migrations=FIRST_TWO)
    from daycare_gui.stores.daycare.sqlite.migrations.runner import open_database

    conn = open_database(tmp_path / "daycare.db")
    assert conn.execute("SELECT COUNT(*) FROM agents").fetchone()[0] == 0
    assert [r[0] for r in conn.execute("SELECT name FROM _migrations")] == ["20260219_initial"]


def test_import_only_runs_when_agents_table_is_empty(tmp_path):
    conn = migrate(tmp_path, migrations=MIGRATIONS[:1])
    conn.execute("INSERT INTO agents (id, type, descriptor, permissions, created_at, updated_at) VALUES ('x','user','{}','{}',1,1)")
    write_agent(tmp_path, "a1", USER, STATE)
    conn.close()
    conn = migrate(tmp_path, migrations=FIRST_TWO)
    assert [r[0] for r in conn.execute("SELECT id FROM agents")] == ["x"]
