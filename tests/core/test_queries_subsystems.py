"""Subsystem rows for display: SQL filter, JSON parsed, secrets masked, legacy-file fallback, paging."""

import json
import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.queries.subsystems import (
    channel_contents,
    db_rows,
    page_shown_rows,
    subsystem_rows,
)
from daycare_gui.stores.daycare.sqlite.store import open_store
from daycare_gui.stores.masking import MASK


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(dest)
    return dest


def _raw(db_path, sql):
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_channels_members_and_messages_from_the_database(demo):
    with open_store(demo) as store:
        channels = subsystem_rows(store, "channels")
        assert channels.source == "database" and channels.total == 2
        assert {r.values["name"] for r in channels.rows} == {"ops", "family"}
        ops = next(r for r in channels.rows if r.values["name"] == "ops")
        contents = channel_contents(store, ops)
    expected = _raw(demo / "daycare.db",
                    f"SELECT count(*) FROM channel_messages WHERE channel_id = '{ops.values['id']}'")[0][0]
    assert contents.messages.total == expected == len(contents.messages.rows) > 0
    assert all(r.values["channel_id"] == ops.values["id"] for r in contents.messages.rows)
    times = [r.values["created_at"] for r in contents.messages.rows]
    assert times == sorted(times)
    assert all(isinstance(r.values["mentions"], list) for r in contents.messages.rows)  # JSON parsed
    assert contents.members.total > 0


def test_text_filter_runs_in_sql_and_never_searches_secrets(demo):
    with open_store(demo) as store:
        assert subsystem_rows(store, "channels", text="FAMILY").total == 1
        assert subsystem_rows(store, "channels", text="no-such-channel").total == 0
        # "development" is only inside a process env: filtering must not reveal it exists
        assert subsystem_rows(store, "processes", text="development").total == 0
        assert subsystem_rows(store, "processes", text="blog").total >= 1
        assert subsystem_rows(store, "expose_endpoints", text="argon2").total == 0


def test_process_env_and_endpoint_auth_are_masked(demo):
    raw_env = [json.loads(r[0]) for r in _raw(demo / "daycare.db", "SELECT env FROM processes")]
    raw_auth = [r[0] for r in _raw(demo / "daycare.db", "SELECT auth FROM expose_endpoints WHERE auth IS NOT NULL")]
    # values long enough that finding one in the output can only mean it leaked
    secrets = [v for env in raw_env for v in env.values() if isinstance(v, str) and len(v) >= 6] + \
              [json.loads(a)["passwordHash"] for a in raw_auth]
    assert "development" in secrets and len(secrets) >= 3
    with open_store(demo) as store:
        shown = [subsystem_rows(store, "processes"), subsystem_rows(store, "expose_endpoints")]
        shown_pages = page_shown_rows(store.db, "processes") + page_shown_rows(store.db, "expose_endpoints")
    text = json.dumps([r.values for rs in shown for r in rs.rows] + [r.values for r in shown_pages], default=str)
    for secret in secrets:
        assert secret not in text
    envs = [r.values["env"] for r in shown[0].rows]
    assert any(env for env in envs) and all(v == MASK or v.endswith(MASK) for env in envs for v in env.values())
    auths = [r.values["auth"] for r in shown[1].rows if r.values["auth"]]
    assert auths and all(a["enabled"] is True for a in auths)  # shape kept, hash masked


def test_page_shown_rows_covers_a_table_once(demo):
    with open_store(demo) as store:
        seen, after = [], None
        while True:
            page = page_shown_rows(store.db, "session_history", after_rowid=after, limit=50)
            if not page:
                break
            seen += [r.key for r in page]
            after = page[-1].key
        total = store.db.count("session_history")
        first = page_shown_rows(store.db, "session_history", limit=1)[0]
    assert len(seen) == len(set(seen)) == total
    assert isinstance(first.values["data"], dict)  # JSON column parsed


def test_signal_tables_and_limits(demo):
    with open_store(demo) as store:
        events = subsystem_rows(store, "signals_events", limit=2)
        assert events.total == store.db.count("signals_events") and len(events.rows) == 2 and events.truncated
        assert isinstance(events.rows[0].values["source"], dict)
        assert subsystem_rows(store, "signals_subscriptions").total == store.db.count("signals_subscriptions")
        assert db_rows(store.db, "no_such_table").source == "none"
        with pytest.raises(ValueError):
            db_rows(store.db, "channels", where={"nope": 1})


def test_legacy_files_fallback_without_a_database(fixture_copy):
    with open_store(fixture_copy("daycare-808af509", with_db=False)) as store:
        assert store.db is None
        channels = subsystem_rows(store, "channels")
        assert channels.source == "files" and channels.total == 1 and channels.rows[0].values["name"] == "ops"
        contents = channel_contents(store, channels.rows[0])
        assert [r.values["text"] for r in contents.messages.rows] == ["deploy done"]
        assert [r.values["username"] for r in contents.members.rows] == ["alex"]
        assert subsystem_rows(store, "signals_events").rows[0].values["type"] == "internal.heartbeat.tick"
        assert subsystem_rows(store, "signals_delayed").total == 1
        assert subsystem_rows(store, "processes").rows[0].values["name"] == "web"
        assert subsystem_rows(store, "expose_endpoints").rows[0].values["domain"] == "x.ts.net"
        assert subsystem_rows(store, "system_prompts").source == "none"
        assert subsystem_rows(store, "channels", text="nothing-like-this").total == 0
