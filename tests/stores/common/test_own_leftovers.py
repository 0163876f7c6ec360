"""daycare-gui's own leftovers around a store and in its cache: ``prune PATH --leftovers --dry-run`` lists
exactly the backups beyond the newest N of each file, the working copies of writers that are gone, the search
indexes and kept answers of stores that are gone, with their bytes, and writes nothing; the run then removes
those and gives back what the dry run said, and nothing else: not the newest backups, not a live writer's
copy, not the store's own files, not what belongs to a store that exists."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from daycare_gui.cli import main
from daycare_gui.stores.common import kept, own_leftovers
from daycare_gui.stores.common.tree_fingerprint import Fingerprint
from tests.conftest import snapshot_tree
from tests.stores.cianaparrot.builder import make_deployment


def _gone_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _index(path: Path, location: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("INSERT INTO meta VALUES ('location', ?)", (location,))
    conn.execute("CREATE TABLE words (w TEXT)")
    conn.executemany("INSERT INTO words VALUES (?)", [("word " * 50,)] * 200)
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def world(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(cache / "daycare-gui" / "search"))
    root = tmp_path / "deployment"
    make_deployment(root)
    data = root / "data"
    backups = data / ".daycare-gui-backups"
    backups.mkdir(mode=0o700)
    goes, stays = [], []
    for day in range(1, 6):  # five backups of MEMORY.md: the two oldest go
        path = backups / f"MEMORY.md.202611{day:02d}-101500.bak"
        path.write_bytes(b"m" * (1000 * day))
        (goes if day <= 2 else stays).append(path)
    for n in range(4):  # four prune backups taken in the same second: the oldest goes
        path = backups / (f"checkpoints.db.20261120-090000{'' if n == 0 else f'.{n}'}.prune.bak")
        path.write_bytes(b"c" * 5000)
        (goes if n == 0 else stays).append(path)
    user_file = backups / "notes.bak"  # not a name this application gives: never touched
    user_file.write_text("mine")
    stays.append(user_file)
    dead = data / f".checkpoints.db.prune-{_gone_pid()}-1795000000000"
    dead.write_bytes(b"w" * 7000)
    goes.append(dead)
    live = data / f".checkpoints.db.prune-{__import__('os').getpid()}-1795000000000"
    live.write_bytes(b"w" * 7000)
    stays.append(live)

    sources = cache / "daycare-gui" / "search" / "sources"
    goes.append(_index(sources / "a.sqlite", str(tmp_path / "deleted-store")))
    stays.append(_index(sources / "b.sqlite", str(root)))
    fp = Fingerprint("x")
    gone_store = tmp_path / "another-store.db"
    gone_store.write_text("")
    assert kept.save(kept.real_path(gone_store), "space-v1", fp, {"agents": []})
    assert kept.save(kept.real_path(root / "data" / "checkpoints.db"), "space-v1", fp, {"agents": []})
    gone_store.unlink()
    [kept_gone] = [p for p, _store in kept.orphans()]
    return root, goes, stays, kept_gone


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.is_dir() else path.stat().st_size


def test_dry_run_names_exactly_our_leftovers_then_the_run_removes_them_and_gives_back_what_it_said(world, capsys):
    root, goes, stays, kept_gone = world
    before = snapshot_tree(root)
    assert main(["prune", str(root), "--leftovers", "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] and snapshot_tree(root) == before
    assert sorted(f["name"] for f in dry["files"]) == sorted(str(p) for p in goes)
    expected = sum(_size(p) for p in goes)
    assert dry["bytes"] == expected and [f["bytes"] for f in dry["files"]] == sorted(
        (f["bytes"] for f in dry["files"]), reverse=True)
    assert dry["summary"].startswith("Would remove 3 backups, 1 working copy, 1 search index: ")
    assert not kept_gone.exists()  # (every start of daycare-gui removes what was kept for stores that are gone)

    assert main(["prune", str(root), "--leftovers", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["reclaimed"] == expected
    assert not [p for p in goes if p.exists()]
    assert all(p.exists() for p in stays)
    assert main(["prune", str(root), "--leftovers", "--dry-run"]) == 0
    assert "Nothing of daycare-gui's own to remove." in capsys.readouterr().out


def test_the_run_keeps_what_changed_since_the_dry_run(world, capsys):
    from daycare_gui.stores import api, registry

    root, goes, _stays, kept_gone = world
    with registry.open_store(root) as opened:  # (a window open since before the store went)
        storage = opened.capability(api.Storage)
        preview = own_leftovers.preview(storage, 3)
        assert sorted(x.name for x in preview.dropped) == sorted(map(str, [*goes, kept_gone]))
        index = next(p for p in goes if p.suffix == ".sqlite")
        gone_store = Path(sqlite3.connect(index).execute("SELECT value FROM meta").fetchone()[0])
        gone_store.write_text("")  # the store came back meanwhile: its index is its again
        done = own_leftovers.remove_for(storage, 3, preview)
    assert index.exists() and not kept_gone.exists() and "1 stayed" in done.summary
    assert done.size_before - done.size_after == preview.size_before - _size(index)


def test_keep_backups_below_one_is_refused(world, capsys):
    root = world[0]
    assert main(["prune", str(root), "--leftovers", "--keep-backups", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_storage_command_says_what_our_leftovers_take(world, capsys):
    root, goes, _stays, _kept = world
    assert main(["storage", str(root), "--json"]) == 0
    own = json.loads(capsys.readouterr().out)["own_leftovers"]
    assert own["bytes"] == sum(_size(p) for p in goes) and len(own["files"]) == len(goes)
    assert main(["storage", str(root)]) == 0
    assert "daycare-gui's own leftovers: Would remove 3 backups" in capsys.readouterr().out


def test_a_backups_folder_that_is_a_link_is_never_looked_into(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "cache" / "search"))
    root = tmp_path / "deployment"
    make_deployment(root)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    files = []
    for day in range(1, 6):
        files.append(elsewhere / f"report.202611{day:02d}-101500.bak")
        files[-1].write_text("not daycare-gui's")
    (root / "data" / ".daycare-gui-backups").symlink_to(elsewhere)
    assert main(["prune", str(root), "--leftovers", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["files"] == [] and all(p.exists() for p in files)
