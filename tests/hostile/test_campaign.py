"""The hostile-input campaign: one damage per trial to a clean store of each kind, then ``inspect --json``,
``search`` and ``export`` as a user runs them. Each must end (a hang fails: the child is killed after a
generous timeout), with exit code 0, or 1 or 2 and a message, never a traceback; no byte of the store may
change, and nothing may be left in the temporary folder. A child writing a file past 512 MB dies, so a copy
that would fill the disk fails the trial instead.

By default one seeded damage per store (reproducible: the seed comes from the parametrization). The whole
set, every damage against every store: ``DAYCARE_GUI_HOSTILE_TRIALS=all``; N random trials per store:
``DAYCARE_GUI_HOSTILE_TRIALS=N``, with ``DAYCARE_GUI_HOSTILE_SEED`` for another sequence (see tests/README.md).
"""

from __future__ import annotations

import hashlib
import os
import random
import stat
from pathlib import Path

import pytest

from tests.crash.harness import run_command
from tests.hostile import damages
from tests.hostile.stores import WRITERS, fresh
from tests.pg_helpers import use_test_pglite

pytestmark = pytest.mark.slow

SQLITE_STORES = {"agentstack", "cianaparrot", "daycare-sqlite"}


def applies(store: str, damage: str) -> bool:
    if damage == "torn-page":
        return store in SQLITE_STORES
    if damage == "garbage-wal":
        return store in SQLITE_STORES or store == "pglite"
    return True


def plan() -> list[tuple[str, str, int]]:
    """(store, damage, seed) per trial, from DAYCARE_GUI_HOSTILE_TRIALS and DAYCARE_GUI_HOSTILE_SEED."""
    setting = os.environ.get("DAYCARE_GUI_HOSTILE_TRIALS", "1").strip().lower()
    seed = int(os.environ.get("DAYCARE_GUI_HOSTILE_SEED", "39"))
    if setting == "all":
        return [(s, d, seed) for s in WRITERS for d in damages.ALL if applies(s, d)]
    rnd = random.Random(seed)
    return [(s, rnd.choice([d for d in damages.ALL if applies(s, d)]), seed + i)
            for i in range(int(setting)) for s in WRITERS]


def tree_state(folder: Path) -> dict[str, tuple]:
    """Every path under ``folder`` with its type, mode and content (a file's SHA-256, a link's target),
    read without following a link and without opening anything but a regular file."""
    out: dict[str, tuple] = {}
    for dirpath, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, folder)
            if stat.S_ISREG(st.st_mode):
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
                with os.fdopen(fd, "rb") as fh:
                    out[rel] = ("file", st.st_mode, hashlib.sha256(fh.read()).hexdigest())
            elif stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            else:
                out[rel] = (stat.S_IFMT(st.st_mode), st.st_mode)
    return out


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    return tmp_path_factory.mktemp("hostile-templates")


def commands(store, store_name: str) -> list[list[str]]:
    path = str(store.path)
    if store_name == "pglite" and not os.environ.get("DAYCARE_GUI_HOSTILE_TRIALS"):
        # Each command copies the folder and starts PGlite (10-20 s here); the suite's default sample runs
        # the one whose copy every command shares, the longer samples all three.
        return [["inspect", "--json", path]]
    out = [["inspect", "--json", path], ["search", path, "the", "--json"]]
    if store.session:
        out.append(["export", path, f"session:{store.session}"])
    return out


@pytest.mark.parametrize(("store_name", "damage", "seed"), plan())
def test_a_damaged_store_is_read_safely(store_name, damage, seed, templates, tmp_path, private_tmp):
    store = fresh(store_name, templates, tmp_path / "store")
    outside = tmp_path / "outside"
    outside.mkdir()
    hit = damages.apply(damage, store.folder, random.Random(f"{store_name}/{damage}/{seed}"), outside)
    assert hit is not None, f"{store_name} has nothing {damage} applies to"
    trial = f"{store_name}, {damage} at {hit.relative_to(store.folder)}"
    before = tree_state(store.folder)
    env = dict(os.environ, TMPDIR=str(private_tmp), DAYCARE_GUI_SEARCH_DIR=str(tmp_path / "index"))
    use_test_pglite(env)
    for args in commands(store, store_name):
        code, out, err = run_command(args, env)
        said = f"{trial}: daycare-gui {args[0]}"
        assert code is not None, f"{said} hung (killed after the timeout); it printed: {err[-500:]}"
        assert "Traceback" not in err, f"{said} crashed:\n{err[-3000:]}"
        assert code in (0, 1, 2), f"{said} exited {code}: {err[-1000:]}"
        if code:
            assert err.strip() or '"error"' in out, f"{said} exited {code} saying nothing"
    assert tree_state(store.folder) == before, f"{trial}: the commands changed the store"
    assert sorted(os.listdir(private_tmp)) == [], f"{trial}: left behind in the temporary folder"
