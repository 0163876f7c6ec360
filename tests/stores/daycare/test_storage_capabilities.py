"""Daycare's SQLite and legacy generations offer Tables, Charts and Storage with what the old Overview and
Storage pages showed (Qt-free: the adapters against the database read directly)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.records import UpgradePlan


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo") / "store"
    write_demo(root)
    return root


def _conn(path):
    return sqlite3.connect(f"file:{path}?immutable=1", uri=True)


def _counts(db):
    conn = _conn(db)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        conn.close()


def test_tables_list_counts_and_columns(demo):
    with registry.open_store(demo) as opened:
        tables = opened.capability(api.Tables).tables()
    assert {t.name: t.count for t in tables} == _counts(demo / "daycare.db")
    agents = next(t for t in tables if t.name == "agents")
    assert agents.columns[:3] == ("id", "type", "descriptor")


def test_rows_after_walks_a_table_by_rowid_with_json_parsed_and_secrets_masked(demo):
    conn = _conn(demo / "daycare.db")
    rowids = [r[0] for r in conn.execute("SELECT rowid FROM session_history ORDER BY rowid")]
    envs = [r[0] for r in conn.execute("SELECT env FROM processes")]
    conn.close()
    seen, key, statements = [], None, []
    with registry.open_store(demo) as opened:
        tables = opened.capability(api.Tables)
        db, real = opened.core.db, opened.core.db.rows
        db.rows = lambda sql, params=None: statements.append(sql) or real(sql, params)  # (every query it asks)
        while True:
            page = tables.rows_after("session_history", key, 50)
            seen += [int(r.key) for r in page]
            if len(page) < 50:
                break
            key = page[-1].key
        processes = tables.rows_after("processes", None, 10)
    assert seen == rowids  # every row once, in rowid order, however deep
    assert len(processes) == 3 and isinstance(processes[0].raw["env"], dict)  # JSON parsed for the detail view
    shown = json.dumps([r.raw for r in processes], default=str, ensure_ascii=False)
    assert "development" in "".join(envs) and "development" not in shown and "••••••••" in shown
    assert statements and not [s for s in statements if "OFFSET" in s.upper()]  # keyed: no page walks the ones before


def test_charts_count_history_per_day_and_tokens_per_model(demo):
    conn = _conn(demo / "daycare.db")
    records = conn.execute("SELECT count(*) FROM session_history").fetchone()[0]
    by_model: dict[str, int] = {}
    for (data,) in conn.execute("SELECT data FROM session_history WHERE type = 'assistant_message'"):
        tokens = json.loads(data).get("tokens")
        if tokens:
            by_model[tokens["model"]] = by_model.get(tokens["model"], 0) + tokens["size"]["input"] + tokens["size"]["output"]
    conn.close()
    with registry.open_store(demo) as opened:
        charts = opened.capability(api.Charts)
        activity, tokens = charts.activity_per_day(), charts.tokens_per_day()
    assert sum(d.value for d in activity) == records
    totals: dict[str, float] = {}
    for d in tokens:
        totals[d.series] = totals.get(d.series, 0) + d.value
    assert totals == by_model and len({d.day for d in tokens}) > 1


def test_storage_on_an_up_to_date_store(demo):
    with registry.open_store(demo) as opened:
        storage = opened.capability(api.Storage)
        lines = storage.migrations()
        plan = storage.upgrade_plan()
    assert [m.status for m in lines] == ["applied"] * 26
    assert isinstance(plan, UpgradePlan) and plan.steps == () and "nothing to run" in plan.up_to_date


def test_storage_names_the_migration_the_stuck_store_stopped_before(fixture_copy):
    with registry.open_store(fixture_copy("daycare-stuck")) as opened:
        storage = opened.capability(api.Storage)
        lines, summary, plan = storage.migrations(), storage.migration_summary(), storage.upgrade_plan()
    assert (lines[26].status, lines[26].name) == ("unknown", "20260224_add_tasks_table")
    assert (lines[27].status, lines[27].name) == ("later pending", "20260227_require_cron_task_id")
    assert "stopped before 20260227_require_cron_task_id" in summary
    assert isinstance(plan, str) and "trigger dailycleanup has no task_id" in plan  # refused, in a sentence


def test_a_legacy_folder_offers_its_upgrade_as_a_plan(fixture_copy):
    folder = fixture_copy("daycare-808af509", with_db=False)
    with registry.open_store(folder) as opened:
        assert opened.capability(api.Tables) is None  # no database yet
        plan = opened.capability(api.Storage).upgrade_plan()
    assert isinstance(plan, UpgradePlan) and not plan.exists and len(plan.steps) == 26
    assert any("agents" in s.rows for s in plan.steps)
    assert not (folder / "daycare.db").exists()  # a dry run writes nothing


def test_the_deep_scan_adds_the_files_problems(fixture_copy):
    with registry.open_store(fixture_copy("daycare-808af509")) as opened:
        before = len(opened.problems)
        opened.scan()
        found = [p for p in opened.problems.as_list() if p.path.endswith("agents/agentusr1/history.jsonl")]
    assert len(opened.problems) > before and [p.line for p in found] == [6]
