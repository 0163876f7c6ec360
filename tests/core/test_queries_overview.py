"""Store summary, table list and migration lines: compared with plain sqlite3 and the fixtures' README."""

import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.queries.overview import (
    all_problems,
    migration_lines,
    migration_summary,
    store_summary,
    table_infos,
)
from daycare_gui.stores.daycare.sqlite.store import open_store


def _sqlite_counts(db_path):
    conn = sqlite3.connect(f"file:{db_path}?immutable=1", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(dest)
    return dest


def test_summary_of_the_demo_store(demo):
    with open_store(demo) as store:
        s = store_summary(store)
    assert s.generation == "sqlite" and "SQLite" in s.generation_text
    assert not s.engine_running and s.engine_detail == "no pid file and no socket"
    assert s.db_mode == "immutable" and "read-only" in s.mode_text
    assert s.migrations_label == "up to date (808af509)"
    assert s.table_counts == _sqlite_counts(demo / "daycare.db")
    assert s.file_counts["auth_entries"] == 5 and all(n > 0 for n in s.file_counts.values())
    # token usage is aggregated in SQL, largest first; activity sums to every history record
    totals = [t.size.total for t in s.tokens]
    assert totals == sorted(totals, reverse=True) and totals[0] > 0
    assert {t.provider for t in s.tokens} >= {"anthropic", "openai"}
    assert sum(n for _day, n in s.activity) == s.table_counts["session_history"]
    assert all(day % 86_400_000 == 0 for day, _n in s.activity)
    assert s.problems >= 1 and s.token_failure is None and s.activity_failure is None


def test_summary_without_a_database(fixture_copy):
    with open_store(fixture_copy("daycare-808af509", with_db=False)) as store:
        s = store_summary(store)
    assert s.generation == "legacy-files" and s.db_mode == "no database"
    assert s.table_counts == {} and s.tokens == () and s.activity == ()
    assert s.file_counts["legacy_agents"] == 2
    assert s.migrations_label == "no migrations recorded"
    assert s.problem_errors >= 1  # the bad history line


def test_tables_of_808af509_match_sqlite(fixture_copy):
    path = fixture_copy("daycare-808af509")
    with open_store(path) as store:
        infos = table_infos(store.db, store.cols)
    expected = _sqlite_counts(path / "daycare.db")
    assert len(infos) == 20
    assert {t.name: t.rows for t in infos} == expected
    agents = next(t for t in infos if t.name == "agents")
    assert agents.columns[:3] == ("id", "type", "descriptor") and agents.error is None


def test_problems_include_the_bad_history_line(fixture_copy):
    with open_store(fixture_copy("daycare-808af509")) as store:
        problems = all_problems(store)
        again = all_problems(store)
    assert len(again) == len(problems)  # the file scan adds its problems once
    hits = [p for p in problems if p.path.endswith("agents/agentusr1/history.jsonl") and p.line == 6]
    assert len(hits) == 1 and hits[0].severity == "error"


def test_migration_lines_of_the_stuck_store(fixture_copy):
    with open_store(fixture_copy("daycare-stuck")) as store:
        state = store.migrations
    lines = migration_lines(state)
    applied = [ln for ln in lines if ln.status in ("applied", "unknown")]
    assert [ln.name for ln in applied] == state.applied_names and len(applied) == 27
    assert all(ln.applied_at for ln in applied)
    unknown = [ln for ln in lines if ln.status == "unknown"]
    assert [ln.name for ln in unknown] == ["20260224_add_tasks_table"] and "b8a8d807" in unknown[0].note
    later = [ln for ln in lines if ln.status == "later pending"]
    assert later[0].name == "20260227_require_cron_task_id" and "stopped before" in later[0].note
    assert len(later) == 6
    assert "stopped before 20260227_require_cron_task_id" in migration_summary(state)


def test_migration_lines_of_the_newer_and_808af509_stores(fixture_copy):
    with open_store(fixture_copy("daycare-newer")) as store:
        lines = migration_lines(store.migrations)
        summary = migration_summary(store.migrations)
    assert len(lines) == 33 and sum(ln.status == "unknown" for ln in lines) == 7
    assert "7 unknown" in summary and "later Daycare" in summary
    with open_store(fixture_copy("daycare-808af509")) as store:
        lines = migration_lines(store.migrations)
    assert [ln.status for ln in lines] == ["applied"] * 26
    # applied order, not name order: 20260222_session_ended_at ran 20th
    assert lines[19].name == "20260222_session_ended_at"
