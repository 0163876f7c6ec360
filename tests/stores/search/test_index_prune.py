"""The shared search's indexes leave the user's cache once their store is gone: each records where its
store lives, and every build removes the indexes of stores that no longer exist. A live store's index stays,
and every index file is the user's alone (0600 in 0700 folders)."""

from __future__ import annotations

import os
import shutil
import stat
import time

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.fts import recorded_meta
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.daycare.demo import write_demo
from tests.stores.linggen.builder import standard_home


@pytest.fixture
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))  # never the user's cache
    return d


def _build(store_path):
    with registry.open_store(store_path, live=False) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            update_source_index(source, index)
            return index.path


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_index_of_a_deleted_store_leaves_the_cache_and_a_live_ones_stays(tmp_path, index_dir):
    gone, live = standard_home(tmp_path / "gone").root, standard_home(tmp_path / "live").root
    write_demo(tmp_path / "daycare")
    gone_index, live_index, daycare_index = _build(gone), _build(live), _build(tmp_path / "daycare")
    assert recorded_meta(live_index, "location") == str(live)
    assert recorded_meta(daycare_index, "location") == str((tmp_path / "daycare" / "daycare.db").resolve())
    (gone_index.parent / f"{gone_index.name}-wal").write_bytes(b"")  # a sidecar goes with its index

    shutil.rmtree(gone)
    _build(live)  # any build looks

    assert not gone_index.exists() and not (gone_index.parent / f"{gone_index.name}-wal").exists()
    assert live_index.exists() and daycare_index.exists()
    shutil.rmtree(tmp_path / "daycare")
    _build(live)
    assert not daycare_index.exists() and live_index.exists()


def test_an_index_that_does_not_say_its_store_goes_only_after_a_month_untouched(tmp_path, index_dir):
    live = standard_home(tmp_path / "live").root
    live_index = _build(live)
    sources = live_index.parent
    old, recent = sources / ("a" * 24 + ".sqlite"), sources / ("b" * 24 + ".sqlite")
    for f in (old, recent):
        f.write_bytes(b"")  # (no meta table: records no store, as an index from before the record)
    month_ago = time.time() - 31 * 86_400
    os.utime(old, (month_ago, month_ago))
    os.utime(live_index, (month_ago, month_ago))  # a live store's index is kept however old

    _build(live)

    assert not old.exists() and recent.exists() and live_index.exists()


def test_index_files_are_private(tmp_path, index_dir):
    index = _build(standard_home(tmp_path / "live").root)
    assert _mode(index) == 0o600
    for sidecar in index.parent.glob(f"{index.name}-*"):
        assert _mode(sidecar) == 0o600
    assert _mode(index.parent) == 0o700  # sources/, made by the build
