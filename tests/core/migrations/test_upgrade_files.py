"""What an upgrade does to the files around the database: journals, WAL, permissions, links, late writes."""

from __future__ import annotations

import sqlite3

import pytest

from daycare_gui.core.migrations.backup import copy_database
from daycare_gui.core.migrations.catalog import MIGRATIONS
from daycare_gui.core.migrations.upgrade import plan_upgrade, run_upgrade
from tests.conftest import snapshot_tree
from tests.core.migrations.helpers import leave_hot_journal, migrate, torn_rows


def partly_upgraded(folder, n=10):
    folder.mkdir(exist_ok=True)
    migrate(folder, migrations=MIGRATIONS[:n]).close()
    return folder / "daycare.db"


# -- a hot rollback journal ------------------------------------------------------------------------------


def test_a_hot_journal_refuses_the_upgrade_and_takes_no_torn_backup(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    leave_hot_journal(db)
    assert torn_rows(db) > 0  # the file really holds half of the killed UPDATE
    before = snapshot_tree(db.parent)
    result = run_upgrade(db)
    assert not result.ok and result.backup_path is None
    assert "daycare.db-journal lies beside the database" in result.summary()[0]
    assert "sqlite3" in result.refusal and "No backup was taken" in result.refusal
    assert plan_upgrade(db).refusal == result.refusal
    assert snapshot_tree(db.parent) == before  # no backup, no working copy, the journal still there

    # What the message says to do: one read-write open rolls the journal back; the upgrade then runs.
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    assert torn_rows(db) == 0
    result = run_upgrade(db)
    assert result.ok and result.applied == [m.name for m in MIGRATIONS[10:]]
    assert not db.with_name("daycare.db-journal").exists()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("SELECT count(*) FROM big WHERE x GLOB 'A*'").fetchone() == (0,)
    assert sqlite3.connect(result.backup_path).execute("SELECT count(*) FROM big WHERE x GLOB 'A*'").fetchone() == (0,)


def test_a_copy_is_never_read_past_a_journal(tmp_path):
    """The backup's reader: ``immutable=1`` would copy the torn pages; it must fail instead."""
    db = partly_upgraded(tmp_path / "s")
    leave_hot_journal(db)
    with pytest.raises(sqlite3.OperationalError):
        copy_database(db, tmp_path / "copy.db")
    assert torn_rows(db) > 0 and db.with_name("daycare.db-journal").exists()


def test_a_committed_persist_journal_is_no_reason_to_refuse(tmp_path):
    """``journal_mode=PERSIST`` keeps an empty-headed journal after each commit: nothing to roll back."""
    db = partly_upgraded(tmp_path / "s")
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=PERSIST")
    conn.execute("CREATE TABLE t(x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()
    assert db.with_name("daycare.db-journal").stat().st_size > 0
    result = run_upgrade(db)
    assert result.ok and result.applied
    assert sqlite3.connect(db).execute("SELECT x FROM t").fetchall() == [(1,)]
