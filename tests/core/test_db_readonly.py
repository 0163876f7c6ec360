"""The read-only database: never writes, never creates -wal/-shm on a checkpointed store, survives
WAL data, locks, unwritable folders and damaged files with a clear message."""

import os
import sqlite3

import pytest

from daycare_gui.stores.common.sqlite_ro import DatabaseError, ReadOnlyDatabase
from tests.conftest import snapshot_tree


def test_checkpointed_store_is_read_without_touching_the_folder(fixture_copy):
    root = fixture_copy("daycare-808af509")
    before = snapshot_tree(root)
    with ReadOnlyDatabase(root / "daycare.db") as db:
        assert db.mode.name == "immutable"
        assert db.count("agents") == 2
    assert snapshot_tree(root) == before  # no -wal/-shm created, no byte changed


def test_writes_are_impossible(fixture_copy):
    root = fixture_copy("daycare-808af509")
    with ReadOnlyDatabase(root / "daycare.db") as db:
        with pytest.raises(DatabaseError):
            db.rows("DELETE FROM agents")
        assert db.count("agents") == 2


def _add_wal_row(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("INSERT INTO inbox VALUES ('i1', 'agentusr1', 1, 'message', '{}')")
    conn.commit()
    return conn  # kept open so the WAL is not checkpointed away


def test_data_still_in_the_wal_is_seen(fixture_copy):
    root = fixture_copy("daycare-808af509")
    writer = _add_wal_row(root / "daycare.db")
    try:
        with ReadOnlyDatabase(root / "daycare.db", live=True) as db:
            assert db.mode.name == "read-only" and db.count("inbox") == 1
        wal_before = (root / "daycare.db-wal").read_bytes()
        with ReadOnlyDatabase(root / "daycare.db", live=False) as db:
            assert db.mode.name == "snapshot" and db.count("inbox") == 1
            assert "snapshot" in db.mode.note
        assert (root / "daycare.db-wal").read_bytes() == wal_before
    finally:
        writer.close()


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write any folder")
def test_unwritable_folder_falls_back_to_a_snapshot(fixture_copy):
    root = fixture_copy("daycare-808af509")
    writer = _add_wal_row(root / "daycare.db")
    os.chmod(root, 0o555)
    try:
        with ReadOnlyDatabase(root / "daycare.db", live=True) as db:
            assert db.count("inbox") == 1
    finally:
        os.chmod(root, 0o755)
        writer.close()


def test_unwritable_folder_fallback_when_ro_open_fails(fixture_copy, monkeypatch):
    # As root we cannot make a folder unwritable, so make the read-only open fail the way it does there.
    root = fixture_copy("daycare-808af509")
    writer = _add_wal_row(root / "daycare.db")
    real_connect = sqlite3.connect

    def failing_connect(database, *a, **kw):
        if "mode=ro" in database and "immutable" not in database and "daycare-gui-snapshot" not in database:
            raise sqlite3.OperationalError("unable to open database file")
        return real_connect(database, *a, **kw)

    monkeypatch.setattr(sqlite3, "connect", failing_connect)
    try:
        with ReadOnlyDatabase(root / "daycare.db", live=True) as db:
            assert db.mode.name == "snapshot" and db.count("inbox") == 1
            assert "because a read-only open failed (unable to open database file);" in db.mode.note
    finally:
        writer.close()


def test_locked_database_is_read_from_a_snapshot_and_says_why(fixture_copy):
    from daycare_gui.stores.daycare.sqlite.store import open_store

    root = fixture_copy("daycare-808af509")
    locker = _add_wal_row(root / "daycare.db")  # committed data in the WAL …
    locker.isolation_level = None
    locker.execute("PRAGMA locking_mode=EXCLUSIVE")  # … and then another program takes the lock
    locker.execute("BEGIN EXCLUSIVE")
    locker.execute("INSERT INTO inbox VALUES ('i2', 'a', 2, 'message', '{}')")
    try:
        with open_store(root) as store:
            assert store.db.mode.name == "snapshot"
            assert store.db.count("inbox") == 1  # the committed row, nothing lost
            assert any("locked" in p.message for p in store.problems)
    finally:
        locker.execute("ROLLBACK")
        locker.close()


def test_a_query_on_a_locked_live_database_raises_a_clear_error(fixture_copy):
    root = fixture_copy("daycare-808af509")
    writer = _add_wal_row(root / "daycare.db")
    db = ReadOnlyDatabase(root / "daycare.db", live=True)
    db.dispose()  # pooled connections give way, as the GUI's do between requests
    writer.isolation_level = None
    writer.execute("PRAGMA locking_mode=EXCLUSIVE")
    writer.execute("BEGIN EXCLUSIVE")
    writer.execute("INSERT INTO inbox VALUES ('i2', 'a', 2, 'message', '{}')")
    try:
        with pytest.raises(DatabaseError, match="locked by another program"):
            db.count("inbox")
    finally:
        writer.execute("ROLLBACK")
        writer.close()
        db.close()


def test_damaged_file(tmp_path):
    bad = tmp_path / "daycare.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"garbage" * 100)
    with pytest.raises(DatabaseError):
        ReadOnlyDatabase(bad)


def test_a_damaged_store_says_what_and_where_once(tmp_path):
    """QA: the open wrapped the already explained error again ("X is damaged …: X is damaged …: …")."""
    from daycare_gui.stores.daycare.sqlite.store import open_store

    bad = tmp_path / "daycare.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84 + b"garbage" * 100)
    with pytest.raises(DatabaseError) as caught:
        ReadOnlyDatabase(bad)
    assert str(caught.value) == f"{bad} is damaged or not a SQLite database: file is not a database"
    with open_store(tmp_path) as store:  # what the Problems page and the Overview show
        said = [p.message for p in store.problems if p.path == str(bad)]
    assert said == [f"{bad} is damaged or not a SQLite database: file is not a database"]


def test_fetch_returns_plain_tuples_and_explains_errors(fixture_copy):
    root = fixture_copy("daycare-808af509")
    with ReadOnlyDatabase(root / "daycare.db") as db:
        rows = db.fetch("SELECT id, type FROM agents WHERE lifecycle = :l ORDER BY id", {"l": "active"})
        assert rows == [("agentusr1", "user")]
        with pytest.raises(DatabaseError, match="no such table"):
            db.fetch("SELECT * FROM nope")
        with pytest.raises(DatabaseError):
            db.fetch("DELETE FROM agents")
        assert db.count("agents") == 2


def test_follow_live_sees_a_writer_that_started_after_the_open(fixture_copy):
    root = fixture_copy("daycare-808af509")
    with ReadOnlyDatabase(root / "daycare.db") as db:
        assert db.mode.name == "immutable" and db.count("inbox") == 0
        assert db.follow_live() is False  # nothing changed: the quiet store stays untouched
        writer = sqlite3.connect(root / "daycare.db", timeout=0, isolation_level=None)
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("INSERT INTO inbox VALUES ('i1', 'agentusr1', 1, 'message', '{}')")
        assert db.count("inbox") == 0  # an immutable open never looks at the WAL
        assert db.follow_live() is True
        assert db.mode.name == "read-only" and db.count("inbox") == 1
        writer.execute("INSERT INTO inbox VALUES ('i2', 'agentusr1', 2, 'message', '{}')")  # busy_timeout 0
        assert db.count("inbox") == 2 and db.follow_live() is False
        writer.close()


def test_follow_live_after_the_writer_checkpointed_and_left(fixture_copy):
    root = fixture_copy("daycare-808af509")
    with ReadOnlyDatabase(root / "daycare.db") as db:
        assert db.count("inbox") == 0
        writer = sqlite3.connect(root / "daycare.db", isolation_level=None)
        writer.execute("INSERT INTO inbox VALUES ('i1', 'agentusr1', 1, 'message', '{}')")
        writer.close()  # the last connection: its commits are in the file now, the WAL is gone
        assert not os.path.exists(str(root / "daycare.db") + "-wal")
        assert db.follow_live() is True
        assert db.mode.name == "immutable" and db.count("inbox") == 1
