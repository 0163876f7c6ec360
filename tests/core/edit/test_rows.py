"""Editing tasks_cron / tasks_heartbeat rows: one transaction, optimistic concurrency, engine refusal."""

from __future__ import annotations

import os
import sqlite3

import pytest

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.edit.rows import EngineRunning, RowChanged, RowEditError, load_row, write_row
from daycare_gui.stores.daycare.paths import resolve_paths


@pytest.fixture
def store(tmp_path):
    root = tmp_path / "daycare"
    write_demo(root)
    return resolve_paths(root)


def _row(paths, table, row_id):
    conn = sqlite3.connect(paths.db_path)
    conn.row_factory = sqlite3.Row
    try:
        return dict(conn.execute(f"SELECT * FROM {table} WHERE id = ?", (row_id,)).fetchone())
    finally:
        conn.close()


def test_load_lists_only_existing_editable_columns(store):
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    assert loaded.editable == ("name", "schedule", "enabled", "delete_after_run", "agent_id", "user_id", "description", "code")
    assert loaded.get("schedule") == "0 7 * * *"
    heartbeat_id = sqlite3.connect(store.db_path).execute("SELECT id FROM tasks_heartbeat LIMIT 1").fetchone()[0]
    assert load_row(store.db_path, "tasks_heartbeat", heartbeat_id).editable == ("title", "code")


def test_write_changes_only_the_given_columns_and_updated_at(store):
    before = _row(store, "tasks_cron", "daily-digest")
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    written = write_row(store, loaded, {"schedule": "30 6 * * 1-5", "enabled": False}, now_ms=before["updated_at"] + 5000)
    after = _row(store, "tasks_cron", "daily-digest")
    assert after["schedule"] == "30 6 * * 1-5" and after["enabled"] == 0
    assert after["updated_at"] == before["updated_at"] + 5000
    assert {k: v for k, v in after.items() if k not in ("schedule", "enabled", "updated_at")} == {
        k: v for k, v in before.items() if k not in ("schedule", "enabled", "updated_at")
    }
    assert written.values == after
    # The returned row is the base for the next edit.
    write_row(store, written, {"name": "Digest"})
    assert _row(store, "tasks_cron", "daily-digest")["name"] == "Digest"


def test_updated_at_always_moves_forward(store):
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    written = write_row(store, loaded, {"name": "X"}, now_ms=1)
    assert written.values["updated_at"] == loaded.values["updated_at"] + 1


def test_refuses_a_row_changed_since_load(store):
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    conn = sqlite3.connect(store.db_path)
    conn.execute("UPDATE tasks_cron SET last_run_at = 123 WHERE id = 'daily-digest'")
    conn.commit()
    conn.close()
    with pytest.raises(RowChanged, match="last_run_at"):
        write_row(store, loaded, {"name": "Mine"})
    assert _row(store, "tasks_cron", "daily-digest")["name"] == "Daily digest"


def test_refuses_a_deleted_row(store):
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    conn = sqlite3.connect(store.db_path)
    conn.execute("DELETE FROM tasks_cron WHERE id = 'daily-digest'")
    conn.commit()
    conn.close()
    with pytest.raises(RowChanged, match="deleted"):
        write_row(store, loaded, {"name": "Mine"})


def test_refuses_bad_values_and_unknown_columns(store):
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    with pytest.raises(InvalidValue):
        write_row(store, loaded, {"schedule": "every day"})
    with pytest.raises(InvalidValue):
        write_row(store, loaded, {"name": "  "})
    with pytest.raises(RowEditError):
        write_row(store, loaded, {"last_run_at": 5})
    with pytest.raises(RowEditError):
        load_row(store.db_path, "users", "x")


def test_engine_running_refuses_unless_forced(store):
    store.pid_path.write_text(str(os.getpid()))
    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    with pytest.raises(EngineRunning, match="caches"):
        write_row(store, loaded, {"enabled": False})
    assert _row(store, "tasks_cron", "daily-digest")["enabled"] == 1
    write_row(store, loaded, {"enabled": False}, force=True)
    assert _row(store, "tasks_cron", "daily-digest")["enabled"] == 0


def test_a_fresh_read_only_store_sees_the_write(store):
    from daycare_gui.stores.daycare.sqlite.store import open_store

    loaded = load_row(store.db_path, "tasks_cron", "daily-digest")
    write_row(store, loaded, {"name": "Seen"})
    with open_store(store.root) as reopened:
        assert reopened.db.scalar("SELECT name FROM tasks_cron WHERE id = 'daily-digest'") == "Seen"


def test_a_row_is_never_read_past_a_hot_journal(store):
    """A writer killed mid-transaction leaves half of it in the file and the rest in daycare.db-journal: a
    read that ignores the journal (immutable) would show the half-written rows as the row to edit."""
    from tests.core.migrations.helpers import leave_hot_journal, torn_rows

    leave_hot_journal(store.db_path)
    assert torn_rows(store.db_path) > 0  # (what an immutable read would see)
    with pytest.raises(RowEditError, match="daycare.db-journal lies beside the database"):
        load_row(store.db_path, "tasks_cron", "daily-digest")
    assert (store.db_path.parent / "daycare.db-journal").stat().st_size > 0  # left for SQLite to roll back


def test_a_row_holding_text_that_is_not_utf8_is_refused_whole_and_never_quoted(store):
    """A task whose code holds bytes that are not UTF-8 is shown with U+FFFD where they break; saved from
    that, its bytes would change. Loading it for an edit is refused with a message that names the row, not
    its text (sqlite3's own error quoted the value, a secret in it too); the row is left as it was."""
    conn = sqlite3.connect(store.db_path)
    conn.execute("UPDATE tasks_cron SET code = CAST(? AS TEXT) WHERE id = 'daily-digest'",
                 (b"print('token=hunter2secret \xff')",))
    conn.commit()
    conn.close()
    before = sqlite3.connect(store.db_path).execute(
        "SELECT CAST(code AS BLOB) FROM tasks_cron WHERE id = 'daily-digest'").fetchone()[0]
    with pytest.raises(RowEditError) as refused:
        load_row(store.db_path, "tasks_cron", "daily-digest")
    said = str(refused.value)
    assert "daily-digest" in said and "not UTF-8" in said and "Nothing was written" in said
    assert "hunter2secret" not in said and "print(" not in said
    after = sqlite3.connect(store.db_path).execute(
        "SELECT CAST(code AS BLOB) FROM tasks_cron WHERE id = 'daily-digest'").fetchone()[0]
    assert after == before
