"""The shared search index, fed by any kind's SearchSource: here the test-only chatlog kind and a Linggen
home. It lives in a private cache folder, is incremental, rebuilds when the history it indexed changed at
its end, can be cancelled and continued, filters by role, thread and time, and never writes the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from daycare_gui.stores import registry
from daycare_gui.stores.api import SearchSource
from daycare_gui.stores.common.fts import MARK_CLOSE, MARK_OPEN
from daycare_gui.stores.common.search_build import update_source_index
from daycare_gui.stores.common.search_index import SourceIndex, index_file
from daycare_gui.stores.common.search_query import SourceFilter, search_source
from daycare_gui.stores.records import SessionRef
from tests.conftest import snapshot_tree
from tests.stores.plugin import install_chatlog_entry_point

T = 1_767_225_600_000  # 2026-01-01 00:00 UTC, in ms


@pytest.fixture
def index_dir(tmp_path, monkeypatch):
    d = tmp_path / "index"
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(d))  # never the user's cache, even by default
    return d


@pytest.fixture
def chatlog(monkeypatch, tmp_path):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    from chatlog_kind import write_chatlog

    yield write_chatlog(tmp_path / "store")
    registry.unregister("chatlog")


def _append(path, *objs) -> None:
    with open(path, "a") as fh:
        for obj in objs:
            fh.write(json.dumps(obj) + "\n")


def _build(store_path, **kw):
    with registry.open_store(store_path) as store:
        source = store.capability(SearchSource)
        with SourceIndex.for_source(source) as index:
            return update_source_index(source, index, **kw)


def _search(store_path, text, flt=SourceFilter(), **kw):
    with registry.open_store(store_path) as store:
        with SourceIndex.for_source(store.capability(SearchSource)) as index:
            return search_source(index, text, flt, **kw)


def test_builds_in_the_cache_folder_and_finds_messages_tool_calls_and_results(chatlog, index_dir):
    before = snapshot_tree(chatlog)
    built = _build(chatlog)
    assert (built.status, built.added, built.rows) == ("updated", 6, 6)
    assert [p.parent.name for p in index_dir.rglob("*.sqlite")] == ["sources"]
    res = _search(chatlog, "deploy")
    # the user's words, the call's name and arguments, the tool's result: every one is searchable
    assert {(h.ref, h.message_id, h.role) for h in res.hits} == {
        (SessionRef("ops", "s1"), "0", "user"), (SessionRef("ops", "s1"), "1", "assistant"),
        (SessionRef("ops", "s1"), "2", "tool")}
    hit = _search(chatlog, "pods").hits[0]
    assert hit.snippet.endswith(f"green: 42 {MARK_OPEN}pods{MARK_CLOSE}")
    assert (hit.at, hit.position) == (T + 2000, 2)
    assert _search(chatlog, '"prod is green"').hits[0].message_id == "3"
    assert _search(chatlog, "hel*").hits[0].ref == SessionRef("home", "a")
    assert len(_search(chatlog, "hello OR again").hits) == 2
    assert _search(chatlog, "deploy -pods").total == 2
    assert snapshot_tree(chatlog) == before  # the store is never written


@pytest.mark.parametrize("text", ['"unterminated', "AND OR", "*", "NEAR(a b)", "col : x", "-only"])
def test_any_query_text_is_harmless(chatlog, index_dir, text):
    _build(chatlog)
    _search(chatlog, text)  # no exception: user text never becomes FTS5 syntax


def test_filters_by_role_thread_and_time(chatlog, index_dir):
    _build(chatlog)
    assert [h.role for h in _search(chatlog, "deploy", SourceFilter(roles=("tool",))).hits] == ["tool"]
    assert len(_search(chatlog, "deploy", SourceFilter(roles=("user", "assistant"))).hits) == 2
    assert _search(chatlog, "hello", SourceFilter(thread_id="ops")).hits == []
    assert len(_search(chatlog, "hello", SourceFilter(thread_id="home")).hits) == 1
    timed = _search(chatlog, "deploy", SourceFilter(since=T + 1000, until=T + 2000)).hits
    assert [h.message_id for h in timed] == ["1"]


def test_best_match_first_or_newest_first_and_grouped(chatlog, index_dir):
    _append(chatlog / "ops" / "s1.jsonl", {"role": "user", "text": "deploy deploy deploy again", "at": T + 9000})
    _build(chatlog)
    best = _search(chatlog, "deploy")
    assert best.hits[0].message_id == "4"  # BM25: the message saying it most
    newest = _search(chatlog, "deploy", newest_first=True)
    assert [h.message_id for h in newest.hits] == ["4", "2", "1", "0"]
    assert [(g.thread_id, g.title, len(g.sessions)) for g in _search(chatlog, "deploy", titles={"ops": "Ops"}).groups] \
        == [("ops", "Ops", 1)]
    assert best.summary.startswith("4 matches; showing 4 in 1 thread")
    assert _search(chatlog, "deploy", limit=2).total == 4 and len(_search(chatlog, "deploy", limit=2).hits) == 2


def test_incremental_only_new_messages_are_indexed(chatlog, index_dir):
    assert _build(chatlog).added == 6
    assert _build(chatlog).status == "up to date"
    _append(chatlog / "home" / "a.jsonl", {"role": "assistant", "text": "a fresh zeppelin", "at": T + 60_000})
    _append(chatlog / "ops" / "s1.jsonl", {"role": "user", "text": "zeppelin too", "at": T + 61_000})
    before = snapshot_tree(chatlog)
    built = _build(chatlog)
    assert (built.status, built.added, built.rows) == ("updated", 2, 8)
    hits = _search(chatlog, "zeppelin").hits
    assert {(h.ref.session_id, h.position) for h in hits} == {("a", 1), ("s1", 4)}
    assert snapshot_tree(chatlog) == before


def test_a_shortened_history_is_rebuilt(chatlog, index_dir):
    _append(chatlog / "ops" / "s1.jsonl", {"role": "user", "text": "walrus", "at": T + 60_000})
    _build(chatlog)
    assert _search(chatlog, "walrus").total == 1
    path = chatlog / "ops" / "s1.jsonl"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-1]))  # the last message is gone
    built = _build(chatlog)
    assert built.status == "rebuilt" and "no longer where it was" in built.reason
    assert (built.added, built.rows) == (6, 6)
    assert _search(chatlog, "walrus").total == 0


def test_rebuild_on_request_and_after_a_format_change(chatlog, index_dir):
    _build(chatlog)
    assert _build(chatlog, rebuild=True).status == "rebuilt"
    with registry.open_store(chatlog) as store:
        with SourceIndex.for_source(store.capability(SearchSource)) as index:
            index.set_meta(version=0)
    built = _build(chatlog)
    assert built.status == "rebuilt" and "format 0" in built.reason and built.rows == 6


def test_cancel_keeps_what_was_indexed_and_the_next_build_continues(chatlog, index_dir):
    for i in range(30):
        _append(chatlog / "ops" / "s1.jsonl", {"role": "user", "text": f"line {i} narwhal", "at": T + 100_000 + i})
    seen = []

    def progress(done, total):
        seen.append(done)

    calls = iter(range(100))
    first = _build(chatlog, batch=10, progress=progress, cancel=lambda: next(calls) >= 2)
    assert (first.status, first.added, first.rows) == ("cancelled", 20, 20)
    assert seen == [0, 10, 20]
    rest = _build(chatlog, batch=10)
    assert (rest.status, rest.added, rest.rows) == ("updated", 16, 36)
    assert _search(chatlog, "narwhal").total == 30


def test_each_store_has_its_own_index(chatlog, tmp_path, index_dir):
    from chatlog_kind import write_chatlog

    other = write_chatlog(tmp_path / "other")
    _build(chatlog)
    _build(other)
    assert len(list((index_dir / "sources").glob("*.sqlite"))) == 2
    assert index_file("chatlog:/a") != index_file("chatlog:/b")
    assert index_file("x", tmp_path / "elsewhere").is_relative_to(tmp_path / "elsewhere")


def test_an_empty_store_is_remembered_as_looked_at(tmp_path, index_dir, monkeypatch):
    install_chatlog_entry_point(monkeypatch, tmp_path)
    try:
        root = tmp_path / "empty"
        root.mkdir()
        (root / "CHATLOG").write_text("1\n")
        assert _build(root).status == "up to date"
        assert _search(root, "anything").hits == []
        (root / "t").mkdir()
        (root / "t" / "s.jsonl").write_text(json.dumps({"role": "user", "text": "first words", "at": T}) + "\n")
        assert _build(root).added == 1
    finally:
        registry.unregister("chatlog")


def test_linggen_demo_indexes_incrementally(tmp_path, index_dir):
    from daycare_gui.stores.linggen.demo import write_demo

    home = write_demo(tmp_path / "home")
    before = snapshot_tree(home)
    first = _build(home)
    assert first.added > 20 and first.rows == first.added
    assert snapshot_tree(home) == before
    res = _search(home, "tests")
    assert res.total and all(h.ref.thread_id and h.ref.session_id for h in res.hits)
    sessions = sorted(home.rglob("messages.jsonl"))
    line = {"agent_id": "ling", "from_id": "ling", "to_id": "user", "content": "the quokka is deployed",
            "timestamp": 1_900_000_000, "is_observation": False}
    _append(sessions[0], line)
    built = _build(home)
    assert (built.status, built.added, built.rows) == ("updated", 1, first.rows + 1)
    hit = _search(home, "quokka").hits[0]
    assert hit.role == "assistant" and hit.at == 1_900_000_000_000


def test_the_index_knows_which_roles_it_holds(chatlog, index_dir):
    _append(chatlog / "ops" / "s1.jsonl", {"role": "observer", "text": "noted", "at": T + 60_000})
    _build(chatlog)
    with registry.open_store(chatlog) as store:
        with SourceIndex.for_source(store.capability(SearchSource)) as index:
            assert index.state().roles == ("assistant", "observer", "tool", "user")


def _old_index(identity: str, *, records: str | None = None) -> list:
    """An index file (with a -wal and -shm beside it) as an earlier version left it under ``identity``."""
    path = index_file(identity)
    with SourceIndex(path) as index:
        index.set_meta(version=1, identity=records or identity, rows=0)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").write_bytes(b"left over")
    return [path, Path(f"{path}-wal"), Path(f"{path}-shm")]


def test_a_linggen_index_of_a_former_identity_is_removed_and_nothing_else(tmp_path, index_dir):
    from daycare_gui.stores.linggen.demo import write_demo

    home = write_demo(tmp_path / "home")
    other = write_demo(tmp_path / "other")
    old_files = _old_index(f"linggen:{home}") + _old_index(f"linggen/2:{home}")
    kept = _old_index(f"linggen/2:{other}")  # another home's old index: not this store's to remove
    unrelated = index_dir / "sources" / "notes.txt"
    unrelated.write_text("mine")
    built = _build(home)
    assert built.rows > 0
    assert [p for p in old_files if p.exists()] == []
    assert all(p.exists() for p in kept) and unrelated.read_text() == "mine"
    with registry.open_store(home) as store:
        current = index_file(store.capability(SearchSource).identity())
    assert sorted(p.name for p in (index_dir / "sources").glob("*.sqlite")) == sorted([current.name, kept[0].name])


def test_a_file_under_a_former_name_that_records_another_store_is_left_alone(tmp_path, index_dir):
    from daycare_gui.stores.linggen.demo import write_demo

    home = write_demo(tmp_path / "home")
    foreign = _old_index(f"linggen/2:{home}", records="chatlog:/somewhere/else")
    _build(home)
    assert all(p.exists() for p in foreign)


def test_a_former_index_that_cannot_be_removed_does_not_stop_the_build(tmp_path, index_dir, monkeypatch):
    from daycare_gui.stores.linggen.demo import write_demo

    home = write_demo(tmp_path / "home")
    old = _old_index(f"linggen/2:{home}")
    real_unlink = Path.unlink

    def locked(self, *args, **kwargs):
        if self in old:
            raise PermissionError(13, "in use")
        return real_unlink(self, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", locked)
    built = _build(home)
    assert built.rows > 0  # indexed as ever
    assert all(p.exists() for p in old)
    monkeypatch.setattr(Path, "unlink", real_unlink)
    _build(home)  # tried again at the next build
    assert not any(p.exists() for p in old)
