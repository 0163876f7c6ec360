"""SIGKILL at random moments during a PGlite edit (copy → edit through PGlite → verify → swap): the store
folder is then byte for byte the old one, or opens and shows the edit; the killed child's PGlite helpers
exit by themselves; a rerun succeeds and leaves no working copy or read copy behind.

PGlite edits take seconds (three PGlite starts), so one trial runs by default
(DAYCARE_GUI_CRASH_TRIALS raises it). The swap itself is killed at each step in tests/crash/test_pglite_swap.py.
"""

from __future__ import annotations

import shutil
import tempfile

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.common import leftovers
from tests.conftest import snapshot_tree
from tests.crash import harness

pytestmark = pytest.mark.slow

EDIT = """
import sys
from daycare_gui.stores import api, registry
store = registry.open_store(sys.argv[1])
tasks = store.capability(api.Tasks)
task = next(t for t in tasks.tasks() if t.id == "cron-plants")
print("go", flush=True)
tasks.update(task, {"enabled": not task.enabled})
"""


def test_pglite_edits_killed_at_random_moments(pglite_demo_master, tmp_path, capsys):
    probe = tmp_path / "probe"
    shutil.copytree(pglite_demo_master, probe)
    before = False  # the demo's cron-plants task is disabled
    duration = harness.run_to_end(EDIT, str(probe))
    old = snapshot_tree(pglite_demo_master / "daycare.pglite")

    rng, tally = harness.rng(), harness.Tally()
    for trial in range(harness.trials(1)):
        root = tmp_path / f"t{trial}"
        shutil.copytree(pglite_demo_master, root)
        pids: list[int] = []
        outcome = harness.kill_after(EDIT, rng.uniform(0, duration), str(root), pids=pids)
        harness.wait_gone(str(root), f"daycare-gui-pglite-{pids[0]}-")
        state = "old" if snapshot_tree(root / "daycare.pglite") == old else "new"
        litter = [lo.path.name for lo in leftovers.in_folder(root)]
        tally[f"{outcome}/{state}{'+litter' if litter else ''}"] += 1

        with registry.open_store(root) as store:  # the rerun: the same edit, from what is there now
            tasks = store.capability(api.Tasks)
            task = next(t for t in tasks.tasks() if t.id == "cron-plants")
            # not the old folder byte for byte: then it must open and hold the edit
            assert task.enabled is (before if state == "old" else not before), f"trial {trial}: {state}"
            tasks.update(task, {"enabled": not task.enabled})
            assert next(t for t in tasks.tasks() if t.id == "cron-plants").enabled is not task.enabled
        assert leftovers.in_folder(root) == [], f"trial {trial}: litter after the rerun"
        assert [lo for lo in leftovers.read_copies(tempfile.gettempdir()) if lo.pid == pids[0]] == []
    with capsys.disabled():
        print("\n" + tally.line(f"PGlite edit kills ({sum(tally.values())} trials, about {duration:.1f}s each)"))
