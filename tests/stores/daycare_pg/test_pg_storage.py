"""A PostgreSQL Daycare store through Storage: its _migrations against Daycare 7c3c466c's list, and why
daycare-gui offers no upgrade for it; its tables list their columns."""

from __future__ import annotations

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.catalog import MIGRATIONS


def test_migrations_are_read_against_the_known_list_and_upgrade_says_why_not(pg_demo_url):
    with registry.open_store(pg_demo_url) as opened:
        storage = opened.capability(api.Storage)
        lines, summary, plan = storage.migrations(), storage.migration_summary(), storage.upgrade_plan()
        tables = {t.name: t for t in opened.capability(api.Tables).tables()}
    assert [(m.status, m.name) for m in lines] == [("applied", m) for m in MIGRATIONS]
    assert all(m.applied_at for m in lines)
    assert summary.startswith(f"{len(MIGRATIONS)} applied of Daycare 7c3c466c's {len(MIGRATIONS)}")
    assert isinstance(plan, str) and "never migrates it" in plan
    assert tables["_migrations"].count == len(MIGRATIONS) and "user_id" in tables["agents"].columns


def test_a_pending_and_an_unknown_migration_are_named(pg_fresh_url):
    import psycopg

    with psycopg.connect(pg_fresh_url) as conn:
        conn.execute("DELETE FROM _migrations WHERE name = %s", (MIGRATIONS[-1],))
        conn.execute("INSERT INTO _migrations (name, applied_at) VALUES ('20270101000000_from_later', 1)")
    with registry.open_store(pg_fresh_url) as opened:
        storage = opened.capability(api.Storage)
        lines, plan = storage.migrations(), storage.upgrade_plan()
    statuses = {m.name: m.status for m in lines}
    assert statuses[MIGRATIONS[-1]] == "pending" and statuses["20270101000000_from_later"] == "unknown"
    assert isinstance(plan, str) and plan.startswith("1 migration pending.")


def test_rows_after_walks_a_table_by_its_row_places_with_no_offset(pg_demo_url):
    import psycopg

    with psycopg.connect(pg_demo_url) as conn:
        ids = sorted(r[0] for r in conn.execute("SELECT id FROM session_history"))
        envs = [r[0] for r in conn.execute("SELECT env::text FROM processes")]
    statements, seen, key = [], [], None
    with registry.open_store(pg_demo_url) as opened:
        tables = opened.capability(api.Tables)
        db, real = opened.db, opened.db.mappings
        db.mappings = lambda sql, params=None: statements.append(sql) or real(sql, params)  # (what it asks)
        while True:
            page = tables.rows_after("session_history", key, 10)
            seen += [r.raw["id"] for r in page]
            if len(page) < 10:
                break
            key = page[-1].key
        processes = tables.rows_after("processes", None, 10)
    assert sorted(seen) == ids and len(seen) == len(set(seen))  # every row once, however deep
    assert statements and not [s for s in statements if "OFFSET" in s.upper()]
    shown = repr([r.raw for r in processes])
    planted = [v for e in envs if e for v in __import__("json").loads(e).values() if isinstance(v, str) and len(v) > 3]
    assert planted and not any(v in shown for v in planted) and "••••••••" in shown  # environments masked
