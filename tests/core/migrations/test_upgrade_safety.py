"""The safe entry point: refusals, backup, dry run, and a failed/cancelled upgrade leaving the store untouched."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3

from daycare_gui.stores.daycare.sqlite.migrations.base import Migration, MigrationError
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import plan_upgrade, run_upgrade
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509
from tests.conftest import snapshot_tree
from tests.core.migrations.helpers import migrate


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def store_needing_owner_for_heartbeat(folder):
    """Migrated up to #17, then the owner deleted and a heartbeat added: #18 must throw."""
    folder.mkdir(exist_ok=True)
    conn = migrate(folder, migrations=MIGRATIONS[:17])
    conn.execute("DELETE FROM users")
    conn.execute("INSERT INTO tasks_heartbeat (id, title, prompt, created_at, updated_at) VALUES ('h', 't', 'c', 1, 1)")
    conn.close()
    return folder / "daycare.db"


def test_failed_migration_leaves_database_byte_identical(tmp_path):
    db = store_needing_owner_for_heartbeat(tmp_path / "store")
    before, files_before = sha(db), sorted(p.name for p in db.parent.iterdir())
    result = run_upgrade(db)
    assert result.failure is not None and result.failure[0] == "20260223_add_heartbeat_users"
    assert "owner" in result.failure[1]
    assert sha(db) == before
    leftovers = sorted(p.name for p in db.parent.iterdir() if p.name != result.backup_path.name)
    assert leftovers == files_before  # no working copy, -wal or -shm left behind
    assert sqlite3.connect(result.backup_path).execute("SELECT COUNT(*) FROM _migrations").fetchone()[0] == 17


def test_injected_failure_on_an_up_to_date_store_changes_nothing(fixture_copy):
    folder = fixture_copy("daycare-808af509")
    before = snapshot_tree(folder)

    def fail(ctx):
        ctx.conn.execute("DELETE FROM agents")
        raise MigrationError("injected")

    result = run_upgrade(folder / "daycare.db", backup=False, migrations=(*MIGRATIONS, Migration("29990101_fail", "", fail)))
    assert result.failure == ("29990101_fail", "injected")
    assert snapshot_tree(folder) == before


def test_failure_on_a_fresh_store_creates_no_database(fixture_copy):
    folder = fixture_copy("daycare-808af509", with_db=False)
    (folder / "agents" / "agentcron1" / "descriptor.json").chmod(0o644)
    (folder / "agents" / "agentcron1" / "descriptor.json").write_text('{"id": "no type"}')
    before = snapshot_tree(folder)
    result = run_upgrade(folder / "daycare.db")
    assert result.failure[0] == "20260219_import_files" and result.backup_path is None
    assert snapshot_tree(folder) == before


def test_cancel_between_migrations_changes_nothing(fixture_copy):
    folder = fixture_copy("daycare-808af509", with_db=False)
    calls = []
    result = run_upgrade(folder / "daycare.db", progress=lambda i, n, m: calls.append(m.name), cancel=lambda: len(calls) >= 3)
    assert result.cancelled and result.applied == [] and not result.ok
    assert calls == list(MIGRATIONS_808AF509[:3])
    assert not (folder / "daycare.db").exists()


def test_backup_is_taken_before_applying(tmp_path):
    (tmp_path / "s").mkdir()
    migrate(tmp_path / "s", migrations=MIGRATIONS[:5]).close()
    db = tmp_path / "s" / "daycare.db"
    result = run_upgrade(db)
    assert result.ok and result.applied == list(MIGRATIONS_808AF509[5:])
    assert re.fullmatch(r"daycare\.db\.backup-\d{8}T\d{6}Z", result.backup_path.name)
    assert result.backup_path.parent == db.parent
    assert sqlite3.connect(result.backup_path).execute("SELECT COUNT(*) FROM _migrations").fetchone()[0] == 5
    assert result.integrity == ["ok"] and result.foreign_key_violations == []


def test_explicit_backup_path_and_no_backup(tmp_path):
    for name, kwargs in (("a", {"backup_path": tmp_path / "mine.db"}), ("b", {"backup": False})):
        (tmp_path / name).mkdir()
        migrate(tmp_path / name, migrations=MIGRATIONS[:1]).close()
        result = run_upgrade(tmp_path / name / "daycare.db", **kwargs)
        assert result.ok
        assert result.backup_path == kwargs.get("backup_path")
    assert not list((tmp_path / "b").glob("*.backup-*"))


def test_refuses_newer_database(fixture_copy):
    folder = fixture_copy("daycare-newer")
    before = snapshot_tree(folder)
    result = run_upgrade(folder / "daycare.db")
    assert result.refusal and "20260301_add_token_stats" in result.refusal and "b8a8d807" in result.refusal
    assert snapshot_tree(folder) == before


def test_refuses_stuck_database_and_names_the_trap(fixture_copy):
    folder = fixture_copy("daycare-stuck")
    before = snapshot_tree(folder)
    result = run_upgrade(folder / "daycare.db")
    assert "20260224_add_tasks_table" in result.refusal
    assert "20260227_require_cron_task_id" in result.refusal
    assert "Cannot require tasks_cron.task_id; trigger dailycleanup has no task_id." in result.refusal
    assert plan_upgrade(folder / "daycare.db").refusal == result.refusal
    assert snapshot_tree(folder) == before


def test_refuses_pglite_store(tmp_path):
    (tmp_path / "daycare.pglite" / "global").mkdir(parents=True)
    (tmp_path / "daycare.pglite" / "PG_VERSION").write_text("16\n")
    result = run_upgrade(tmp_path / "daycare.db")
    assert result.refusal and "is a PGlite (PostgreSQL) store" in result.refusal
    assert not (tmp_path / "daycare.db").exists()


def test_a_daycare_db_folder_is_damage_not_a_pglite_store(tmp_path):
    """QA: a folder where daycare.db should be was called a PGlite store; PGlite only lives at daycare.pglite/."""
    (tmp_path / "daycare.db").mkdir()
    (tmp_path / "agents").mkdir()
    before = snapshot_tree(tmp_path)
    result = run_upgrade(tmp_path / "daycare.db")
    assert result.refusal.startswith(f"{tmp_path / 'daycare.db'} is a folder, not a database file")
    assert "PGlite" not in result.refusal
    assert plan_upgrade(tmp_path / "daycare.db").refusal == result.refusal
    assert snapshot_tree(tmp_path) == before and (tmp_path / "daycare.db").is_dir()


def test_an_empty_pglite_folder_is_not_called_a_pglite_store(tmp_path):
    (tmp_path / "daycare.pglite").mkdir()
    result = run_upgrade(tmp_path / "daycare.db")
    assert "is a folder but not a PGlite data folder" in result.refusal
    assert not (tmp_path / "daycare.db").exists()


def test_refuses_while_engine_runs(fixture_copy):
    folder = fixture_copy("daycare-808af509", with_db=False)
    (folder / "engine.pid").write_text(f"{os.getpid()}\n")
    result = run_upgrade(folder / "daycare.db")
    assert result.refusal and "engine is running" in result.refusal
    assert not (folder / "daycare.db").exists()


def test_refuses_a_file_that_is_not_sqlite(tmp_path):
    (tmp_path / "daycare.db").write_text("hello")
    assert "not a SQLite database" in run_upgrade(tmp_path / "daycare.db").refusal


def test_dry_run_lists_pending_with_legacy_counts_and_skips_and_writes_nothing(fixture_copy):
    folder = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(folder)
    plan = plan_upgrade(folder / "daycare.db")
    assert snapshot_tree(folder) == before
    assert [p.name for p in plan.pending] == list(MIGRATIONS_808AF509)
    files = plan.pending[1]
    assert files.scan.counts == {"agents": 2, "sessions": 3, "records": 3}
    assert [f"{p.path}:{p.line}" for p in files.scan.skipped] == [f"{folder / 'agents' / 'agentusr1' / 'history.jsonl'}:6"]
    assert files.row_changes == {"agents": 2, "session_history": 3, "sessions": 3}
    text = "\n".join(plan.lines())
    assert "history.jsonl:6" in text and "1 cron task, 1 heartbeat task" in text
    assert plan.predicted_failure is None


def test_dry_run_predicts_a_failure(tmp_path):
    db = store_needing_owner_for_heartbeat(tmp_path / "s")
    before = snapshot_tree(db.parent)
    plan = plan_upgrade(db)
    assert plan.predicted_failure[0] == "20260223_add_heartbeat_users"
    assert snapshot_tree(db.parent) == before


def test_refuses_a_corrupt_sqlite_file(tmp_path):
    (tmp_path / "daycare.db").write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    result = run_upgrade(tmp_path / "daycare.db")
    assert result.refusal and "SQLite" in result.refusal
