"""The fixtures README "Upgrade test": our pipeline on the legacy files of daycare-808af509 must produce the
fixture's database (structure, _migrations order, rows), and a second run must change nothing."""

from __future__ import annotations

import hashlib

import pytest

from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509
from tests.conftest import snapshot_tree
from tests.core.migrations.helpers import describe_schema, open_immutable, owner_id, table_rows


@pytest.fixture
def upgraded(fixture_copy):
    folder = fixture_copy("daycare-808af509", with_db=False)
    legacy_before = snapshot_tree(folder)
    result = run_upgrade(folder / "daycare.db")
    assert result.ok, result.summary()
    new = open_immutable(folder / "daycare.db")
    ref = open_immutable(fixture_copy("daycare-808af509", as_name="reference") / "daycare.db")
    yield folder, result, new, ref, legacy_before
    new.close()
    ref.close()


def test_schema_matches_fixture(upgraded):
    _folder, _result, new, ref, _ = upgraded
    assert describe_schema(new, owner_id(new)) == describe_schema(ref, owner_id(ref))


def test_schema_sql_text_is_identical_to_what_daycare_emitted(upgraded):
    _folder, _result, new, ref, _ = upgraded
    ours = new.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    theirs = ref.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    fix = lambda rows, owner: [(t, n, s.replace(owner, "<owner>") if s else s) for t, n, s in rows]  # noqa: E731
    assert fix(ours, owner_id(new)) == fix(theirs, owner_id(ref))


def test_agents_user_id_default_is_the_new_owner(upgraded):
    _folder, _result, new, _ref, _ = upgraded
    default = {r[1]: r[4] for r in new.execute("PRAGMA table_xinfo(agents)")}["user_id"]
    assert default == f"'{owner_id(new)}'"


def test_migrations_recorded_in_list_order(upgraded):
    _folder, result, new, ref, _ = upgraded
    order = "SELECT name FROM _migrations ORDER BY applied_at, rowid"
    assert [r[0] for r in new.execute(order)] == [r[0] for r in ref.execute(order)] == list(MIGRATIONS_808AF509)
    assert result.applied == list(MIGRATIONS_808AF509)


# Columns that hold the owner id: compared against each database's own owner instead of literally.
OWNER_COLUMNS = {
    "agents": ["user_id"], "user_connector_keys": ["user_id"], "tasks_cron": ["user_id"],
    "tasks_heartbeat": ["user_id"], "signals_delayed": ["user_id"], "channels": ["user_id"],
    "channel_members": ["user_id"], "channel_messages": ["user_id"], "expose_endpoints": ["user_id"],
    "processes": ["user_id"], "signals_events": ["user_id"],
}
# Generated at run time or taken from file times, which a copy changes.
IGNORED = {
    "users": ["id", "nametag", "created_at", "updated_at"],
    "tasks_cron": ["created_at", "updated_at"],
    "tasks_heartbeat": ["created_at", "updated_at"],
    "_migrations": ["applied_at"],
}


def _comparable(conn, table: str) -> list[dict]:
    owner = owner_id(conn)
    sessions = {sid: (agent, created) for sid, agent, created in conn.execute("SELECT id, agent_id, created_at FROM sessions")}
    columns = [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]
    order = "agent_id, created_at" if table == "sessions" else "rowid"
    out = []
    for row in table_rows(conn, table, order):
        record = dict(zip(columns, row, strict=True))
        for col in IGNORED.get(table, []):
            record.pop(col)
        for col in OWNER_COLUMNS.get(table, []):
            if record[col] == owner:
                record[col] = "<owner>"
        # Session ids are fresh cuid2s: identify a session by (agent_id, created_at), unique here.
        if table == "sessions":
            record["id"] = sessions[record["id"]]
        if table == "agents":
            record["active_session_id"] = sessions[record["active_session_id"]]
        if table == "session_history":
            record["session_id"] = sessions[record["session_id"]]
        out.append(record)
    return out


def test_rows_match_fixture(upgraded):
    _folder, _result, new, ref, _ = upgraded
    tables = [r[0] for r in ref.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    assert tables == [r[0] for r in new.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    for table in tables:
        assert _comparable(new, table) == _comparable(ref, table), table
    assert new.execute("SELECT is_owner, parent_user_id, name FROM users").fetchall() == [(1, None, None)]
    assert new.execute("SELECT nametag FROM users").fetchone()[0]


def test_legacy_files_are_never_changed(upgraded):
    folder, _result, _new, _ref, legacy_before = upgraded
    after = snapshot_tree(folder)
    assert {k: v for k, v in after.items() if not k.startswith("daycare.db")} == legacy_before


def test_second_run_changes_nothing(upgraded):
    folder, _result, new, _ref, _ = upgraded
    new.close()
    before = snapshot_tree(folder)
    digest = hashlib.sha256((folder / "daycare.db").read_bytes()).hexdigest()
    again = run_upgrade(folder / "daycare.db")
    assert again.ok and again.applied == [] and again.backup_path is None
    assert again.summary()[0] == "Storage already up to date."
    assert hashlib.sha256((folder / "daycare.db").read_bytes()).hexdigest() == digest
    assert snapshot_tree(folder) == before
