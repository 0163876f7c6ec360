"""SIGKILL at random moments of a CianaParrot prune, and of its undo: the checkpoints database is afterwards
exactly as before or exactly as after (the same rows, passing integrity_check), never in between and never
broken, and the bot's own reader (the pinned LangGraph) loads every thread's latest state as it was; the
working copy a kill leaves is named when the store is next opened, and a rerun removes it and finishes."""

from __future__ import annotations

import shutil
import signal
import sqlite3

import pytest

from daycare_gui.stores.cianaparrot import KIND, prune
from tests.crash import harness
from tests.stores.cianaparrot.builder import make_checkpoints, make_deployment

pytestmark = pytest.mark.slow

PRUNE = """
import sys
from pathlib import Path
from daycare_gui.stores.cianaparrot import prune
db = Path(sys.argv[1])
print("go", flush=True)
prune.prune(db, keep=1, blocked=None, data_dir=db.parent)
"""

UNDO = """
import sys
from pathlib import Path
from daycare_gui.stores.cianaparrot import prune
db, backup = Path(sys.argv[1]), Path(sys.argv[2])
print("go", flush=True)
prune.restore(db, backup, blocked=None)
"""

TURNS = {f"telegram_{100 + i}": [f"question {j}: " + "tell me more " * 20 for j in range(10)] for i in range(3)}


def _rows(db) -> tuple[str, set]:
    conn = sqlite3.connect(str(db), isolation_level=None)
    try:
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        rows = set(conn.execute("SELECT thread_id, checkpoint_ns, checkpoint_id, checkpoint, metadata FROM checkpoints"))
        rows |= {("w",) + r for r in conn.execute("SELECT thread_id, checkpoint_id, task_id, idx, value FROM writes")}
        return check, rows
    finally:
        conn.close()


def _latest_states(db) -> dict:
    """What the bot resumes each thread from, read by LangGraph's own saver (on a copy: it writes to the
    file it opens): the latest checkpoint's id, its messages and pending writes."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    from tests.stores.cianaparrot.builder import _graph

    copy = db.with_name("reader-" + db.name)
    shutil.copyfile(db, copy)
    conn = sqlite3.connect(str(copy), check_same_thread=False)
    try:
        app = _graph(SqliteSaver(conn))
        out = {}
        for thread in TURNS:
            config = {"configurable": {"thread_id": thread}}
            tup = app.checkpointer.get_tuple(config)
            out[thread] = None if tup is None else (
                tup.checkpoint["id"], [m.model_dump() for m in app.get_state(config).values["messages"]],
                list(tup.pending_writes or []))
        return out
    finally:
        conn.close()
        for p in copy.parent.glob(copy.name + "*"):
            p.unlink()


def _litter(folder) -> list[str]:
    return [p.name for p in folder.rglob("*") if p.is_file() and (".prune-" in p.name or p.name.endswith(".tmp"))]


def test_prune_killed_at_random_moments_leaves_the_store_as_before_or_as_after(tmp_path):
    root = tmp_path / "template"
    make_deployment(root, db=False)
    template = make_checkpoints(root / "data" / "checkpoints.db", TURNS)
    probe = tmp_path / "probe"
    shutil.copytree(root, probe)
    _, before = _rows(template)
    states = _latest_states(template)
    duration = harness.run_to_end(PRUNE, str(probe / "data" / "checkpoints.db"))
    _, after = _rows(probe / "data" / "checkpoints.db")
    assert after < before and len(after) < len(before) / 5

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(6)):
        deployment = tmp_path / f"t{trial}"
        shutil.copytree(root, deployment)
        db = deployment / "data" / "checkpoints.db"
        outcome = harness.kill_after(PRUNE, rng.uniform(0, duration), str(db))
        check, rows = _rows(db)
        assert check == "ok", f"trial {trial}: {check}"
        assert rows in (before, after), f"trial {trial}: neither the store before nor after the prune"
        tally[f"{outcome}/{'after' if rows == after else 'before'}"] += 1

        store = KIND.open(deployment)  # a killed prune's working copy is named, with what removes it
        left = [p for p in store.problems if "prune working copy" in p.message]
        store.close()
        prune.prune(db, keep=1, blocked=None, data_dir=db.parent)  # the rerun, which removes the leftovers
        assert _rows(db) == ("ok", after)
        assert not _litter(db.parent), f"trial {trial}: {_litter(db.parent)}"
        tally["reported"] += bool(left)
        if trial < 2:
            assert _latest_states(db) == states
    print(tally.line("prune"))


# The same prune or undo, pausing at each of its moments: it prints the moment's name and sleeps, and the
# test kills it there. Every file copy pauses half written; every fsync and rename is a moment of its own.
STEPPED = """
import os, shutil, sys, time
from pathlib import Path
from daycare_gui.stores.cianaparrot import prune

def at(name):
    print(name, flush=True)
    time.sleep(0.4)

real_replace, real_fsync = os.replace, prune._fsync

def copy_half_then_rest(src, dst):
    data = Path(src).read_bytes()
    with open(dst, "wb") as f:
        f.write(data[: len(data) // 2])
        f.flush()
        at("half copied to " + Path(dst).name)
        f.write(data[len(data) // 2:])
    return dst

def fsync(path):
    real_fsync(path)
    at("synced " + Path(path).name)

def replace(src, dst):
    at("renaming " + Path(src).name)
    real_replace(src, dst)
    at("renamed to " + Path(dst).name)

shutil.copyfile, os.replace, prune._fsync = copy_half_then_rest, replace, fsync
db = Path(sys.argv[2])
print("go", flush=True)
if sys.argv[1] == "prune":
    prune.prune(db, keep=1, blocked=None, data_dir=db.parent, step=at)
else:
    prune.restore(db, Path(sys.argv[3]), blocked=None)
print("done", flush=True)
"""


def _moments(*args: str) -> list[str]:
    proc = harness.start(STEPPED, *args)
    lines = [line.strip() for line in proc.stdout]
    assert proc.wait(120) == 0 and lines[-1] == "done"
    proc.stdout.close()
    return lines[:-1]


def _kill_at(moment: int, *args: str) -> str:
    """Run the stepped child and SIGKILL it while it pauses at its ``moment``-th moment; that moment's name."""
    proc = harness.start(STEPPED, *args)
    try:
        for _ in range(moment + 1):
            name = proc.stdout.readline().strip()
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    finally:
        proc.stdout.close()
    return name


def _template(tmp_path):
    root = tmp_path / "template"
    make_deployment(root, db=False)
    db = make_checkpoints(root / "data" / "checkpoints.db", TURNS)
    return root, db


def test_prune_killed_at_each_of_its_moments_leaves_the_store_as_before_or_after_and_langgraph_reads_it(tmp_path):
    root, template = _template(tmp_path)
    _, before = _rows(template)
    states = _latest_states(template)
    assert all(states.values())
    probe = tmp_path / "probe"
    shutil.copytree(root, probe)
    moments = _moments("prune", str(probe / "data" / "checkpoints.db"))
    _, after = _rows(probe / "data" / "checkpoints.db")
    assert after < before and "renamed to checkpoints.db" in moments and "compacting (VACUUM)" in moments

    seen = []
    for n in range(len(moments)):
        deployment = tmp_path / f"m{n}"
        shutil.copytree(root, deployment)
        db = deployment / "data" / "checkpoints.db"
        moment = _kill_at(n, "prune", str(db))
        check, rows = _rows(db)
        assert check == "ok", f"killed at {moment}: {check}"
        assert rows in (before, after), f"killed at {moment}: neither the store before nor after the prune"
        assert _latest_states(db) == states, f"killed at {moment}: LangGraph reads another latest state"
        seen.append("after" if rows == after else "before")
        prune.prune(db, keep=1, blocked=None, data_dir=db.parent)  # the rerun removes what the kill left
        assert _rows(db) == ("ok", after) and not _litter(deployment), f"killed at {moment}: {_litter(deployment)}"
    assert seen[0] == "before" and seen[-1] == "after"  # the kills fell on both sides of the swap


def test_undo_killed_at_each_of_its_moments_leaves_the_store_pruned_or_restored_and_langgraph_reads_it(tmp_path):
    root, template = _template(tmp_path)
    _, original = _rows(template)
    states = _latest_states(template)
    backup = prune.prune(template, keep=1, blocked=None, data_dir=template.parent).backup  # the prune to undo
    _, pruned = _rows(template)
    assert pruned < original and _latest_states(template) == states
    probe = tmp_path / "probe"
    shutil.copytree(root, probe)
    moments = _moments("undo", str(probe / "data" / "checkpoints.db"), str(backup))
    assert _rows(probe / "data" / "checkpoints.db") == ("ok", original)
    assert len(moments) >= 4  # half copied, synced, renaming, renamed

    seen = []
    for n in range(len(moments)):
        deployment = tmp_path / f"m{n}"
        shutil.copytree(root, deployment)
        db = deployment / "data" / "checkpoints.db"
        moment = _kill_at(n, "undo", str(db), str(backup))
        check, rows = _rows(db)
        assert check == "ok", f"killed at {moment}: {check}"
        assert rows in (pruned, original), f"killed at {moment}: neither the pruned store nor the one restored"
        assert _latest_states(db) == states, f"killed at {moment}: LangGraph reads another latest state"
        seen.append("restored" if rows == original else "pruned")

        store = KIND.open(deployment)  # a killed undo's working copy is named, with what removes it
        named = any("prune working copy" in p.message for p in store.problems)
        store.close()
        assert named or not _litter(deployment), f"killed at {moment}: {_litter(deployment)} left unnamed"
        prune.restore(db, backup, blocked=None)  # the rerun, which removes the leftovers
        assert _rows(db) == ("ok", original)
        assert not _litter(deployment), f"killed at {moment}: {_litter(deployment)}"
    assert seen[0] == "pruned" and seen[-1] == "restored"
