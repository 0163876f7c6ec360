"""Queries over the real fixtures, compared with what plain sqlite3 says."""

import sqlite3

import pytest

from daycare_gui.stores.daycare.sqlite.queries.agents import (
    AgentFilter,
    fetch_agents,
    list_agent_ids,
    token_usage_by_model,
)
from daycare_gui.stores.daycare.sqlite.queries.history import count_history, page_after, page_before
from daycare_gui.stores.daycare.sqlite.queries.sessions import list_sessions
from daycare_gui.stores.daycare.sqlite.queries.tables import page_rows
from daycare_gui.stores.daycare.sqlite.queries.tasks import list_cron_rows, list_heartbeat_rows
from daycare_gui.stores.daycare.sqlite.queries.users import list_users
from daycare_gui.stores.daycare.sqlite.store import open_store
from tests.conftest import FIXTURE_NAMES


def test_agents_sessions_history_of_the_808af509_fixture(fixture_copy):
    with open_store(fixture_copy("daycare-808af509")) as store:
        db = store.db
        ids = list_agent_ids(db, sort="created_at", descending=False)
        assert ids == ["agentcron1", "agentusr1"]
        agents = fetch_agents(db, ids)
        usr = agents["agentusr1"]
        assert usr.name == "telegram user 42 · chat-42" and usr.lifecycle == "active"
        assert usr.token_total.total == 140 and usr.tokens.model == "gpt-5"
        cron = agents["agentcron1"]
        assert cron.lifecycle == "sleeping" and cron.permissions.reduced and cron.name == "Daily cleanup"
        assert list_agent_ids(db, AgentFilter(kinds=("cron",))) == ["agentcron1"]
        assert list_agent_ids(db, AgentFilter(text="telegram")) == ["agentusr1"]
        assert list_agent_ids(db, AgentFilter(lifecycles=("dead",))) == []

        sessions = list_sessions(db, "agentusr1")
        assert [s.record_count for s in sessions] == [2, 1]
        assert sessions[1].is_active and sessions[1].reset_message == "manual reset"
        assert sessions[1].inference_session_id == "inf-abc" and sessions[0].inference_session_id is None

        first = page_after(db, sessions[0].id)
        assert [r.type for r, _p, _s in first] == ["user_message", "assistant_message"]
        assert first[0][0].text == "hello"
        last = page_before(db, sessions[1].id, limit=1)
        assert last[0][0].text == "Agent booted"
        assert count_history(db, sessions[0].id) == 2

        assert token_usage_by_model(db)[("openai", "gpt-5")].total == 140
        users = list_users(db)
        assert len(users) == 1 and users[0].is_owner and users[0].connector_keys == ("telegram:42",)
        assert users[0].agent_count == 2 and users[0].nametag

        cron_rows = list_cron_rows(db)
        assert cron_rows[0].id == "dailycleanup" and cron_rows[0].code.startswith("Check temporary")
        assert list_heartbeat_rows(db)[0].title == "Morning status"

        proc = page_rows(db, "processes")[0]
        assert proc.parsed["permissions"].working_dir == "/tmp" and proc.values["keep_alive"] == 1
        endpoint = page_rows(db, "expose_endpoints")[0]
        assert str(endpoint.parsed["target"]) == "port 8080"
        event = page_rows(db, "signals_events")[0]
        assert event.parsed["source"].user_id == "usr_x"


def test_newer_schema_without_code_columns(fixture_copy):
    with open_store(fixture_copy("daycare-newer")) as store:
        assert list_cron_rows(store.db) == []
        assert store.has_table("token_stats_hourly") and store.has_table("tasks")
        assert store.migrations.unknown and not store.migrations.pending


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_table_counts_match_sqlite3(fixture_copy, name):
    root = fixture_copy(name)
    conn = sqlite3.connect(f"file:{root / 'daycare.db'}?immutable=1", uri=True)
    expected = {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
                for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    with open_store(root) as store:
        assert store.table_counts() == expected


def test_migration_states_of_the_three_fixtures(fixture_copy):
    with open_store(fixture_copy("daycare-808af509")) as s:
        m = s.migrations
        assert len(m.applied) == 26 and m.pending == () and m.unknown == ()
        assert m.applied_names[19] == "20260222_session_ended_at"  # applied order, not name order
    with open_store(fixture_copy("daycare-newer")) as s:
        m = s.migrations
        assert len(m.applied) == 33 and m.pending == ()
        assert len(m.unknown) == 7 and set(m.unknown) == set(m.later_known) and m.later_pending == ()
    with open_store(fixture_copy("daycare-stuck")) as s:
        m = s.migrations
        assert len(m.applied) == 27 and m.unknown == ("20260224_add_tasks_table",)
        assert m.next_later == "20260227_require_cron_task_id" and len(m.later_pending) == 6


def test_inventory_is_scanned_once_when_two_threads_ask_together(fixture_copy):
    import threading

    with open_store(fixture_copy("daycare-808af509")) as store:
        barrier = threading.Barrier(4)

        def ask():
            barrier.wait()
            store.files()
            store.check_json_columns()

        threads = [threading.Thread(target=ask) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        bad = [p for p in store.problems if p.path.endswith("agentusr1/history.jsonl")]
        assert len(bad) == 1


def test_agent_time_range_filter_runs_in_sql(fixture_copy):
    with open_store(fixture_copy("daycare-808af509")) as store:
        db = store.db
        # agentusr1 was updated at 1739999050000, agentcron1 at 1739990000000
        assert list_agent_ids(db, AgentFilter(updated_since=1739995000000)) == ["agentusr1"]
        assert list_agent_ids(db, AgentFilter(updated_until=1739995000000)) == ["agentcron1"]
        where, params = AgentFilter(kinds=("user",), updated_since=5).where()
        assert "updated_at >= :since" in where and params["since"] == 5
