"""Quick open in the core (no Qt): what the palette lists for each kind of store, and in which order."""

from __future__ import annotations

import sqlite3

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.jump import JumpIndex, deep_link, entries_of, link_target
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.records import JumpEntry, SessionRef


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("jump") / "daycare"
    write_demo(root, now_ms=1_795_000_000_000)
    return root


def _index(path) -> JumpIndex:
    with registry.open_store(str(path)) as opened:
        return JumpIndex(entries_of(opened))


def test_a_fragment_of_a_session_id_finds_that_session(demo):
    conn = sqlite3.connect(f"file:{demo / 'daycare.db'}?immutable=1", uri=True)
    sessions = [r[0] for r in conn.execute("SELECT id FROM sessions ORDER BY id")]
    agent_of = dict(conn.execute("SELECT id, agent_id FROM sessions"))
    conn.close()
    index = _index(demo)
    for sid in sessions:
        fragment = sid[len(sid) // 2 - 3: len(sid) // 2 + 3]  # six characters from the middle
        found = [(e.kind, e.key) for e in index.search(fragment)]
        assert ("session", sid) in found, fragment
        hit = index.find("session", sid)
        assert hit.ref == (agent_of[sid], sid, None)  # Daycare's conversation page opens it
    whole = index.search(sessions[0])
    assert (whole[0].kind, whole[0].key) == ("session", sessions[0])


def test_every_kind_of_daycare_item_is_listed_by_name_id_nametag_and_path(demo):
    conn = sqlite3.connect(f"file:{demo / 'daycare.db'}?immutable=1", uri=True)
    user_id, nametag = conn.execute("SELECT id, nametag FROM users WHERE nametag IS NOT NULL LIMIT 1").fetchone()
    conn.close()
    index = _index(demo)
    kinds = {e.kind for e in index.entries}
    assert {"agent", "session", "user", "task", "app", "doc", "table"} <= kinds
    assert index.search(f"@{nametag}")[0].key == user_id
    assert index.search(nametag)[0].key == user_id
    app = next(e for e in index.entries if e.kind == "app")
    assert index.find("app", app.key) is app and app.ref.endswith(app.key)  # the Apps page selects by folder
    doc = next(e for e in index.entries if e.kind == "doc")
    assert doc.key.endswith(".md") and index.find("doc", doc.key) is doc
    assert any(e.key == doc.key for e in index.search(doc.key.rsplit("/", 2)[-2]))  # by a folder of its path
    task = next(e for e in index.entries if e.kind == "task")
    assert task.ref[0] in ("cron", "heartbeat") and index.search(task.label)[0].label.lower() == task.label.lower()
    assert index.find("table", "session_history") is not None
    # keys and labels only: no entry carries a record body
    assert all(isinstance(e.ref, (str, tuple)) and len(e.label) < 200 for e in index.entries)


def test_ranking_exact_then_prefix_then_word_start_then_substring():
    entries = [
        JumpEntry("agent", "zz-mid-abc", "Has abc inside", "", None),  # substring in its label: xabcx
        JumpEntry("agent", "q1", "Xabcx", "", None),
        JumpEntry("session", "abc123", "Some session", "", None),  # id starts with it
        JumpEntry("user", "u1", "Abc Rivera", "", None),  # exact label? no: word start in label
        JumpEntry("task", "t1", "Daily", "owner abc", None),  # word start in its detail only
        JumpEntry("table", "abc", "abc", "", None),  # the exact id
    ]
    found = [e.key for e in JumpIndex(entries).search("abc")]
    assert found == ["abc", "abc123", "zz-mid-abc", "u1", "t1", "q1"]
    # every word typed must match, in any order; case and extra spaces do not matter
    assert [e.key for e in JumpIndex(entries).search("  RIVERA   abc ")] == ["u1"]
    assert JumpIndex(entries).search("abc nothing") == []
    assert JumpIndex(entries).search("   ") == []
    assert len(JumpIndex(entries * 40).search("abc", limit=7)) == 7


def test_links_name_an_item_and_parse_back():
    assert link_target("session:abc:def") == ("session", "abc:def")
    assert link_target("thread:t1") == ("agent", "t1")
    assert link_target("DOC:/x/y.md") == ("doc", "/x/y.md")
    assert link_target("nothing") is None and link_target("bogus:1") is None and link_target("agent:") is None
    assert deep_link("/a b/store", "session", "s 1") == "daycare-gui '/a b/store' --open 'session:s 1'"


def test_another_kind_is_listed_through_its_capabilities(tmp_path):
    from tests.stores.linggen.builder import standard_home

    standard_home(tmp_path / "home")
    with registry.open_store(str(tmp_path / "home")) as opened:
        assert opened.capability(api.Directory) is None  # the fallback: threads, sessions, documents, lists
        index = JumpIndex(entries_of(opened))
    session = index.search("aaaa0001")[0]
    assert (session.kind, session.label) == ("session", "Fix login bug")
    assert session.ref == SessionRef("per-project:-work-app", "sess-1700000000-aaaa0001")
    assert index.search("login bug")[0] is session
    assert index.search("/work/app")[0].kind == "agent"  # a project by its path
    mission = index.search("monitor production")[0]
    assert (mission.kind, mission.collection) == ("row", "missions")
    assert index.find("row", f"missions:{mission.ref}") is mission
    assert index.search("refactor-auth")[0].kind == "doc"


def test_a_failing_capability_leaves_the_others():
    class Broken(api.Tasks):
        def tasks(self):
            raise RuntimeError("boom")

    class Docs(api.Documents):
        def documents(self):
            from daycare_gui.stores.records import DocRef

            return [DocRef("d1", "Notes", None)]

    class Store(api.OpenedStore):
        def summary(self):
            raise NotImplementedError

    store = Store("x")
    store.offer(api.Tasks, Broken())
    store.offer(api.Documents, Docs())
    assert [(e.kind, e.key) for e in entries_of(store)] == [("doc", "d1")]


def test_a_legacy_store_lists_its_agent_folders_and_their_sessions(fixture_copy):
    store = fixture_copy("daycare-808af509", with_db=False, as_name="nodb")
    index = _index(store)
    agents = [e for e in index.entries if e.kind == "agent"]
    sessions = [e for e in index.entries if e.kind == "session"]
    assert agents and sessions
    assert all(s.ref[0] == "legacy" for s in sessions)
    assert index.find("session", sessions[0].key) is sessions[0]


def _session_entries(n: int) -> list[JumpEntry]:
    """What the large demo lists: n sessions of n/20 agents, keys and labels as Daycare makes them."""
    return [JumpEntry("session", f"s{i:023d}", f"telegram user {900000 + i // 20} · {i} — session of 2026-09-30 "
                      f"{i % 24:02d}:{i % 60:02d}", f"agent a{i // 20:023d}", (f"a{i // 20:023d}", f"s{i:023d}", None))
            for i in range(n)]


def test_the_index_keeps_little_beside_each_entry():
    """(#35) The window keeps the index of a 1M-record store's 21,000 items for as long as the store is
    open: it held ~880 bytes beside each entry (18 MB there), of which a dict of every lower-cased id and
    label, for exact matches, and a "kind:key" string per entry for links."""
    import tracemalloc

    entries = _session_entries(5_000)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        index = JumpIndex(entries)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held / len(entries) < 600, f"{held / len(entries):.0f} bytes per entry"
    # what it answers is the same: an exact id, an exact label (found before the entries sorted ahead of
    # it), a link's item
    last = entries[-1]
    assert index.search(last.key)[0] is last
    assert index.search(last.label.upper())[0] is last
    assert index.find("session", last.key) is last and index.find("thread", last.key) is None


def test_the_sessions_of_an_agent_share_its_id_and_detail_line(demo):
    """(#35) Each session's entry held its own copy of its agent's id and "agent …" line: 3 MB of the 1M
    demo's entries, kept while the store is open."""
    with registry.open_store(str(demo)) as opened:
        sessions = [e for e in entries_of(opened) if e.kind == "session" and isinstance(e.ref, tuple)]
    by_agent: dict = {}
    for e in sessions:
        by_agent.setdefault(e.ref[0], []).append(e)
    first, second = next(group for group in by_agent.values() if len(group) > 1)[:2]
    assert first.detail == second.detail == f"agent {first.ref[0]}"
    assert first.detail is second.detail and first.ref[0] is second.ref[0]
