"""Text a SQLite store holds that is not UTF-8: read with U+FFFD where its bytes break, by the same
connection that reads everything else, and never quoted in an error."""

from __future__ import annotations

import sqlite3

import pytest

from daycare_gui.stores.common.sqlite_ro import DatabaseError, ReadOnlyDatabase
from daycare_gui.stores.common.sqlite_text import fetch_all, without_quoted_text

BAD = b"api_key=hunter2secret \xff\xfe end"


@pytest.fixture
def db_file(tmp_path):
    path = tmp_path / "store.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
    conn.executemany("INSERT INTO t (body) VALUES (?)", [("plain",), ("ünïcödé 🦜",)])
    conn.execute("INSERT INTO t (body) VALUES (CAST(? AS TEXT))", (BAD,))
    conn.commit()
    conn.close()
    return path


def test_a_read_only_store_reads_a_value_that_is_not_utf8_with_replacement_characters(db_file):
    db = ReadOnlyDatabase(db_file)
    try:
        assert db.fetch("SELECT id, body FROM t ORDER BY id") == [
            (1, "plain"), (2, "ünïcödé 🦜"), (3, "api_key=hunter2secret \ufffd\ufffd end")]
        assert [tuple(r) for r in db.rows("SELECT body FROM t WHERE id = 3")] == [
            ("api_key=hunter2secret \ufffd\ufffd end",)]
        # the connection is handed back as it was: a value read afterwards is a plain str, decoded by sqlite3
        assert db.fetch("SELECT body FROM t WHERE id = 2") == [("ünïcödé 🦜",)]
    finally:
        db.close()


def test_a_plain_connection_reads_it_so_and_gets_its_decoder_back(db_file):
    conn = sqlite3.connect(db_file)
    try:
        assert fetch_all(conn, "SELECT body FROM t WHERE id >= ?", (2,)) == [
            ("ünïcödé 🦜",), ("api_key=hunter2secret \ufffd\ufffd end",)]
        assert conn.text_factory is str
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("SELECT body FROM t WHERE id = 3").fetchall()  # (what it does without fetch_all)
    finally:
        conn.close()


def test_an_error_about_such_a_value_never_quotes_it(db_file):
    conn = sqlite3.connect(db_file)
    try:
        with pytest.raises(sqlite3.OperationalError) as failed:
            conn.execute("SELECT body FROM t WHERE id = 3").fetchall()
    finally:
        conn.close()
    assert "hunter2secret" in str(failed.value)  # (sqlite3's own words quote it)
    said = without_quoted_text(str(failed.value))
    assert "hunter2secret" not in said and "end" not in said
    assert said.startswith("Could not decode to UTF-8") and said.endswith("(text that is not UTF-8)")
    assert without_quoted_text("database is locked") == "database is locked"


def test_other_errors_are_still_errors(db_file):
    db = ReadOnlyDatabase(db_file)
    try:
        with pytest.raises(DatabaseError, match="no such table"):
            db.fetch("SELECT * FROM missing")
    finally:
        db.close()
