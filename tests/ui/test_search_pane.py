"""The Search pane on the demo store: it indexes (into a private cache dir), finds a demo word, groups the
matches by agent and session with highlighted snippets, and Enter on a match opens the history there."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QAbstractItemModelTester

from daycare_gui.core.search.query import AgentGroup, Hit, SessionGroup
from daycare_gui.ui.models.roles import RecordRole
from daycare_gui.ui.panes.search_results import snippet_html
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
    qtbot.waitUntil(lambda: "records" in pane.index_label.text() and not pane._building, timeout=10000)
    return pane


def _search(qtbot, pane, text):
    pane.last_results = None
    pane.query_box.setText(text)
    pane.run_search()
    qtbot.waitUntil(lambda: pane.last_results is not None and pane.last_results.query == text, timeout=5000)


def test_search_groups_matches_and_opens_the_record(qtbot, window, demo_store, private_index):
    before = snapshot_tree(demo_store)
    pane = _open_search(qtbot, window, demo_store)
    QAbstractItemModelTester(pane.model, QAbstractItemModelTester.FailureReportingMode.Fatal)
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
