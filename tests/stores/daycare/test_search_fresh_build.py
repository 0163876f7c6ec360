"""A fresh build of the search index copied inside SQLite (Daycare's SQLite generation: ``sqlite_feed``) is one
transaction: until it commits, searches find what the index held before; cancelled (between batches, or
while FTS5 indexes the copied rows) or killed, it leaves that index exactly as it was, or none at all when
there was none; and a rebuild after the history was shortened keeps its filters working."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from itertools import count
from pathlib import Path

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common import search_feed
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex
from daycare_gui.stores.common.search_query import SourceFilter, search_source
from daycare_gui.stores.daycare.demo import write_demo

REPO = Path(__file__).resolve().parents[3]
WORDS = ("lisbon", "the", "weather OR calendar")


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))
    return d


@pytest.fixture
def demo(tmp_path):
    dest = tmp_path / "daycare"
    write_demo(dest)
    return dest


def _build(dest, **kw):
    with registry.open_store(dest) as store:
        source = store.capability(SearchSource)
        assert source.sqlite_feed() is not None  # (the copy inside SQLite is what these tests are about)
        with SourceIndex.for_source(source) as index:
            return update_source_index(source, index, **kw)


def _seen(dest, flt=SourceFilter()):
    """What a user sees of the index: its state and, for a few queries, every hit with its snippet, place
    and time, in order."""
    with registry.open_store(dest) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            st = index.state()
            hits = {word: [(h.ref, h.message_id, h.role, h.snippet, h.position, h.at)
                           for h in search_source(index, word, flt, limit=10_000, source=source).hits]
                    for word in WORDS}
    return (st.exists, st.rows, st.cursor, st.last), hits


def _records(dest) -> int:
    conn = sqlite3.connect(f"file:{dest / 'daycare.db'}?immutable=1", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM session_history").fetchone()[0]
    finally:
        conn.close()


def test_a_rebuild_cancelled_between_batches_leaves_the_old_index_as_it_was(demo):
    _build(demo)
    before = _seen(demo)
    assert before[0][1] == _records(demo) and before[1]["lisbon"]
    calls = count()
    result = _build(demo, rebuild=True, batch=50, cancel=lambda: next(calls) >= 3)  # after two batches
    assert (result.status, result.added, result.rows) == ("cancelled", 0, before[0][1])
    assert _seen(demo) == before
    assert _build(demo).status == "up to date"  # and it is trusted as it was: nothing to do


def test_a_rebuild_cancelled_while_fts5_indexes_leaves_the_old_index_as_it_was(demo, monkeypatch):
    _build(demo)
    before = _seen(demo)
    monkeypatch.setattr(search_feed, "CANCEL_STEPS", 50)  # (a look at Cancel every few rows indexed)
    looks = count()
    # one batch holds every record: Cancel is asked before it and once after it, then only by FTS5's statement
    result = _build(demo, rebuild=True, batch=10 * _records(demo), cancel=lambda: next(looks) >= 2)
    assert next(looks) > 3  # it was asked while FTS5 indexed, and said so
    assert (result.status, result.rows) == ("cancelled", before[0][1])
    assert _seen(demo) == before


def test_a_first_build_cancelled_leaves_no_index_and_the_next_one_builds_it_whole(demo, tmp_path, monkeypatch):
    calls = count()
    result = _build(demo, batch=50, cancel=lambda: next(calls) >= 2)
    assert (result.status, result.rows) == ("cancelled", 0)
    assert _seen(demo)[0][:2] == (False, 0)
    built = _build(demo, batch=50)
    assert (built.status, built.rows) == ("updated", _records(demo))
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "in-one-go"))
    assert _build(demo).status == "updated"
    whole = _seen(demo)
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    assert _seen(demo) == whole  # the same hits, snippets and places as a build never cancelled


# A child builds the index and is killed (SIGKILL) in the middle: after its first batch, or while FTS5
# indexes the rows it copied (its Cancel is asked by FTS5's statement from the third look on).
KILLED_BUILD = """
import os, signal, sys
from pathlib import Path
from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common import search_feed
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex

dest, where, rebuild = Path(sys.argv[1]), sys.argv[2], sys.argv[3] == "rebuild"
search_feed.CANCEL_STEPS = 50
looks = []

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def progress(done, _total):
    if where == "batch" and done:
        die()

def cancel():
    looks.append(1)
    if where == "fts" and len(looks) >= 3:
        die()
    return False

with registry.open_store(dest) as store:
    source = store.capability(SearchSource)
    with SourceIndex.for_source(source) as index:
        index.conn.execute("PRAGMA cache_size = 1")  # (changed pages spill into the -wal before the commit)
        update_source_index(source, index, rebuild=rebuild, batch=50 if where == "batch" else 1_000_000,
                            progress=progress, cancel=cancel)
"""


def _killed_build(dest, where: str, rebuild: bool) -> None:
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-c", KILLED_BUILD, str(dest), where, "rebuild" if rebuild else "first"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr[-2000:]


@pytest.mark.parametrize("where", ["batch", "fts"])
def test_a_killed_rebuild_leaves_the_old_index_as_it_was(demo, where):
    _build(demo)
    before = _seen(demo)
    _killed_build(demo, where, rebuild=True)
    assert _seen(demo) == before
    assert _build(demo).status == "up to date"


@pytest.mark.parametrize("where", ["batch", "fts"])
def test_a_killed_first_build_leaves_no_index_that_is_trusted(demo, where):
    _killed_build(demo, where, rebuild=False)
    assert _seen(demo)[0][:2] == (False, 0)
    built = _build(demo)
    assert (built.status, built.rows) == ("updated", _records(demo))


def test_a_rebuild_after_the_history_was_shortened_keeps_its_filters(demo):
    """The last record indexed is gone: the index is rebuilt, and its role and record-type filters still
    find their messages (the tags' numbers of the index it replaced are not reused)."""
    _build(demo)
    by_role = _seen(demo, SourceFilter(roles=("user",)))[1]
    by_type = _seen(demo, SourceFilter(choices=(("record_type", "assistant_message"),)))[1]
    assert by_role["the"] and by_type["the"]
    conn = sqlite3.connect(demo / "daycare.db")
    conn.execute("DELETE FROM session_history WHERE id = (SELECT max(id) FROM session_history)")
    conn.commit()
    conn.close()
    with registry.open_store(demo) as store:  # (as a build that died before it stored its fingerprint left it)
        with SourceIndex.for_source(store.capability(SearchSource)) as index:
            index.conn.execute("DELETE FROM meta WHERE key IN ('fingerprint', 'fingerprint_at')")
    built = _build(demo)
    assert built.status == "rebuilt" and "no longer where it was" in built.reason
    assert _seen(demo, SourceFilter(roles=("user",)))[1]["the"]
    assert _seen(demo, SourceFilter(choices=(("record_type", "assistant_message"),)))[1]["the"]


def test_a_fresh_build_merges_many_segments_into_one_and_finds_what_an_unmerged_one_finds(demo, tmp_path,
                                                                                           monkeypatch):
    """A fresh build that wrote many segments merges them (a query reads one b-tree); one left with several
    finds the same hits, snippets and places, in the same order."""
    monkeypatch.setattr(search_feed, "BATCH", 10)  # (the demo counts as a large build)
    monkeypatch.setattr(search_feed, "FRESH_HASH_BYTES", 1024)  # (FTS5 writes a segment every few rows)

    def segments():
        with registry.open_store(demo) as store:
            with SourceIndex.for_source(store.capability(SearchSource)) as index:
                return search_feed._segments(index.conn)

    _build(demo)
    assert segments() == 1
    merged = _seen(demo)
    monkeypatch.setattr(search_feed, "FEW_SEGMENTS", 1 << 30)
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "unmerged"))
    _build(demo)
    assert segments() > 1
    assert _seen(demo) == merged
