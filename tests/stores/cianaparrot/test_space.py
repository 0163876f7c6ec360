"""CianaParrot's space: the checkpoints database by table (dbstat's bytes) and by thread (the bytes of its
checkpoints and writes, largest first), advice naming the largest thread, and the storage and prune
commands: the dry run writes nothing, the prune is refused while the bot seems to run, and undone."""

from __future__ import annotations

import json
import sqlite3

from daycare_gui.cli import main
from daycare_gui.stores.api import Storage
from tests.conftest import snapshot_tree


def _db(deployment):
    return deployment / "data" / "checkpoints.db"


def test_tables_and_threads_take_what_the_database_says(opened, deployment):
    report = opened.capability(Storage).space()
    conn = sqlite3.connect(f"file:{_db(deployment)}?immutable=1", uri=True)
    try:
        expected = dict(conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"))
        threads = dict(conn.execute("SELECT thread_id, SUM(length(checkpoint) + length(metadata)) FROM checkpoints "
                                    "GROUP BY thread_id"))
        for thread, size in conn.execute("SELECT thread_id, SUM(IFNULL(length(value), 0) + length(channel) + "
                                         "length(task_id)) FROM writes GROUP BY thread_id"):
            threads[thread] += size
        older = conn.execute("SELECT SUM(length(checkpoint) + length(metadata)) FROM checkpoints c WHERE "
                             "checkpoint_id < (SELECT MAX(checkpoint_id) FROM checkpoints d WHERE "
                             "d.thread_id = c.thread_id AND d.checkpoint_ns = c.checkpoint_ns)").fetchone()[0]
    finally:
        conn.close()
    assert report.method == "dbstat" and {t.name: t.bytes for t in report.tables} == expected
    assert {h.name: h.bytes for h in report.holders} == threads
    assert [h.bytes for h in report.holders] == sorted(threads.values(), reverse=True)
    top = report.holders[0]
    assert report.advice[0].startswith(f"Thread {top.name} holds") and f"in {top.count} checkpoints" in report.advice[0]
    assert "last checkpoint is all the bot needs to continue" in report.advice[0]
    [action] = report.actions
    assert action.id == "prune" and action.reclaim == older + report.free


def test_storage_command_prints_the_same_report_as_json(deployment, capsys):
    before = snapshot_tree(deployment)
    assert main(["storage", str(deployment), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "dbstat" and out["holders_title"] == "Threads"
    assert {t["name"] for t in out["tables"]} >= {"checkpoints", "writes"}
    assert main(["storage", str(deployment)]) == 0
    text = capsys.readouterr().out
    assert "Threads:" in text and "Advice:" in text
    assert snapshot_tree(deployment) == before


def test_prune_command_dry_run_then_refused_while_the_bot_runs_then_forced_then_undone(deployment, capsys):
    before = snapshot_tree(deployment)
    assert main(["prune", str(deployment), "--keep", "1", "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] and dry["reclaimed"] > 0 and len(dry["threads"]) == 5
    assert snapshot_tree(deployment) == before

    wal = deployment / "data" / "checkpoints.db-wal"
    wal.write_bytes(b"")  # a log changed a moment ago: the bot is taken to be running
    assert main(["prune", str(deployment), "--keep", "1"]) == 1
    assert "running" in capsys.readouterr().err
    assert _db(deployment).read_bytes() == before["data/checkpoints.db"]

    assert main(["prune", str(deployment), "--keep", "1", "--force", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert abs(done["reclaimed"] - dry["reclaimed"]) <= dry["reclaimed"] * 0.01
    assert main(["prune", str(deployment), "--keep", "1", "--undo", done["backup"]]) == 0
    assert _db(deployment).read_bytes() == before["data/checkpoints.db"]


def test_prune_says_what_it_needs(deployment, capsys):
    assert main(["prune", str(deployment)]) == 2
    assert "--keep N" in capsys.readouterr().err
    assert main(["prune", str(deployment), "--keep", "0", "--dry-run"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_after_a_prune_each_thread_reads_one_checkpoint_and_the_backup_is_named_as_an_undo(deployment, capsys):
    assert main(["prune", str(deployment), "--keep", "1", "--json"]) == 0
    capsys.readouterr()
    from daycare_gui.stores.cianaparrot import KIND

    store = KIND.open(deployment)
    try:
        report = store.capability(Storage).space()
    finally:
        store.close()
    assert {h.detail for h in report.holders} == {"1 checkpoint"}
    backups = next(a for a in report.advice if a.startswith("daycare-gui's own backups"))
    assert " in 1 file (" in backups and "each is the undo of a change it made" in backups
