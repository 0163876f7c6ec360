"""Runner semantics (reference §2): pending by name, list order, one transaction each, stop at first failure."""

from __future__ import annotations

import pytest

from daycare_gui.stores.daycare.sqlite.migrations.base import Migration, MigrationError
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.runner import (
    MigrationFailed,
    RunOptions,
    applied_names,
    database_dir,
    open_database,
    pending_migrations,
    run_migrations,
)
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509


def test_catalog_follows_the_shared_list_not_name_order():
    assert [m.name for m in MIGRATIONS] == list(MIGRATIONS_808AF509)
    assert [m.name for m in MIGRATIONS] != sorted(m.name for m in MIGRATIONS)


def test_unknown_recorded_names_are_ignored_and_only_missing_ones_run(tmp_path):
    conn = open_database(tmp_path / "daycare.db")
    run_migrations(conn, MIGRATIONS[:3])
    conn.execute("INSERT INTO _migrations VALUES ('20990101_from_the_future', 1)")
    assert [m.name for m in pending_migrations(conn)] == list(MIGRATIONS_808AF509[3:])
    applied = run_migrations(conn)
    assert applied == list(MIGRATIONS_808AF509[3:])
    assert "20990101_from_the_future" in applied_names(conn)


def test_failure_rolls_back_that_migration_and_stops(tmp_path):
    def half_then_fail(ctx):
        ctx.conn.execute("CREATE TABLE half_done (x)")
        raise MigrationError("boom")

    never = Migration("z_never", "", lambda ctx: None)
    conn = open_database(tmp_path / "daycare.db")
    with pytest.raises(MigrationFailed) as err:
        run_migrations(conn, [*MIGRATIONS[:1], Migration("y_fails", "", half_then_fail), never])
    assert err.value.name == "y_fails" and err.value.applied == ["20260219_initial"]
    assert applied_names(conn) == ["20260219_initial"]
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchone() is None


def test_progress_and_cancel_between_migrations(tmp_path):
    seen = []
    conn = open_database(tmp_path / "daycare.db")
    applied = run_migrations(conn, MIGRATIONS, RunOptions(progress=lambda i, n, m: seen.append((i, n, m.name)),
                                                          cancel=lambda: len(seen) >= 2))
    assert applied == list(MIGRATIONS_808AF509[:2])
    assert seen == [(0, 26, MIGRATIONS_808AF509[0]), (1, 26, MIGRATIONS_808AF509[1])]


def test_pragmas_and_legacy_dir(tmp_path):
    conn = open_database(tmp_path / "sub" / "daycare.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert database_dir(conn) == (tmp_path / "sub").resolve() or database_dir(conn) == tmp_path / "sub"
    assert database_dir(open_database(":memory:")) is None
