"""What an upgrade does to the files around the database: journals, WAL, permissions, links, late writes."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from daycare_gui.stores.daycare.sqlite.migrations.backup import copy_database
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import plan_upgrade, run_upgrade
from tests.conftest import snapshot_tree
from tests.core.migrations.helpers import leave_hot_journal, leave_wal, migrate, read_only, torn_rows
from tests.crash.helpers import dead_pid

REST = [m.name for m in MIGRATIONS[10:]]


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


# -- the swap: committed data in the -wal ----------------------------------------------------------------


def store_with_wal(tmp_path):
    """Ten migrations applied, then a table committed only to the -wal (Daycare killed before a checkpoint)."""
    db = partly_upgraded(tmp_path / "s")
    leave_wal(db, "CREATE TABLE qa_marker(x)", "INSERT INTO qa_marker VALUES ('in-wal')")
    return db


def data_files(folder):
    """The database and its WAL, byte for byte (-shm is left out: every reader writes to it)."""
    return {k: v for k, v in snapshot_tree(folder).items() if not k.endswith("-shm") and ".backup-" not in k}


def test_a_failed_swap_leaves_the_database_and_its_wal_as_they_were(tmp_path, monkeypatch):
    db = store_with_wal(tmp_path)
    before = data_files(db.parent)
    real_replace = os.replace

    def replace(src, dst):
        if os.fspath(dst) == os.fspath(db):
            raise OSError(5, "Input/output error (simulated)")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    result = run_upgrade(db)  # reports, does not raise
    monkeypatch.undo()
    assert result.failure == ("swap", "[Errno 5] Input/output error (simulated)") and result.applied == []
    assert result.summary()[:2] == [
        "The upgraded copy could not replace the database: [Errno 5] Input/output error (simulated)",
        f"Nothing was changed: {db} is exactly as it was before.",
    ]
    assert data_files(db.parent) == before  # the -wal with the committed table is still beside the file
    assert db.with_name("daycare.db-shm").exists()
    assert read_only(db).execute("SELECT x FROM qa_marker").fetchall() == [("in-wal",)]
    assert sorted(p.name for p in db.parent.iterdir() if p.name.startswith(".")) == []


def test_a_successful_swap_keeps_what_the_wal_held(tmp_path):
    db = store_with_wal(tmp_path)
    result = run_upgrade(db)
    assert result.ok and result.applied == REST
    assert sorted(p.name for p in db.parent.iterdir()) == ["daycare.db", result.backup_path.name]
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT x FROM qa_marker").fetchall() == [("in-wal",)]
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def set_aside_as_a_killed_upgrade_would(db, pid):
    """The state a kill between setting the -wal/-shm aside and the swap leaves."""
    base = f".daycare.db.upgrade-{pid}-1700000000000"
    for suffix in ("-wal", "-shm"):
        os.rename(db.with_name(db.name + suffix), db.with_name(f"{base}.ino{db.stat().st_ino}.old{suffix}"))
    return base


def test_the_next_upgrade_puts_back_a_wal_a_killed_upgrade_set_aside(tmp_path):
    db = store_with_wal(tmp_path)
    set_aside_as_a_killed_upgrade_would(db, dead_pid())
    with pytest.raises(sqlite3.OperationalError):  # without its -wal the file lacks the committed table
        sqlite3.connect(f"{db.resolve().as_uri()}?immutable=1", uri=True).execute("SELECT * FROM qa_marker")
    result = run_upgrade(db)
    assert result.ok and result.applied == REST
    assert sorted(p.name for p in db.parent.iterdir()) == ["daycare.db", result.backup_path.name]
    assert read_only(db).execute("SELECT x FROM qa_marker").fetchall() == [("in-wal",)]


def test_a_set_aside_wal_of_a_replaced_database_is_removed(tmp_path):
    db = store_with_wal(tmp_path)
    set_aside_as_a_killed_upgrade_would(db, dead_pid())
    copy = db.with_name("copy.db")
    copy.write_bytes(db.read_bytes())
    os.replace(copy, db)  # what the swap does: another file (inode) at the path
    result = run_upgrade(db)
    assert result.ok
    assert sorted(p.name for p in db.parent.iterdir()) == ["daycare.db", result.backup_path.name]


def test_a_set_aside_wal_is_not_put_back_onto_a_database_written_since(tmp_path):
    db = store_with_wal(tmp_path)
    base = set_aside_as_a_killed_upgrade_would(db, dead_pid())
    conn = sqlite3.connect(db)  # e.g. Daycare started meanwhile
    conn.execute("CREATE TABLE later(x)")
    conn.commit()
    conn.close()
    before = data_files(db.parent)
    result = run_upgrade(db)
    assert result.refusal.startswith(f"{db.parent / base}.ino{db.stat().st_ino}.old-wal is the write-ahead log of "
                                     f"{db}, set aside by an upgrade that was stopped")
    assert "written to since, so putting it back would corrupt it" in result.refusal
    assert data_files(db.parent) == before  # the database and the set-aside WAL untouched


def test_a_set_aside_wal_of_a_running_upgrade_is_left_alone(tmp_path):
    db = store_with_wal(tmp_path)
    set_aside_as_a_killed_upgrade_would(db, os.getpid())
    asides = sorted(p.name for p in db.parent.iterdir() if ".old-" in p.name)
    run_upgrade(db, backup=False)
    assert sorted(p.name for p in db.parent.iterdir() if ".old-" in p.name) == asides


# -- writes while the upgrade runs -----------------------------------------------------------------------


def test_a_write_during_the_upgrade_stops_it_and_is_kept(tmp_path):
    db = partly_upgraded(tmp_path / "s")

    def progress(index, _total, _migration):
        if index == 5:
            conn = sqlite3.connect(db)
            conn.execute("CREATE TABLE qa_concurrent(x)")
            conn.execute("INSERT INTO qa_concurrent VALUES (1)")
            conn.commit()
            conn.close()

    result = run_upgrade(db, progress=progress)
    assert result.failure[0] == "store_changed" and result.applied == []
    summary = result.summary()
    assert summary[0].startswith("The database was written to while the upgrade ran: daycare.db (or its -wal or "
                                 "-journal) changed after the copy was taken")
    assert summary[1] == f"Nothing was changed: {db} is exactly as it was before."
    conn = read_only(db)
    assert conn.execute("SELECT x FROM qa_concurrent").fetchall() == [(1,)]
    assert conn.execute("SELECT count(*) FROM _migrations").fetchone() == (10,)
    assert not [p for p in db.parent.iterdir() if p.name.startswith(".")]


def test_an_engine_that_starts_during_the_upgrade_stops_it(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    before = snapshot_tree(db.parent)

    def progress(index, _total, _migration):
        if index == 5:
            (db.parent / "engine.pid").write_text(f"{os.getpid()}\n")

    result = run_upgrade(db, backup=False, progress=progress)
    assert result.failure[0] == "engine_started" and result.applied == []
    assert result.summary()[0].startswith("Daycare's engine started while the upgrade ran: Daycare's engine is running")
    (db.parent / "engine.pid").unlink()
    assert snapshot_tree(db.parent) == before


# -- mode and owner --------------------------------------------------------------------------------------


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_a_private_database_stays_private_and_so_does_its_backup(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    db.chmod(0o600)
    seen = []

    def progress(_index, _total, _migration):
        seen.extend(mode(p) for p in db.parent.iterdir() if p.name.startswith(".daycare.db.upgrade-"))

    result = run_upgrade(db, progress=progress)
    assert result.ok and result.applied == REST
    assert mode(db) == 0o600
    assert mode(result.backup_path) == 0o600
    assert seen and all(m & 0o077 == 0 for m in seen)  # the working copy was never readable by others


def test_a_group_readable_database_keeps_its_mode(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    db.chmod(0o640)
    result = run_upgrade(db)
    assert result.ok and mode(db) == 0o640 and mode(result.backup_path) == 0o640


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give files away")
def test_root_gives_the_new_file_and_the_backup_to_the_database_s_owner(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    db.chmod(0o600)
    os.chown(db, 65534, 65534)
    result = run_upgrade(db)
    assert result.ok and not result.warnings
    for path in (db, result.backup_path):
        st = path.stat()
        assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o600)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give files away")
def test_an_owner_that_cannot_be_kept_is_said(tmp_path, monkeypatch):
    """As a user who may not chown (here: root with chown refused), the new file is the user's own; say so."""
    db = partly_upgraded(tmp_path / "s")
    os.chown(db, 65534, 65534)

    def chown(*_args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", chown)
    result = run_upgrade(db, backup=False)
    monkeypatch.undo()
    assert result.ok
    assert result.summary()[-1] == (
        "warning: daycare.db is now owned by user 0, group 0; the file it replaced belonged to user 65534, group "
        f"65534 (only root may give a file away): if Daycare runs as that user, give it back with chown "
        f"65534:65534 {db}")


# -- a symlinked database --------------------------------------------------------------------------------


def test_a_symlinked_database_is_upgraded_where_it_points_and_stays_a_link(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    target = tmp_path / "elsewhere" / "real-store.db"
    target.parent.mkdir()
    os.replace(db, target)
    db.symlink_to(target)
    leave_wal(db, "CREATE TABLE qa_marker(x)", "INSERT INTO qa_marker VALUES ('in-wal')")
    assert target.with_name("real-store.db-wal").exists()  # SQLite keeps the WAL beside the target
    assert [p.name for p in plan_upgrade(db).pending] == REST

    result = run_upgrade(db)
    assert result.ok and result.applied == REST
    assert db.is_symlink() and os.readlink(db) == str(target)
    assert sorted(p.name for p in db.parent.iterdir()) == ["daycare.db"]
    assert sorted(p.name for p in target.parent.iterdir()) == sorted(["real-store.db", result.backup_path.name])
    conn = read_only(target)
    assert conn.execute("SELECT count(*) FROM _migrations").fetchone() == (26,)
    assert conn.execute("SELECT x FROM qa_marker").fetchall() == [("in-wal",)]  # the WAL's commit was kept


def test_a_dangling_database_link_is_refused(tmp_path):
    db = partly_upgraded(tmp_path / "s")
    db.unlink()
    db.symlink_to(tmp_path / "gone" / "daycare.db")
    before = snapshot_tree(tmp_path)
    result = run_upgrade(db)
    assert result.refusal == (f"{db} is a symbolic link to {tmp_path / 'gone' / 'daycare.db'}, which does not "
                              "exist; restore the database there (or remove the link) first.")
    assert snapshot_tree(tmp_path) == before and not (tmp_path / "gone").exists()
