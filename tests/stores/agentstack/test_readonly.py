"""Reading never writes a byte: open, browse every list and table, search, check the index, inspect."""

import subprocess
import sys

from daycare_gui.cli import main
from daycare_gui.stores.agentstack import write_demo
from daycare_gui.stores.api import Actions, Charts, Collections, Tables
from tests.stores.agentstack.builder import all_rows, fingerprint

WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint = 0")
conn.execute("INSERT INTO memory (id, key, content, created_at, updated_at) VALUES ('w', 'in-wal', 'only in the log', 1, 1)")
print("ready", flush=True)
sys.stdin.readline()
"""


def _browse(store):
    c = store.capability(Collections)
    for col in c.collections():
        for row in all_rows(c, col.id, 50):
            c.row(col.id, row.key)
    c.search("payment OR deploy", 20)
    t = store.capability(Tables)
    for ref in t.tables():
        t.columns(ref.name)
        t.rows(ref.name, 0, 50)
    store.capability(Actions).run("fts-integrity-check")
    store.capability(Charts).activity_per_day()
    store.report()
    store.summary()


def test_browsing_everything_changes_no_file(tmp_path, opened, capsys):
    write_demo(tmp_path)
    before = fingerprint(tmp_path)
    _browse(opened(tmp_path))
    main(["inspect", str(tmp_path), "--json"])
    capsys.readouterr()
    assert fingerprint(tmp_path) == before  # not even -wal/-shm files appeared


def test_a_live_store_is_read_through_its_wal_without_writing_the_database(tmp_path, opened):
    db = write_demo(tmp_path)
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        main_db, wal = db.read_bytes(), (tmp_path / "data" / "aistack.db-wal").read_bytes()
        store = opened(tmp_path)
        assert store.summary().open_mode == "read-only" and store.summary().engine_running
        c = store.capability(Collections)
        assert "in-wal" in [r.values[0] for r in all_rows(c, "memory")]
        _browse(store)
        store.close()
        # the -shm index is shared memory every reader marks; the database and its log stay as they were
        assert db.read_bytes() == main_db and (tmp_path / "data" / "aistack.db-wal").read_bytes() == wal
        snap = opened(tmp_path, live=False)
        assert snap.summary().open_mode == "snapshot" and snap.counts()["memory"] == 7
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
