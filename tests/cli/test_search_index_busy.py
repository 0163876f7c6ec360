"""A search while another daycare-gui writes the search index (a window's first build holds the index for the
whole build): one sentence that says so and exit 1, never "cannot read this store" (the store is fine) and
never a traceback; and a search that needs no writing still answers from the index beside the writer."""

from __future__ import annotations

import json
import sqlite3

import pytest

from daycare_gui.cli import main


@pytest.fixture
def store(tmp_path):
    from daycare_gui.stores.daycare.demo import write_demo

    folder = tmp_path / "daycare"
    write_demo(folder, now_ms=1_795_000_000_000)
    return folder


def _index_file(index_dir):
    (found,) = [p for p in index_dir.rglob("*.sqlite")]
    return found


def _search_beside_a_writer(store, index_dir) -> int:
    """The search, while another process's build holds a write transaction on the index."""
    writer = sqlite3.connect(_index_file(index_dir), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("CREATE TABLE IF NOT EXISTS busy_test (x)")
    try:
        return main(["search", str(store), "adapter", "--index-dir", str(index_dir)])
    finally:
        writer.rollback()
        writer.close()


def test_a_search_that_must_write_the_index_says_another_process_is_writing_it(store, tmp_path, capsys):
    index_dir = tmp_path / "index"
    assert main(["search", str(store), "adapter", "--index-dir", str(index_dir)]) == 0
    db = sqlite3.connect(store / "daycare.db")
    session_id = db.execute("SELECT session_id FROM session_history LIMIT 1").fetchone()[0]
    db.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
               (session_id, 1_795_000_000_001, json.dumps({"text": "a new adapter note", "files": []})))
    db.commit()
    db.close()
    capsys.readouterr()
    code = _search_beside_a_writer(store, index_dir)
    err = capsys.readouterr().err
    assert code == 1
    assert "being written by another daycare-gui" in err and "search again once it is done" in err
    assert "cannot read this store" not in err and "Traceback" not in err
    # the writer gone, the same search indexes the new record and finds it
    assert main(["search", str(store), "adapter", "--index-dir", str(index_dir)]) == 0
    assert "a new adapter note".replace("adapter", "[adapter]") in capsys.readouterr().out


def test_a_search_with_nothing_to_index_answers_beside_the_writer(store, tmp_path, capsys):
    index_dir = tmp_path / "index"
    assert main(["search", str(store), "adapter", "--index-dir", str(index_dir)]) == 0
    first = capsys.readouterr().out
    code = _search_beside_a_writer(store, index_dir)
    assert code == 0
    assert capsys.readouterr().out == first


def test_a_locked_store_is_not_said_to_be_a_busy_index(store, tmp_path, capsys, monkeypatch):
    """"locked" from the store's side (read through the index's connection) while nothing writes the index:
    the store's own message, not the index's."""
    from daycare_gui.stores.common import search_build

    index_dir = tmp_path / "index"
    assert main(["search", str(store), "adapter", "--index-dir", str(index_dir)]) == 0
    capsys.readouterr()

    def locked_store(*_args, **_kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(search_build, "update_source_index", locked_store)
    assert main(["search", str(store), "adapter", "--index-dir", str(index_dir)]) == 1
    err = capsys.readouterr().err
    assert "cannot read this store: database is locked" in err
    assert "being written by another daycare-gui" not in err
