"""Search tests: a demo store written once, private copies to change, and a private index directory."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.sqlite.fts_index import SearchIndex, index_path


@pytest.fixture(scope="session")
def demo_master(tmp_path_factory):
    dest = tmp_path_factory.mktemp("search-demo") / "daycare"
    write_demo(dest)
    return dest


@pytest.fixture
def store_copy(demo_master, tmp_path):
    """A private copy of the demo store (tests may append or delete rows in it)."""
    dest = tmp_path / "store"
    shutil.copytree(demo_master, dest)
    return dest


@pytest.fixture
def index_dir(tmp_path, monkeypatch):
    """Never the real user cache: the default directory is redirected too."""
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture
def open_pair(index_dir):
    """``open_pair(store_dir)`` → (ReadOnlyDatabase, SearchIndex); both closed after the test."""
    opened = []

    def make(store_dir):
        db = ReadOnlyDatabase(store_dir / "daycare.db")
        index = SearchIndex(index_path(db.path, index_dir))
        opened.append((db, index))
        return db, index

    yield make
    for db, index in opened:
        index.close()
        db.close()


def write_rows(store_dir, rows, session_id=None):
    """Append history rows (type, data dict) to a store COPY; returns the new ids."""
    conn = sqlite3.connect(store_dir / "daycare.db")
    try:
        if session_id is None:
            session_id = conn.execute("SELECT id FROM sessions ORDER BY created_at LIMIT 1").fetchone()[0]
        ids = []
        for type_, data, *at in rows:
            cur = conn.execute("INSERT INTO session_history(session_id, type, at, data) VALUES (?, ?, ?, ?)",
                               (session_id, type_, at[0] if at else 1_770_000_000_000, json.dumps(data)))
            ids.append(cur.lastrowid)
        conn.commit()
        return ids
    finally:
        conn.close()


def sql(store_dir, statement, params=()):
    conn = sqlite3.connect(store_dir / "daycare.db")
    try:
        rows = conn.execute(statement, params).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()
