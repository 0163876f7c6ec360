"""SIGKILL at random moments during an upgrade and during atomic saves: the store is always the old or the
new state, a rerun succeeds, and no litter stays after the rerun."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3

import pytest

from daycare_gui.stores.common import leftovers
from daycare_gui.stores.common.edit.atomic import load_for_edit, save_atomic
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade
from tests.conftest import snapshot_tree
from tests.core.migrations.helpers import migrate
from tests.crash import harness

pytestmark = pytest.mark.slow

UPGRADE = """
import sys
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade
print("go", flush=True)
result = run_upgrade(sys.argv[1])
sys.exit(0 if result.ok else 1)
"""


def _migrated(db) -> int:
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return conn.execute("SELECT count(*) FROM _migrations").fetchone()[0]
    finally:
        conn.close()


def _without_backups(tree: dict) -> dict:
    return {k: v for k, v in tree.items() if ".backup-" not in k}


def test_upgrade_killed_at_random_moments(tmp_path, capsys):
    template = tmp_path / "template"
    template.mkdir()
    migrate(template, migrations=MIGRATIONS[:5]).close()
    old = snapshot_tree(template)
    old_db = old["daycare.db"]

    probe = tmp_path / "probe"
    shutil.copytree(template, probe)
    duration = harness.run_to_end(UPGRADE, str(probe / "daycare.db"))
    new_rest = _without_backups(snapshot_tree(probe))
    del new_rest["daycare.db"]

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(12)):
        store = tmp_path / f"t{trial}"
        shutil.copytree(template, store)
        db = store / "daycare.db"
        outcome = harness.kill_after(UPGRADE, rng.uniform(0, duration * 1.1), str(db))
        after = snapshot_tree(store)
        litter = [lo.path.name for lo in leftovers.in_folder(store)]
        rest = {k: v for k, v in _without_backups(after).items() if k not in litter}
        if rest == old:
            state = "old"
        else:
            assert _migrated(db) == len(MIGRATIONS), f"trial {trial}: neither old nor new"
            assert {k: v for k, v in rest.items() if k != "daycare.db"} == new_rest
            state = "new"
        tally[f"{outcome}/{state}{'+litter' if litter else ''}"] += 1

        rerun = run_upgrade(db)
        assert rerun.ok, rerun.summary()
        assert _migrated(db) == len(MIGRATIONS)
        assert leftovers.in_folder(store) == [], f"trial {trial}: litter after the rerun"
        for backup in store.glob("daycare.db.backup-*"):
            assert hashlib.sha256(backup.read_bytes()).digest() is not None
            assert backup.read_bytes() == old_db or _migrated(backup) in (5, len(MIGRATIONS)), backup.name
    with capsys.disabled():
        print("\n" + tally.line(f"upgrade kills ({sum(tally.values())} trials, about {duration:.2f}s each)"))


SAVES = """
import sys
from pathlib import Path
from daycare_gui.stores.common.edit.atomic import load_for_edit, save_atomic
path = Path(sys.argv[1])
print("go", flush=True)
for i in range(int(sys.argv[2])):
    data = bytes([65 + i % 2]) * 2_000_000
    save_atomic(path, data, expected_sha256=load_for_edit(path).sha256)
"""


def test_atomic_saves_killed_at_random_moments(tmp_path, capsys):
    folder = tmp_path / "store"
    folder.mkdir()
    doc = folder / "MEMORY.md"
    (folder / "other.json").write_text('{"keep": true}\n')
    doc.write_bytes(b"B" * 2_000_000)
    duration = harness.run_to_end(SAVES, str(doc), "20")
    states = {b"A" * 2_000_000, b"B" * 2_000_000}
    other = (folder / "other.json").read_bytes()

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(15)):
        outcome = harness.kill_after(SAVES, rng.uniform(0, duration), str(doc), "20")
        assert doc.read_bytes() in states, f"trial {trial}: a torn file"
        litter = leftovers.in_folder(folder)
        assert all(lo.what == leftovers.SAVE and lo.alive is False for lo in litter)
        tally[f"{outcome}{'+litter' if litter else ''}"] += 1
        save_atomic(doc, b"B" * 2_000_000, expected_sha256=load_for_edit(doc).sha256)  # the rerun
        assert sorted(p.name for p in folder.iterdir()) == ["MEMORY.md", "other.json"]
        assert (folder / "other.json").read_bytes() == other
    with capsys.disabled():
        print("\n" + tally.line(f"save kills ({sum(tally.values())} trials of 20 saves, {duration:.2f}s)"))
