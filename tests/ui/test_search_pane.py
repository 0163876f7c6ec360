"""The Search pane on the demo store: it indexes (into a private cache dir), finds a demo word, groups the
matches by agent and session with highlighted snippets, and Enter on a match opens the history there."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from daycare_gui.core.search.query import AgentGroup, Hit, SessionGroup
from daycare_gui.ui.models.roles import RecordRole
from daycare_gui.ui.panes.search_results import result_key, snippet_html
from tests.conftest import snapshot_tree
from tests.ui.conftest import open_and_wait


@pytest.fixture(autouse=True)
def private_index(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))
    return tmp_path / "index"


def _open_search(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.actions_.actions["search"].trigger()  # View → Search Histories (Ctrl+Shift+F)
    pane = window.panes["search"]
    assert window.pane_stack.currentWidget() is pane
    # built: the label counts the records and Update index is offered again
    qtbot.waitUntil(lambda: "records" in pane.index_label.text() and pane.build_button.isEnabled(), timeout=10000)
    return pane


def _search(qtbot, pane, text):
    pane.last_results = None
    pane.query_box.setText(text)
    # searched now, as Enter does: else the box's own search 400 ms after typing can land after the results
    # (on a loaded machine) and put "Searching…" back while the test reads them
    pane.query_box.cancel_pending()
    pane.run_search()
    qtbot.waitUntil(lambda: pane.last_results is not None and pane.last_results.query == text, timeout=5000)


def test_search_groups_matches_and_opens_the_record(qtbot, window, demo_store, private_index, model_tester):
    before = snapshot_tree(demo_store)
    pane = _open_search(qtbot, window, demo_store)
    model_tester(pane.model)  # through the searches below
    assert "172 records" in pane.index_label.text()
    assert list(private_index.glob("*.sqlite"))

    _search(qtbot, pane, "lisbon")
    model = pane.model
    assert pane.summary.text().startswith("9 matches")
    agents = [model.index(r, 0) for r in range(model.rowCount())]
    assert len(agents) == 2
    assert isinstance(agents[0].data(RecordRole), AgentGroup)
    assert agents[0].data().startswith("Flight research — 1 match in 1 session")
    sessions = [model.index(r, 0, agents[1]) for r in range(model.rowCount(agents[1]))]
    assert len(sessions) == 2 and all(isinstance(s.data(RecordRole), SessionGroup) for s in sessions)
    hit_index = model.index(0, 0, sessions[0])
    hit = hit_index.data(RecordRole)
    assert isinstance(hit, Hit) and "Lisbon" in hit_index.data()
    assert model.index(0, 1, sessions[0]).data() == hit.type

    calls = []
    pane.ctx.navigate = lambda section, target: calls.append((section, target))
    pane.tree.setFocus()
    pane.tree.setCurrentIndex(hit_index)
    qtbot.keyClick(pane.tree, Qt.Key.Key_Return)
    assert calls == [("history", (agents[1].data(RecordRole).agent_id, hit.session_id, hit.record_id))]
    assert window.detail.isVisible()
    assert snapshot_tree(demo_store) == before


def test_enter_in_query_box_selects_the_first_match(qtbot, window, demo_store):
    pane = _open_search(qtbot, window, demo_store)
    pane.query_box.setFocus()
    pane.query_box.setText("gmail")
    pane.last_results = None
    qtbot.keyClick(pane.query_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: pane.tree.hasFocus() and pane.tree.currentIndex().isValid(), timeout=5000)
    assert isinstance(pane.tree.currentIndex().data(RecordRole), Hit)


def test_filters_and_bad_syntax(qtbot, window, demo_store):
    pane = _open_search(qtbot, window, demo_store)
    pane.kind_box.setCurrentIndex(pane.kind_box.findData("subagent"))
    _search(qtbot, pane, "lisbon")
    assert [g.kind for g in pane.last_results.groups] == ["subagent"]
    pane.kind_box.setCurrentIndex(0)
    pane.type_box.setCurrentIndex(pane.type_box.findData("tool_result"))
    _search(qtbot, pane, "lisbon")
    assert {h.type for h in pane.last_results.hits} == {"tool_result"}
    for text in ('"unterminated', "AND OR"):
        _search(qtbot, pane, text)
        assert "failed" not in pane.summary.text()


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
    qtbot.waitUntil(lambda: "records" in pane.index_label.text() and pane.build_button.isEnabled(), timeout=10000)

    searches = []
    submit = pane.ctx.worker.submit
    pane.ctx.worker.submit = lambda channel, *a, **k: (channel == "search" and searches.append(channel),
                                                        submit(channel, *a, **k))[1]
    pane.last_results = None
    qtbot.keyClicks(pane.query_box, "lisbon")
    qtbot.keyClick(pane.query_box, Qt.Key.Key_Return)  # well within the 400 ms typing delay
    qtbot.waitUntil(lambda: pane.tree.hasFocus() and pane.tree.currentIndex().isValid(), timeout=5000)
    first = pane.model.item(pane.tree.currentIndex())
    assert isinstance(first, Hit)
    qtbot.keyClick(pane.tree, Qt.Key.Key_Down)  # the user moves on to the next match
    chosen = result_key(pane.model.item(pane.tree.currentIndex()))
    assert chosen is not None and chosen != result_key(first)
    # the search typed-ahead for "lisbon" must not run again a moment later and reset the tree
    with qtbot.assertNotEmitted(pane.query_box.changed, wait=600):
        pass
    assert searches == ["search"]
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
