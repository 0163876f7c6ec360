"""The shared Search page (Ctrl+Shift+F) on Daycare's SQLite demo, a PostgreSQL demo and a Linggen home: it
indexes into a private cache folder, finds a word, groups the matches thread → session with highlighted
snippets, offers the store's own facets (Daycare's agent kind, lifecycle, user, record type), lists the
documents that matched with where they live, and Enter opens the conversation at a message or the section
that shows a document, at it."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtCore import Qt

from daycare_gui.stores.common.search_query import DocumentHit, SourceHit, ThreadHits
from daycare_gui.ui.models.roles import RecordRole
from daycare_gui.ui.models.search_results import result_key
from daycare_gui.ui.panes.generic.conversations import MessageTarget
from daycare_gui.ui.widgets.snippet import snippet_html
from tests.conftest import snapshot_tree
from tests.ui.conftest import open_and_wait


@pytest.fixture(autouse=True)
def private_index(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    return tmp_path / "index"


def _built(pane) -> bool:
    return "messages" in pane.index_label.text() and pane.build_button.isEnabled() and not pane._building


def _open_search(qtbot, window, store, timeout=10000):
    open_and_wait(qtbot, window, store, timeout=timeout)
    window.actions_.actions["search"].trigger()  # View → Search Histories (Ctrl+Shift+F)
    pane = window.panes["search"]
    assert window.pane_stack.currentWidget() is pane
    qtbot.waitUntil(lambda: _built(pane), timeout=timeout)  # built: messages counted, Update index offered again
    return pane


def _search(qtbot, pane, text):
    pane.last_results = None
    pane.query_box.setText(text)
    # searched now, as Enter does: else the box's own search 400 ms after typing can land after the results
    # (on a loaded machine) and put "Searching…" back while the test reads them
    pane.query_box.cancel_pending()
    pane.run_search()
    qtbot.waitUntil(lambda: pane.last_results is not None and pane.last_results.query == text, timeout=5000)


def _navigations(pane) -> list:
    calls = []
    pane.ctx.navigate = lambda section, target: calls.append((section, target))
    return calls


def _enter_on(qtbot, pane, index) -> None:
    pane.tree.setFocus()
    pane.tree.setCurrentIndex(index)
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)


def _agents(store, where: str) -> set[str]:
    conn = sqlite3.connect(f"file:{store / 'daycare.db'}?immutable=1", uri=True)
    try:
        return {r[0] for r in conn.execute(f"SELECT id FROM agents WHERE {where}")}
    finally:
        conn.close()


# -- Daycare SQLite ---------------------------------------------------------------------------------------

def test_search_groups_matches_and_opens_the_record(qtbot, window, demo_store, private_index, model_tester):
    before = snapshot_tree(demo_store)
    pane = _open_search(qtbot, window, demo_store)
    model_tester(pane.model)  # through the searches below
    assert "172 messages" in pane.index_label.text() and "documents" in pane.index_label.text()
    assert list((private_index / "sources").glob("*.sqlite"))

    _search(qtbot, pane, "lisbon")
    model = pane.model
    assert pane.summary.text().startswith("9 matches")
    groups = [model.index(r, 0) for r in range(model.rowCount())]
    agents = [g for g in groups if isinstance(g.data(RecordRole), ThreadHits)]
    assert len(agents) == 2
    assert len(groups) == 3 and "Documents" in groups[2].data()  # the users' MEMORY.md on the Memory shelf (#33)
    assert isinstance(agents[0].data(RecordRole), ThreadHits)
    assert agents[0].data().startswith("Flight research — 1 match in 1 session")
    sessions = [model.index(r, 0, agents[1]) for r in range(model.rowCount(agents[1]))]
    assert len(sessions) == 2
    hit_index = model.index(0, 0, sessions[0])
    hit = hit_index.data(RecordRole)
    assert isinstance(hit, SourceHit) and "Lisbon" in hit_index.data()
    assert hit.kind in model.index(0, 1, sessions[0]).data()  # the record type beside its role

    calls = _navigations(pane)
    _enter_on(qtbot, pane, hit_index)
    assert calls == [("history", (agents[1].data(RecordRole).thread_id, hit.ref.session_id, int(hit.message_id)))]
    assert window.detail.isVisible()
    assert snapshot_tree(demo_store) == before


def test_enter_in_query_box_selects_the_first_match(qtbot, window, demo_store):
    pane = _open_search(qtbot, window, demo_store)
    pane.query_box.setFocus()
    pane.query_box.setText("gmail")
    pane.last_results = None
    qtbot.keyClick(pane.query_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.tree.hasFocus() and pane.tree.currentIndex().isValid(), timeout=5000)
    assert isinstance(pane.tree.currentIndex().data(RecordRole), SourceHit)


def test_daycares_filters_come_back_as_facets(qtbot, window, demo_store):
    pane = _open_search(qtbot, window, demo_store)
    qtbot.waitUntil(lambda: len(pane.facet_boxes) == 4, timeout=5000)
    assert list(pane.facet_boxes) == ["agent_kind", "lifecycle", "user", "record_type"]
    kind = pane.facet_boxes["agent_kind"]
    kind.setCurrentIndex(kind.findData("subagent"))
    _search(qtbot, pane, "lisbon")
    subagents = _agents(demo_store, "type = 'subagent'")
    assert pane.last_results.groups and {g.thread_id for g in pane.last_results.groups} <= subagents
    kind.setCurrentIndex(0)
    types = pane.facet_boxes["record_type"]
    types.setCurrentIndex(types.findData("tool_result"))
    _search(qtbot, pane, "lisbon")
    assert pane.last_results.hits and {h.kind for h in pane.last_results.hits} == {"tool_result"}
    types.setCurrentIndex(0)
    users = pane.facet_boxes["user"]
    assert users.count() > 1 and users.itemText(1) != users.itemData(1)  # the user's name; the filter uses the id
    users.setCurrentIndex(1)
    _search(qtbot, pane, "the")
    owned = _agents(demo_store, f"user_id = '{users.itemData(1)}'")
    assert {g.thread_id for g in pane.last_results.groups} <= owned
    for text in ('"unterminated', "AND OR"):
        _search(qtbot, pane, text)
        assert "failed" not in pane.summary.text()


def test_a_skill_matched_opens_at_the_skill(qtbot, window, demo_store):
    pane = _open_search(qtbot, window, demo_store)
    _search(qtbot, pane, "migration")
    assert "document" in pane.summary.text()
    model = pane.model
    documents = model.index(model.rowCount() - 1, 0)
    assert documents.data().startswith("Documents — ")
    skills = next(model.index(r, 0, documents) for r in range(model.rowCount(documents))
                  if model.index(r, 0, documents).data().startswith("Skills"))
    hit_index = model.index(0, 0, skills)
    hit = hit_index.data(RecordRole)
    assert isinstance(hit, DocumentHit) and "SKILL.md" in hit.where
    assert "SKILL.md" in model.index(0, 1, skills).data()  # where it lives, in its own column
    calls = _navigations(pane)
    _enter_on(qtbot, pane, hit_index)
    qtbot.waitUntil(lambda: bool(calls), timeout=5000)
    section, target = calls[0]
    assert section == "skills" and "sql-migration-helper" in target


def test_a_legacy_store_is_searched_too_and_a_match_opens_its_session(qtbot, window, fixture_copy):
    """Daycare's own page said a store without a database had nothing to search: its history.jsonl files are."""
    store = fixture_copy("daycare-808af509", with_db=False)
    pane = _open_search(qtbot, window, store)
    _search(qtbot, pane, "booted")
    hit = next(h for h in pane.last_results.hits if h.ref.session_id == "agentusr1#2")
    assert hit.message_id == "5" and hit.kind == "note"
    index = next(i for i in _leaves(pane.model) if pane.model.item(i) == hit)
    calls = _navigations(pane)
    _enter_on(qtbot, pane, index)
    assert calls == [("history", ("legacy", "agentusr1", 1))]  # its second legacy session


def test_snippet_html_escapes_stored_text():
    html = snippet_html("<script>x</script> \ue000café\ue001 & \ue000more")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>café</b>" in html and html.endswith("<b>more</b>") and "&amp;" in html


def test_ctrl_shift_f_then_typing_and_enter_keeps_the_selection(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5000)
    window.nav.setFocus()  # where the user was: browsing sections with the keyboard
    qtbot.waitUntil(window.nav.hasFocus, timeout=5000)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    pane = window.panes["search"]
    assert window.pane_stack.currentWidget() is pane
    qtbot.waitUntil(pane.query_box.hasFocus, timeout=5000)  # type right away: the cursor is in the query box
    qtbot.waitUntil(lambda: _built(pane), timeout=10000)

    searches = []
    submit = pane.ctx.worker.submit
    channel_name = pane.search_channel
    pane.ctx.worker.submit = lambda channel, *a, **k: (channel == channel_name and searches.append(channel),
                                                        submit(channel, *a, **k))[1]
    pane.last_results = None
    qtbot.keyClicks(pane.query_box, "lisbon")
    qtbot.keyClick(pane.query_box, Qt.Key.Key_Return)  # well within the 400 ms typing delay
    qtbot.waitUntil(lambda: pane.tree.hasFocus() and pane.tree.currentIndex().isValid(), timeout=5000)
    first = pane.model.item(pane.tree.currentIndex())
    assert isinstance(first, SourceHit)
    qtbot.keyClick(pane.tree, Qt.Key.Key_Down)  # the user moves on to the next match
    chosen = result_key(pane.model.item(pane.tree.currentIndex()))
    assert chosen is not None and chosen != result_key(first)
    # the search typed-ahead for "lisbon" must not run again a moment later and reset the tree
    with qtbot.assertNotEmitted(pane.query_box.changed, wait=600):
        pass
    assert searches == [channel_name]
    assert result_key(pane.model.item(pane.tree.currentIndex())) == chosen and pane.tree.hasFocus()


def test_fresh_results_for_the_same_query_keep_the_cursor(qtbot, window, demo_store):
    pane = _open_search(qtbot, window, demo_store)
    _search(qtbot, pane, "lisbon")
    agent = pane.model.index(1, 0)
    hit = pane.model.index(1, 0, pane.model.index(0, 0, agent))
    pane.tree.setCurrentIndex(hit)
    chosen = pane.model.item(hit)
    _search(qtbot, pane, "lisbon")  # what a growing index does while it is built
    assert pane.model.item(pane.tree.currentIndex()) == chosen


# -- a PostgreSQL demo ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pg_demo():
    from daycare_gui.stores.daycare.pg.demo import write_pg_demo
    from tests.pg_helpers import PgServer

    pg = PgServer()
    try:
        write_pg_demo(pg.create_db("daycare_demo"), now_ms=1_795_000_000_000)
        yield pg.url("daycare_demo")
    finally:
        pg.stop()


def test_postgresql_demo_facets_and_a_match_open_the_conversation(qtbot, window, pg_demo):
    pane = _open_search(qtbot, window, pg_demo, timeout=30000)
    qtbot.waitUntil(lambda: "record_type" in pane.facet_boxes, timeout=10000)
    assert {"agent_kind", "lifecycle", "user", "record_type"} <= set(pane.facet_boxes)
    _search(qtbot, pane, "the")
    assert pane.last_results.hits
    types = pane.facet_boxes["record_type"]
    types.setCurrentIndex(types.findData("user_message"))
    _search(qtbot, pane, "the")
    assert pane.last_results.hits and {h.kind for h in pane.last_results.hits} == {"user_message"}
    hit_index = pane.model.index(0, 0, pane.model.index(0, 0, pane.model.index(0, 0)))
    hit = pane.model.item(hit_index)
    calls = _navigations(pane)
    _enter_on(qtbot, pane, hit_index)
    assert calls == [("conversations", MessageTarget(hit.ref, hit.message_id, hit.position))]


# -- another kind: Linggen --------------------------------------------------------------------------------

@pytest.fixture
def linggen_home(tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


def test_linggen_messages_and_documents_open_where_they_live(qtbot, window, linggen_home):
    before = snapshot_tree(linggen_home)
    pane = _open_search(qtbot, window, linggen_home)
    assert "documents" in pane.index_label.text()
    docs = pane.ctx.opened.capability(__import__("daycare_gui.stores.api", fromlist=["Documents"]).Documents)
    ref = docs.documents()[0]
    word = next(w for w in docs.read(ref).decode().split() if w.isalpha() and len(w) > 6)
    _search(qtbot, pane, word)
    hits = [pane.model.item(i) for i in _leaves(pane.model)]
    doc_hits = [h for h in hits if isinstance(h, DocumentHit)]
    assert doc_hits, word
    calls = _navigations(pane)
    _enter_on(qtbot, pane, _leaves(pane.model)[hits.index(doc_hits[0])])
    qtbot.waitUntil(lambda: bool(calls), timeout=5000)
    assert calls[0] == ("documents", doc_hits[0].key)
    assert snapshot_tree(linggen_home) == before


def _leaves(model) -> list:
    out, stack = [], [model.index(r, 0) for r in range(model.rowCount())]
    while stack:
        index = stack.pop(0)
        if model.rowCount(index):
            stack[:0] = [model.index(r, 0, index) for r in range(model.rowCount(index))]
        else:
            out.append(index)
    return out
