"""Indexes of stores that no longer exist leave the cache; everything else stays."""

from __future__ import annotations

import os
import shutil
import time

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.sqlite.fts_index import SearchIndex, index_path, update_index
from daycare_gui.stores.daycare.sqlite.fts_index.prune import UNRECORDED_DAYS, prune_indexes


def _build(store_dir, index_dir):
    with ReadOnlyDatabase(store_dir / "daycare.db") as db, SearchIndex(index_path(db.path, index_dir)) as index:
        update_index(db, index)
        return index.path


def test_starting_to_index_removes_the_index_of_a_deleted_store(demo_master, tmp_path, index_dir):
    gone, kept = tmp_path / "gone", tmp_path / "kept"
    shutil.copytree(demo_master, gone)
    shutil.copytree(demo_master, kept)
    gone_index = _build(gone, index_dir)
    kept_index = _build(kept, index_dir)
    crash_wal = gone_index.with_name(gone_index.name + "-wal")
    crash_wal.write_bytes(b"")  # left behind by a crash
    shutil.rmtree(gone)  # the user deletes a demo store

    other = tmp_path / "other"
    shutil.copytree(demo_master, other)
    other_index = _build(other, index_dir)  # any indexing starts with a prune
    assert not gone_index.exists() and not crash_wal.exists()
    assert kept_index.exists() and other_index.exists()
    # the kept store still searches from its index without a rebuild
    with ReadOnlyDatabase(kept / "daycare.db") as db, SearchIndex(kept_index) as index:
        assert update_index(db, index).status == "up to date"


def test_an_index_of_a_store_replaced_at_the_same_path_is_removed(demo_master, tmp_path, index_dir):
    store = tmp_path / "store"
    shutil.copytree(demo_master, store)
    old_index = _build(store, index_dir)
    # Another database file at the same path: a new key. The copy is made before the old one goes, so the
    # file system cannot hand the new file the old inode (it did now and then, and the key stayed the same).
    shutil.copytree(demo_master, tmp_path / "incoming")
    shutil.rmtree(store)
    (tmp_path / "incoming").rename(store)
    new_index = _build(store, index_dir)
    assert new_index != old_index and new_index.exists() and not old_index.exists()


def test_indexes_that_do_not_name_their_store_go_only_when_long_unused(tmp_path):
    folder = tmp_path / "index"
    folder.mkdir()
    old, recent, other = folder / "a.sqlite", folder / "b.sqlite", folder / "notes.txt"
    for f in (old, recent, other):
        f.write_bytes(b"")
    stale = time.time() - (UNRECORDED_DAYS + 1) * 86_400
    os.utime(old, (stale, stale))
    os.utime(other, (stale, stale))
    assert prune_indexes(folder) == [old]
    assert recent.exists() and other.exists()
    assert prune_indexes(tmp_path / "missing") == []
