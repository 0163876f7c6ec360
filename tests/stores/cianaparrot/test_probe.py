"""Which paths are CianaParrot's, how sure the probe is and why; config.yaml may move the folders; other
systems' stores are not claimed; how the bot is seen running."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

from daycare_gui.stores import registry
from daycare_gui.stores.api import Conversations, Tasks
from daycare_gui.stores.cianaparrot import KIND, write_demo
from daycare_gui.stores.cianaparrot.liveness import bot_status
from tests.conftest import snapshot_tree
from tests.stores.cianaparrot.builder import checkpoints_copy
from tests.stores.cianaparrot.test_writes import bot_running


def test_a_deployment_is_recognised_from_its_folder_config_data_dir_or_database(deployment):
    for path in (deployment, deployment / "config.yaml", deployment / "data", deployment / "data" / "checkpoints.db"):
        c = KIND.probe(path)
        assert c.confidence == 1.0 and c.reason.startswith("a CianaParrot deployment"), (path, c)
        assert registry.choose(path).name == "cianaparrot"
    with KIND.open(deployment / "data" / "checkpoints.db") as store:
        assert store.layout.root == deployment and store.capability(Tasks) is not None


def test_a_lone_checkpoints_database_opens_without_the_rest(tmp_path):
    db = checkpoints_copy(tmp_path / "somewhere" / "checkpoints.db")
    c = KIND.probe(db)
    assert c.confidence == 1.0 and "LangGraph checkpoints database" in c.reason
    renamed = tmp_path / "graph.sqlite"
    shutil.copyfile(db, renamed)
    assert KIND.probe(renamed).confidence == 0.9
    assert registry.choose(db).name == "cianaparrot" and registry.choose(renamed).name == "cianaparrot"
    with KIND.open(db) as store:
        assert store.capability(Tasks) is None and len(store.capability(Conversations).threads()) == 3
        assert "a checkpoints database alone" in store.summary().notes[0]


def test_config_yaml_moves_data_and_workspace(tmp_path):
    root = write_demo(tmp_path / "bot")
    (root / "data").rename(root / "state")
    (root / "workspace").rename(root / "ws")
    (root / "config.yaml").write_text('agent:\n  workspace: "./ws"\n  data_dir: "./state"\nscheduler:\n'
                                      '  data_file: "./state/scheduled_tasks.json"\n')
    (root / "config.local.yaml").write_text('claude_code:\n  state_file: "state/cc_user_states.json"\n')
    assert KIND.probe(root).confidence == 1.0
    with KIND.open(root) as store:
        assert store.layout.db == root / "state" / "checkpoints.db" and store.layout.workspace == root / "ws"
        assert store.layout.cc_states_file == root / "state" / "cc_user_states.json"
        assert len(store.capability(Tasks).tasks()) == 3 and store.counts()["checkpoints"] == 28


def test_container_paths_fall_back_to_the_folders_beside_the_config(tmp_path):
    root = write_demo(tmp_path / "bot")
    (root / "config.yaml").write_text('agent:\n  workspace: "/app/workspace"\n  data_dir: "/app/data"\n')
    with KIND.open(root) as store:
        assert store.layout.data_dir == root / "data"
        assert any("/app/data" in n for n in store.summary().notes)


def test_a_data_dir_that_names_a_file_is_said_plainly(tmp_path):
    root = write_demo(tmp_path / "bot")
    (root / "state.db").write_text("not a folder")
    (root / "config.yaml").write_text('agent:\n  data_dir: "./state.db"\nscheduler:\n  enabled: true\n')
    with KIND.open(root) as store:
        said = [(p.path, p.message, p.severity) for p in store.problems]
        assert (str(root / "state.db"), f"agent.data_dir names a file, not a folder: {root / 'state.db'}",
                "error") in said
        # not one complaint per file looked for inside it, nor a database said to be missing
        assert not [m for _p, m, _s in said if "checkpoints database" in m or "state.db/" in m]
    # with no other sign of CianaParrot in config.yaml, the answer still names the mistake
    (root / "config.yaml").write_text('agent:\n  data_dir: "./state.db"\n')
    shutil.rmtree(root / "workspace")
    c = KIND.probe(root)
    assert c.confidence == 0 and f"agent.data_dir names a file, not a folder: {root / 'state.db'}" in c.reason


def test_other_stores_are_not_claimed(tmp_path, fixture_copy):
    daycare = fixture_copy("daycare-808af509")
    assert KIND.probe(daycare).confidence == 0
    assert KIND.probe(daycare / "daycare.db").confidence == 0
    assert registry.choose(daycare).name == "daycare"
    other = tmp_path / "agentstack.db"
    sqlite3.connect(other).executescript("CREATE TABLE memories (id TEXT, content TEXT); "
                                         "CREATE TABLE checkpoints (id TEXT, data TEXT);")
    assert KIND.probe(other).confidence == 0
    linggen = tmp_path / "linggen"
    (linggen / "data").mkdir(parents=True)
    (linggen / "config.yaml").write_text("server:\n  port: 8787\n")
    assert KIND.probe(linggen).confidence == 0
    plain = tmp_path / "plain"
    (plain / "data").mkdir(parents=True)
    (plain / "workspace").mkdir()
    assert KIND.probe(plain).confidence == 0.4  # the layout only hints
    assert KIND.probe(tmp_path / "missing").confidence == 0
    (tmp_path / "notes.json").write_text("{}")
    assert KIND.probe(tmp_path / "notes.json").confidence == 0


def test_probe_and_open_write_nothing_even_beside_a_wal_database(tmp_path):
    root = write_demo(tmp_path / "bot")
    before = snapshot_tree(root)
    for _ in range(2):
        KIND.probe(root)
        with KIND.open(root, live=False) as store:
            store.report()
    assert snapshot_tree(root) == before


def test_the_bot_is_seen_running_from_its_lock_or_recent_wal_activity(deployment):
    db = deployment / "data" / "checkpoints.db"
    assert bot_status(db).running is False
    with bot_running(db):
        status = bot_status(db)
        assert status.running and status.method == "lock" and "holds checkpoints.db open" in status.detail
        with KIND.open(deployment) as store:
            assert store.summary().engine_running and store.writes_blocked()
    wal = db.with_name("checkpoints.db-wal")
    wal.write_bytes(b"")  # a bot whose locks we cannot see (another machine, a VM): its WAL just changed
    status = bot_status(db)
    assert status.running and status.method == "wal activity"
    old = time.time() - 3600
    os.utime(wal, (old, old))
    status = bot_status(db)
    assert not status.running and status.method == "files" and "idle" in status.detail
    wal.unlink()


HOLD_IN_ROLLBACK_MODE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE" if sys.argv[2] == "write" else "BEGIN")
conn.execute("SELECT count(*) FROM checkpoints").fetchone()
if sys.argv[2] == "write":
    conn.execute("DELETE FROM writes")
print("ready", flush=True)
sys.stdin.read()
"""


def test_a_bot_in_rollback_journal_mode_is_not_said_to_hold_an_shm_lock(deployment):
    db = deployment / "data" / "checkpoints.db"
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode=DELETE").fetchone() == ("delete",)
    conn.close()
    for doing, said in (("read", "with a lock on the database file"),
                        ("write", "with checkpoints.db-journal beside it")):
        proc = subprocess.Popen([sys.executable, "-c", HOLD_IN_ROLLBACK_MODE, str(db), doing],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout.readline().strip() == "ready"
            assert not db.with_name("checkpoints.db-shm").exists()
            status = bot_status(db)
            assert status.running and status.method == "lock" and said in status.detail, status
            assert "-shm" not in status.detail
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
    # a journal left by a killed write, unlocked and old: named as what it is
    journal = db.with_name("checkpoints.db-journal")
    journal.write_bytes(b"")
    old = time.time() - 3600
    os.utime(journal, (old, old))
    status = bot_status(db)
    assert not status.running and status.detail.startswith("checkpoints.db-journal is left beside the database")


def test_a_live_wal_database_is_read_through_its_wal_or_from_a_snapshot(deployment):
    db = deployment / "data" / "checkpoints.db"
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("INSERT INTO checkpoints VALUES ('telegram_42', '', '1f1e9999-0000-6000-8000-000000000001', NULL,"
                   " 'null', NULL, ?)", (json.dumps({"source": "input", "step": -1}).encode(),))
    writer.commit()
    try:
        with KIND.open(deployment, live=False) as store:
            assert store.db.mode == "snapshot copy" and "telegram_42" in store.threads
        with KIND.open(deployment) as store:
            assert store.db.mode == "read-only" and "telegram_42" in store.threads
    finally:
        writer.close()


def test_a_wal_left_without_its_shm_is_read_from_a_snapshot_creating_nothing(tmp_path):
    root = write_demo(tmp_path / "bot")
    db = root / "data" / "checkpoints.db"
    staging = tmp_path / "staging.db"
    shutil.copyfile(db, staging)
    writer = sqlite3.connect(staging)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("INSERT INTO checkpoints VALUES ('telegram_7', '', '1f1e9999-0000-6000-8000-000000000009', NULL,"
                   " 'null', NULL, NULL)")
    writer.commit()
    shutil.copyfile(str(staging) + "-wal", str(db) + "-wal")  # as a killed bot leaves it: -wal, no -shm
    writer.close()
    old = time.time() - 3600
    os.utime(str(db) + "-wal", (old, old))
    before = snapshot_tree(root)
    with KIND.open(root) as store:
        assert store.db.mode == "snapshot copy" and "telegram_7" in store.threads
        assert "without closing" in store.summary().notes[-1]
    assert snapshot_tree(root) == before
