"""SIGKILL at random moments of a CianaParrot prune: the checkpoints database is afterwards exactly as
before or exactly as after (the same rows, passing integrity_check), never in between and never broken;
the working copy a kill leaves is removed when the store is next opened, and a rerun prunes."""

from __future__ import annotations

import shutil
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


def test_prune_killed_at_random_moments_leaves_the_store_as_before_or_as_after(tmp_path):
    root = tmp_path / "template"
    make_deployment(root, db=False)
    template = make_checkpoints(root / "data" / "checkpoints.db", TURNS)
    probe = tmp_path / "probe"
    shutil.copytree(root, probe)
    _, before = _rows(template)
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
        litter = [p.name for p in db.parent.rglob("*") if p.is_file() and (".prune-" in p.name or p.name.endswith(".tmp"))]
        assert not litter, f"trial {trial}: {litter}"
        tally["reported"] += bool(left)
    print(tally.line("prune"))
