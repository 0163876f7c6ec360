"""The last step of a PGlite edit swaps the verified working copy in for the store folder. A kill at any
moment of it leaves a folder at the store's path holding the old or the new state, whole — never none
(before, a kill between "store → backup" and "copy → store" left no store folder at all)."""

from __future__ import annotations

import pytest

from tests.conftest import snapshot_tree
from tests.crash import harness

SWAP = """
import os, signal, sys
from pathlib import Path
from daycare_gui.stores.daycare.pg import writes
folder = Path(sys.argv[1])
kill_at, calls = int(sys.argv[2]), [0]
real_replace, real_exchange = os.replace, writes.exchange


def counted(real):
    def step(*args):
        result = real(*args)
        calls[0] += 1
        if calls[0] == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        return result
    return step


os.replace = counted(real_replace)
writes.exchange = counted(real_exchange)
print("go", flush=True)
writes.swap_in(folder / ".daycare-gui-edit-1-1.pglite", folder / "daycare.pglite",
               folder / ".daycare-gui-backup-1-daycare.pglite")
"""


def _store(folder, tag: bytes):
    (folder / "base").mkdir(parents=True)
    (folder / "PG_VERSION").write_bytes(b"17\n")
    (folder / "base" / "1").write_bytes(tag * 1000)


@pytest.mark.parametrize("kill_at", [1, 2, 99], ids=["after-step-1", "after-step-2", "never"])
def test_a_kill_during_the_swap_leaves_the_old_or_the_new_store(tmp_path, kill_at):
    _store(tmp_path / "daycare.pglite", b"old")
    _store(tmp_path / ".daycare-gui-edit-1-1.pglite", b"new")
    old = snapshot_tree(tmp_path / "daycare.pglite")
    new = snapshot_tree(tmp_path / ".daycare-gui-edit-1-1.pglite")
    outcome = harness.kill_after(SWAP, 30, str(tmp_path), str(kill_at))
    assert outcome == "finished"  # it ended: killed itself at the step, or done
    store = tmp_path / "daycare.pglite"
    assert store.is_dir(), f"no store folder after a kill at step {kill_at}"
    assert snapshot_tree(store) in (old, new)
    everything = [snapshot_tree(p) for p in tmp_path.iterdir()]
    assert old in everything  # the old state survives, as the store or as its backup
