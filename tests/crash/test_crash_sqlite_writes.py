"""SIGKILL at random moments during SQLite row edits: Daycare's task rows (core.edit.rows) and AgentStack's
memory edits (BEGIN IMMEDIATE, a version row and the FTS index through the store's triggers), in WAL and in
rollback-journal mode.

A child loops over many edits, each moving the row one step on; the parent kills it at a seeded random
moment. Afterwards — first through the same read-only reader the window uses (before anything could recover
the database), then through a read-write connection — the database passes integrity_check and the row is
whole: exactly the state after some number of completed edits. A rerun succeeds and no litter stays."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import Collections
from daycare_gui.stores.common import leftovers
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.edit.rows import load_row, write_row
from daycare_gui.stores.daycare.paths import resolve_paths
from tests.crash import harness

pytestmark = pytest.mark.slow

SCHEDULES = ("0 7 * * *", "30 6 * * 1-5")

DAYCARE_ROWS = """
import sys
from daycare_gui.stores.daycare.edit.rows import load_row, write_row
from daycare_gui.stores.daycare.paths import resolve_paths
SCHEDULES = ("0 7 * * *", "30 6 * * 1-5")
paths = resolve_paths(sys.argv[1])
print("go", flush=True)
for i in range(int(sys.argv[2])):
    loaded = load_row(paths.db_path, "tasks_cron", "daily-digest")
    nxt = SCHEDULES[(SCHEDULES.index(loaded.get("schedule")) + 1) % 2]
    write_row(paths, loaded, {"schedule": nxt, "enabled": i % 3 == 0})
"""


def _rw_check(db, sql, params=()):
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def _files(folder) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_daycare_row_edits_killed_at_random_moments(tmp_path, capsys):
    template = tmp_path / "template"
    write_demo(template)
    probe = tmp_path / "probe"
    shutil.copytree(template, probe)
    edits = 80
    duration = harness.run_to_end(DAYCARE_ROWS, str(probe), str(edits))

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(5)):
        root = tmp_path / f"t{trial}"
        shutil.copytree(template, root)
        paths = resolve_paths(root)
        outcome = harness.kill_after(DAYCARE_ROWS, rng.uniform(0, duration), str(root), str(edits))
        # What the window reads (immutable or mode=ro, no recovery) is a whole row of a committed state.
        seen = load_row(paths.db_path, "tasks_cron", "daily-digest")
        assert seen.get("schedule") in SCHEDULES, f"trial {trial}: {seen.values}"
        [(schedule, enabled)] = _rw_check(paths.db_path, "SELECT schedule, enabled FROM tasks_cron "
                                                        "WHERE id = 'daily-digest'")
        assert (schedule, enabled) == (seen.get("schedule"), seen.get("enabled")), f"trial {trial}"
        journal = (root / "daycare.db-journal").exists()
        tally[f"{outcome}/{'moved' if schedule != SCHEDULES[0] or enabled != 1 else 'first'}"
              f"{'+journal' if journal else ''}"] += 1

        loaded = load_row(paths.db_path, "tasks_cron", "daily-digest")  # the rerun
        write_row(paths, loaded, {"description": "after the crash"})
        assert load_row(paths.db_path, "tasks_cron", "daily-digest").get("description") == "after the crash"
        assert leftovers.in_tree(root) == []
        assert not (root / "daycare.db-journal").exists()
    with capsys.disabled():
        print("\n" + tally.line(f"Daycare row-edit kills ({sum(tally.values())} trials of {edits} edits, "
                                f"{duration:.2f}s)"))


AGENTSTACK_EDITS = """
import sys
from daycare_gui.stores import registry
from daycare_gui.stores.api import Collections
store = registry.open_store(sys.argv[1], kind="agentstack")
c = store.capability(Collections)
row = next(r for r in c.rows("memory", 0, 100) if r.values[0] == "beta")
print("go", flush=True)
for i in range(int(sys.argv[2])):
    done = row.raw.get("versions") or 0
    row = c.update("memory", row, {"content": f"round {done + 1} words " + "padding " * 20})
"""


def _agentstack_state(db) -> tuple[int, str]:
    [(versions,)] = _rw_check(db, "SELECT count(*) FROM memory_versions")
    [(content,)] = _rw_check(db, "SELECT content FROM memory WHERE key = 'beta'")
    return versions, content


def _expected_content(versions: int) -> str:
    return "lazy dogs sleep" if versions == 0 else f"round {versions} words " + "padding " * 20


@pytest.mark.parametrize("wal", [True, False], ids=["wal", "rollback-journal"])
def test_agentstack_memory_edits_killed_at_random_moments(tmp_path, capsys, wal):
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "template" / "data" / "aistack.db", wal=wal)
    b.memory("alpha", "the quick brown fox")
    b.memory("beta", "lazy dogs sleep")
    b.close()
    template = tmp_path / "template"
    probe = tmp_path / "probe"
    shutil.copytree(template, probe)
    edits = 12
    duration = harness.run_to_end(AGENTSTACK_EDITS, str(probe / "data" / "aistack.db"), str(edits))

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(4)):
        root = tmp_path / f"t{trial}"
        shutil.copytree(template, root)
        db = root / "data" / "aistack.db"
        outcome = harness.kill_after(AGENTSTACK_EDITS, rng.uniform(0, duration), str(db), str(edits))
        journal = (db.parent / "aistack.db-journal").exists()
        with registry.open_store(db, kind="agentstack") as store:  # the window's read-only view, first
            c = store.capability(Collections)
            row = next(r for r in c.rows("memory", 0, 100) if r.values[0] == "beta")
            shown_versions, shown = row.raw.get("versions") or 0, row.raw.get("content")
        versions, content = _agentstack_state(db)
        assert content == _expected_content(versions), f"trial {trial}: torn ({versions} versions)"
        assert (shown_versions, shown) == (versions, content), f"trial {trial}: the window shows another state"
        hits = _rw_check(db, "SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?",
                         ("round" if versions else "dogs",))
        assert len(hits) == 1, f"trial {trial}: the index does not follow the row"
        assert _rw_check(db, "INSERT INTO memory_fts(memory_fts, rank) VALUES('integrity-check', 1)") == []
        tally[f"{outcome}/{'edited' if versions else 'first'}{'+journal' if journal else ''}"] += 1

        with registry.open_store(db, kind="agentstack") as store:  # the rerun
            c = store.capability(Collections)
            row = next(r for r in c.rows("memory", 0, 100) if r.values[0] == "beta")
            c.update("memory", row, {"content": "after the crash"})
        assert _agentstack_state(db) == (versions + 1, "after the crash")
        assert _files(db.parent) <= {"aistack.db", "aistack.db-wal", "aistack.db-shm"}, f"trial {trial}: litter"
        assert leftovers.in_tree(root) == []
    with capsys.disabled():
        mode = "WAL" if wal else "rollback journal"
        print("\n" + tally.line(f"AgentStack memory-edit kills, {mode} ({sum(tally.values())} trials of {edits} "
                                f"edits, {duration:.2f}s)"))


HOT_JOURNAL = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 1")  # changed pages spill into the database file before the commit
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE memory SET content = 'half written ' || hex(randomblob(3000))")
os._exit(9)  # killed mid-transaction: a hot journal and a half-written database file stay behind
"""


def test_agentstack_window_reads_the_committed_state_beside_a_hot_journal(tmp_path):
    """Rollback-journal mode, a writer killed after pages reached the file: an immutable read would show
    the half-written rows; the window reads a private copy with the journal rolled back instead."""
    import subprocess
    import sys

    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "data" / "aistack.db", wal=False)
    for n in range(300):
        b.memory(f"k{n}", f"original content {n} " + "filler " * 40)
    db = b.close()
    assert subprocess.run([sys.executable, "-c", HOT_JOURNAL, str(db)]).returncode == 9
    assert (db.parent / "aistack.db-journal").stat().st_size > 0
    with registry.open_store(db, kind="agentstack") as store:
        rows = store.capability(Collections).rows("memory", 0, 400)
        contents = [r.raw.get("content") for r in rows if "rowid" in (r.raw or {})]
    assert len(contents) == 300 and all(c.startswith("original content") for c in contents)
    assert (db.parent / "aistack.db-journal").stat().st_size > 0  # reading left the store as it was
    assert _rw_check(db, "SELECT count(*) FROM memory WHERE content LIKE 'half%'") == [(0,)]


KILLED_WRITE = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 1")  # changed pages spill into the database file before the commit
conn.execute("BEGIN IMMEDIATE")
conn.execute(sys.argv[2])
os._exit(9)  # killed mid-transaction: a hot journal and a half-written database file stay behind
"""


def _kill_mid_write_in_rollback_mode(db, update_sql: str) -> dict:
    """Turn ``db`` to rollback-journal mode, run ``update_sql`` in a writer killed before its commit, and
    return the folder's files and bytes (a reader must leave them exactly so)."""
    import subprocess
    import sys

    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    conn.close()
    assert subprocess.run([sys.executable, "-c", KILLED_WRITE, str(db), update_sql]).returncode == 9
    assert (db.parent / f"{db.name}-journal").stat().st_size > 0
    return {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()}


def test_daycare_reads_the_committed_state_beside_a_hot_journal(tmp_path):
    """Daycare's reader, like AgentStack's: an immutable read beside a hot journal would show the killed
    write's half-written rows; it reads a private copy with the journal rolled back, and says so."""
    from daycare_gui.stores.daycare.sqlite.store import open_store

    root = tmp_path / "daycare"
    write_demo(root)
    db = resolve_paths(root).db_path
    before = _kill_mid_write_in_rollback_mode(
        db, "UPDATE session_history SET data = json_object('text', 'half written ' || hex(randomblob(2000)))")
    with open_store(root) as store:
        assert store.db.mode.name == "snapshot" and "rollback journal" in store.db.mode.note
        assert store.db.scalar("SELECT count(*) FROM session_history WHERE data LIKE '%half written%'") == 0
        assert store.db.scalar("SELECT count(*) FROM session_history") > 0
    assert {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()} == before  # nothing touched
    assert _rw_check(db, "SELECT count(*) FROM session_history WHERE data LIKE '%half written%'") == [(0,)]


def test_cianaparrot_reads_the_committed_state_beside_a_hot_journal(tmp_path):
    from daycare_gui.stores.cianaparrot.sqlite_ro import ReadOnlyDB
    from tests.stores.cianaparrot.builder import checkpoints_copy

    db = checkpoints_copy(tmp_path / "data" / "checkpoints.db")
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0]
    conn.close()
    before = _kill_mid_write_in_rollback_mode(
        db, "UPDATE checkpoints SET metadata = CAST('half written ' || hex(randomblob(2000)) AS BLOB)")
    reader = ReadOnlyDB(db)
    try:
        assert reader.mode == "snapshot copy" and "rollback journal" in reader.note
        conn = reader.conn
        assert conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0] == rows
        assert conn.execute("SELECT count(*) FROM checkpoints WHERE CAST(metadata AS TEXT) LIKE 'half%'"
                            ).fetchone()[0] == 0
    finally:
        reader.close()
    assert {p.name: p.read_bytes() for p in db.parent.iterdir() if p.is_file()} == before
