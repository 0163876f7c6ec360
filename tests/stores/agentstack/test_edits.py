"""Edits: a memory entry's content and metadata, a task's status, a plugin's enabled flag — exact bytes
in the database, conflicts, refusal while another process holds the file, and old-or-new after a crash."""

import json
import subprocess
import sys
import time

import pytest

from daycare_gui.stores.agentstack import edits, locks
from daycare_gui.stores.api import Collections, WriteConflict, WriteRefused
from tests.stores.agentstack.builder import fingerprint

HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("SELECT count(*) FROM memory").fetchall()
if sys.argv[2] == "write":
    conn.execute("BEGIN IMMEDIATE")
print("ready", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def holder():
    """``holder(db, "read"|"write")``: another process with the database open (and a write lock)."""
    procs = []

    def start(db, mode="read"):
        proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), mode], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        procs.append(proc)
        assert proc.stdout.readline().strip() == "ready"
        return proc

    yield start
    for proc in procs:
        proc.stdin.close()
        proc.wait(timeout=10)


def _sql(db, sql, params=()):
    import sqlite3

    conn = sqlite3.connect(db, isolation_level=None)  # autocommit: a change here is another program's
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def _fts(db, match):
    return [k for (k,) in _sql(db, "SELECT m.key FROM memory_fts JOIN memory m ON m.rowid = memory_fts.rowid "
                                   "WHERE memory_fts MATCH ? ORDER BY m.key", (match,))]


@pytest.fixture
def store(build, opened):
    b = build()
    b.memory("alpha", "the quick brown fox", metadata={"source": "user", "apiKey": "sk-live-abcdefghijklmnop"})
    b.memory("beta", "lazy dogs sleep")
    b.task("a task", status="running")
    b.plugin("gh", enabled=1, config={"repo": "x"})
    b.close()
    return opened(b.path)


def _entry(store, key):
    c = store.capability(Collections)
    return c, next(r for r in c.rows("memory", 0, 100) if r.values[0] == key)


def test_content_edit_updates_the_index_through_the_stores_triggers_and_keeps_a_version(store):
    c, row = _entry(store, "beta")
    assert [f.name for f in c.editable("memory", row)] == ["content", "metadata"]
    new = c.update("memory", row, {"content": "energetic cats hunt"})
    db = store.path
    assert _sql(db, "SELECT content FROM memory WHERE key = 'beta'") == [("energetic cats hunt",)]
    assert new.values[1] == "energetic cats hunt" and new.raw["versions"] == 1
    assert new.raw["updated_at"] > row.raw["updated_at"]
    assert _sql(db, "SELECT version, content, created_at FROM memory_versions") == [
        (1, "lazy dogs sleep", row.raw["updated_at"])]
    assert _fts(db, "cats") == ["beta"] and _fts(db, "dogs") == []
    assert _sql(db, "INSERT INTO memory_fts(memory_fts, rank) VALUES('integrity-check', 1)") == []
    # what the window shows afterwards is read from the changed file (no stale immutable reader)
    assert [r.values[0] for r in store.capability(Collections).search("cats", 5)] == ["beta"]


def test_metadata_is_stored_as_typed_and_masked_secrets_keep_their_value(store):
    c, row = _entry(store, "alpha")
    assert "sk-live" not in row.raw["metadata"]
    edited = row.raw["metadata"].replace('"user"', '"review"')
    c.update("memory", row, {"metadata": edited})
    stored = json.loads(_sql(store.path, "SELECT metadata FROM memory WHERE key = 'alpha'")[0][0])
    assert stored == {"source": "review", "apiKey": "sk-live-abcdefghijklmnop"}
    c, row = _entry(store, "alpha")
    text = '{\n  "fresh": true\n}'
    c.update("memory", row, {"metadata": text})
    assert _sql(store.path, "SELECT metadata FROM memory WHERE key = 'alpha'") == [(text,)]
    c, row = _entry(store, "alpha")
    c.update("memory", row, {"metadata": ""})
    assert _sql(store.path, "SELECT metadata FROM memory WHERE key = 'alpha'") == [(None,)]


SPACED = '{ "owner": "ops",  "url": "postgresql://app:s3cretpw@db/prod", "tags": ["a", "sk-ant-abcdefghijklmnopqrstu"] }'


@pytest.fixture
def secretive(build, opened):
    b = build()
    b.memory("deploy", "how we deploy", metadata=SPACED)
    b.close()
    return opened(b.path)


def test_a_content_edit_leaves_the_stored_metadata_byte_for_byte(secretive):
    """The metadata is shown masked (the URL's password): an edit of the content alone must not write
    that masked text back. It lost the password, and the spacing, before."""
    c, row = _entry(secretive, "deploy")
    assert "s3cretpw" not in row.raw["metadata"]
    c.update("memory", row, {"content": "how we deploy now"})
    assert _sql(secretive.path, "SELECT content, metadata FROM memory WHERE key = 'deploy'") == [
        ("how we deploy now", SPACED)]
    c, row = _entry(secretive, "deploy")  # the dialog passes every field, the metadata as it was shown
    c.update("memory", row, {"content": "how we deploy today", "metadata": row.raw["metadata"]})
    assert _sql(secretive.path, "SELECT metadata FROM memory WHERE key = 'deploy'") == [(SPACED,)]


def test_a_metadata_edit_keeps_a_url_password_left_masked_and_refuses_a_mask_it_cannot_place(secretive):
    c, row = _entry(secretive, "deploy")
    c.update("memory", row, {"metadata": row.raw["metadata"].replace('"ops"', '"platform"')})
    stored = json.loads(_sql(secretive.path, "SELECT metadata FROM memory WHERE key = 'deploy'")[0][0])
    assert stored["owner"] == "platform" and stored["url"] == "postgresql://app:s3cretpw@db/prod"
    c, row = _entry(secretive, "deploy")
    moved = row.raw["metadata"].replace("@db/prod", "@db2/prod")  # edited around the mask: its secret is unknown
    before = fingerprint(secretive.path.parent)
    with pytest.raises(WriteRefused, match="masked value"):
        c.update("memory", row, {"metadata": moved})
    assert fingerprint(secretive.path.parent) == before


@pytest.mark.parametrize("changes, words", [
    ({"metadata": "{not json"}, "not valid JSON"),
    ({"metadata": "[1, 2]"}, "JSON object"),
    ({"content": 5}, "must be text"),
    ({"key": "renamed"}, "cannot change key"),
])
def test_invalid_edits_are_refused_before_anything_is_written(store, changes, words):
    c, row = _entry(store, "alpha")
    before = fingerprint(store.path.parent)
    with pytest.raises(WriteRefused, match=words):
        c.update("memory", row, changes)
    assert fingerprint(store.path.parent) == before


def test_an_unchanged_edit_writes_nothing(store):
    c, row = _entry(store, "alpha")
    before = fingerprint(store.path.parent)
    assert c.update("memory", row, {"content": row.raw["content"], "metadata": row.raw["metadata"]}) is row
    assert fingerprint(store.path.parent) == before
    assert c.editable("memory", c.rows("memory", 0, 1)[0]) == ()  # a namespace header


def test_conflict_when_the_entry_changed_since_it_was_read(store):
    c, row = _entry(store, "beta")
    _sql(store.path, "UPDATE memory SET content = 'changed by AgentStack', updated_at = updated_at + 1 "
                     "WHERE key = 'beta'")
    with pytest.raises(WriteConflict):
        c.update("memory", row, {"content": "mine"})
    assert _sql(store.path, "SELECT content FROM memory WHERE key = 'beta'") == [("changed by AgentStack",)]
    assert _sql(store.path, "SELECT count(*) FROM memory_versions") == [(0,)]
    _sql(store.path, "DELETE FROM memory WHERE key = 'beta'")
    with pytest.raises(WriteConflict, match="deleted"):
        c.update("memory", row, {"content": "mine"})


def test_refused_while_another_process_has_the_database_open(store, holder):
    c, row = _entry(store, "beta")
    proc = holder(store.path)
    reason = store.writes_blocked()
    assert reason and f"pid {proc.pid}" in reason and "AgentStack running?" in reason
    assert store.summary().engine_running
    with store.db.quiet():  # the portable check (fcntl) sees the same process
        assert [h.pid for h in locks.holders(store.path, use_proc=False)] == [proc.pid]
    with pytest.raises(WriteRefused, match="has aistack.db open"):
        c.update("memory", row, {"content": "mine"})
    assert _sql(store.path, "SELECT content FROM memory WHERE key = 'beta'") == [("lazy dogs sleep",)]
    c.update("memory", row, {"content": "mine"}, force=True)  # the user insists: an idle reader does not block
    assert _sql(store.path, "SELECT content FROM memory WHERE key = 'beta'") == [("mine",)]


def test_a_held_write_lock_times_out_quickly_and_writes_nothing(store, holder):
    c, row = _entry(store, "beta")
    holder(store.path, "write")
    started = time.monotonic()
    with pytest.raises(WriteRefused, match="locked"):
        c.update("memory", row, {"content": "mine"}, force=True)
    assert time.monotonic() - started < 4  # far less than AgentStack's 5 s busy timeout


def test_no_fts5_or_no_trigger_means_no_memory_edit(build, opened):
    b = build()
    b.memory("k", "text")
    b.sql("DROP TRIGGER memory_au")
    b.close()
    store = opened(b.path)
    c, row = _entry(store, "k")
    with pytest.raises(WriteRefused, match="no update trigger"):
        c.update("memory", row, {"content": "new"})
    b2 = build("other.db")
    b2.memory("k", "text")
    b2.sql("PRAGMA writable_schema = ON")  # a memory_fts whose module this SQLite lacks
    b2.sql("UPDATE sqlite_master SET sql = replace(sql, 'fts5(', 'fts9(') WHERE name = 'memory_fts'")
    b2.close()
    store = opened(b2.path)
    assert "no such module" in store.report()["fts"]["error"]
    c, row = _entry(store, "k")
    before = fingerprint(b2.path.parent)
    with pytest.raises(WriteRefused, match="cannot maintain AgentStack's search index"):
        c.update("memory", row, {"content": "new"})
    assert fingerprint(b2.path.parent) == before


def test_an_index_that_does_not_follow_rolls_everything_back(store, monkeypatch):
    c, row = _entry(store, "beta")
    monkeypatch.setattr(edits, "index_finds", lambda *a: False)
    with pytest.raises(WriteRefused, match="did not follow"):
        c.update("memory", row, {"content": "energetic cats"})
    assert _sql(store.path, "SELECT content, updated_at FROM memory WHERE key = 'beta'") == [
        ("lazy dogs sleep", row.raw["updated_at"])]
    assert _sql(store.path, "SELECT count(*) FROM memory_versions") == [(0,)]


CRASH = """
import os, sys
from daycare_gui.stores import registry
from daycare_gui.stores.agentstack import edits
from daycare_gui.stores.api import Collections
store = registry.open_store(sys.argv[1], kind="agentstack")
c = store.capability(Collections)
row = next(r for r in c.rows("memory", 0, 100) if r.values[0] == "beta")
edits.index_finds = lambda *a: os._exit(3)  # the process dies after UPDATE, before COMMIT
c.update("memory", row, {"content": "half written"})
"""


def test_a_crash_mid_write_leaves_the_old_state(store):
    store.close()
    done = subprocess.run([sys.executable, "-c", CRASH, str(store.path)], capture_output=True, text=True,
                          env={**__import__("os").environ, "PYTHONPATH": str(__import__("pathlib").Path.cwd())})
    assert done.returncode == 3, done.stderr
    assert _sql(store.path, "SELECT content FROM memory WHERE key = 'beta'") == [("lazy dogs sleep",)]
    assert _sql(store.path, "SELECT count(*) FROM memory_versions") == [(0,)]
    assert _fts(store.path, "dogs") == ["beta"] and _fts(store.path, "half") == []
    assert _sql(store.path, "PRAGMA integrity_check") == [("ok",)]


def test_task_status(store):
    c = store.capability(Collections)
    row = c.rows("tasks", 0, 1)[0]
    field = c.editable("tasks", row)[0]
    assert field.kind == "choice" and field.choices == ("pending", "running", "completed", "failed")
    done = c.update("tasks", row, {"status": "completed"})
    [(status, completed)] = _sql(store.path, "SELECT status, completed_at FROM tasks")
    assert status == "completed" and abs(completed - time.time() * 1000) < 60_000
    assert done.values[2] == "completed"
    again = c.update("tasks", done, {"status": "pending"})
    assert _sql(store.path, "SELECT status, completed_at, input FROM tasks") == [("pending", None, "a task")]
    with pytest.raises(WriteRefused, match="one of"):
        c.update("tasks", again, {"status": "paused"})
    _sql(store.path, "UPDATE tasks SET status = 'running'")
    with pytest.raises(WriteConflict):
        c.update("tasks", again, {"status": "failed"})


def test_plugin_enabled(store):
    c = store.capability(Collections)
    row = c.rows("plugins", 0, 1)[0]
    assert [f.kind for f in c.editable("plugins", row)] == ["bool"]
    before = _sql(store.path, "SELECT name, version, config, installed_at FROM plugins")
    off = c.update("plugins", row, {"enabled": False})
    assert _sql(store.path, "SELECT enabled FROM plugins") == [(0,)] and off.values[2] is False
    assert _sql(store.path, "SELECT name, version, config, installed_at FROM plugins") == before
    with pytest.raises(WriteRefused):
        c.update("plugins", off, {"enabled": "yes"})
    _sql(store.path, "UPDATE plugins SET version = '2.0.0'")
    with pytest.raises(WriteConflict):
        c.update("plugins", off, {"enabled": True})
    with pytest.raises(WriteRefused):
        c.update("sessions", off, {"enabled": True})


def test_workers_keep_reading_while_edits_happen(store):
    import threading

    c = store.capability(Collections)
    errors, stop = [], threading.Event()

    def browse():
        try:
            while not stop.is_set():
                assert len(c.rows("memory", 0, 100)) == 3  # the namespace and its two entries
                c.search("fox OR dogs OR cats", 5)
        except Exception as exc:  # noqa: BLE001 - any failure fails the test below
            errors.append(exc)

    workers = [threading.Thread(target=browse) for _ in range(3)]
    for w in workers:
        w.start()
    try:
        for i in range(5):
            _c, row = _entry(store, "beta")
            c.update("memory", row, {"content": f"energetic cats {i}"})
    finally:
        stop.set()
        for w in workers:
            w.join(timeout=30)
    assert errors == []
    assert _sql(store.path, "SELECT count(*) FROM memory_versions") == [(5,)]
    assert _fts(store.path, "energetic") == ["beta"]


def test_editing_an_old_generation_and_a_file_without_versions(build, opened):
    b = build(generation="pre-agent-id")
    b.memory("k", "old words")
    b.task("t")
    b.close()
    store = opened(b.path)
    c, row = _entry(store, "k")
    c.update("memory", row, {"content": "new words"})
    assert _sql(b.path, "SELECT content FROM memory_versions") == [("old words",)]
    task = c.rows("tasks", 0, 1)[0]
    c.update("tasks", task, {"status": "failed"})
    assert _sql(b.path, "SELECT status FROM tasks") == [("failed",)]
    b2 = build("nov.db", omit=("memory_versions",))
    b2.memory("k", "old words")
    b2.close()
    store = opened(b2.path)
    c, row = _entry(store, "k")
    c.update("memory", row, {"content": "new words"})
    assert _fts(b2.path, "new") == ["k"]


def test_a_lock_holder_the_system_does_not_name_is_not_called_pid_minus_one():
    """F_GETLK may say a file is locked without saying by whom (-1): the refusal names no made-up pid."""
    assert str(locks.Holder(-1, "")) == "another program (its process id not given)"
    assert str(locks.Holder(4242, "node")) == "node (pid 4242)"
