"""What a user sees of Linggen and AgentStack stores in the shared pages: counts that agree between the
Overview and the navigation, lists without columns that are always empty, booleans in words, a chart
title that names what it counts, and search hits a desynchronised index would get wrong."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.ui.conftest import open_and_wait, thread_rows


@pytest.fixture
def linggen_home(tmp_path):
    from daycare_gui.stores.linggen import write_demo

    return write_demo(tmp_path / "linggen")


def _overview_text(qtbot, window) -> str:
    window.show_section("overview")
    pane = window.pane("overview")
    qtbot.waitUntil(lambda: "What it holds" in pane.shown_text(), timeout=10000)
    return pane.shown_text()


def test_linggen_projects_count_alike_in_the_overview_the_navigation_and_the_list(qtbot, window, linggen_home):
    loose = linggen_home / "sessions" / "sess-1767300000-00000001"  # a flat session naming no project
    loose.mkdir(parents=True)
    (loose / "session.yaml").write_text("id: sess-1767300000-00000001\ntitle: Loose\ncreated_at: 1767300000\n")
    open_and_wait(qtbot, window, linggen_home)
    assert "\nProjects\n2\n" in _overview_text(qtbot, window)  # (a table cell per line)
    qtbot.waitUntil(lambda: "(2)" in window.nav.text_of("conversations"), timeout=5000)
    window.show_section("conversations")
    pane = window.pane("conversations")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 0, timeout=5000)
    titles = [r.values[0] for r in thread_rows(qtbot, pane)]
    # shop once, though its sessions are in both layouts; the loose session's row is no project
    assert sorted(titles) == ["Sessions without a project", "blog", "shop"]
    assert "(2)" in pane.threads.caption.text()


def test_linggen_a_project_copied_to_a_second_folder_is_listed_and_counted_once(qtbot, window, linggen_home):
    import shutil

    shop = next(f for f in (linggen_home / "projects").iterdir() if f.name.endswith("shop"))
    shutil.copytree(shop, shop.with_name(shop.name + "-copy"))  # same project.json path, same session ids
    open_and_wait(qtbot, window, linggen_home)
    assert "\nProjects\n2\n" in _overview_text(qtbot, window)
    qtbot.waitUntil(lambda: "(2)" in window.nav.text_of("conversations"), timeout=5000)
    window.show_section("conversations")
    pane = window.pane("conversations")
    qtbot.waitUntil(lambda: pane.threads.model.rowCount() > 0, timeout=5000)
    threads = thread_rows(qtbot, pane)
    assert sorted(t.values[0] for t in threads) == ["blog", "shop"] and "(2)" in pane.threads.caption.text()
    listed = next(t for t in threads if t.values[0] == "shop")
    assert listed.values[pane.threads.columns_titles.index("Sessions")] == 11  # three sessions in each folder, and the five flat ones
    assert f"stored in 2 folders: {shop.name}, {shop.name}-copy" in listed.problem


def test_linggen_sessions_show_no_status_column_that_would_always_be_empty(qtbot, window, linggen_home):
    open_and_wait(qtbot, window, linggen_home)
    window.show_section("conversations")
    pane = window.pane("conversations")
    qtbot.waitUntil(lambda: pane.sessions.records.model.rowCount() > 0, timeout=10000)
    model = pane.sessions.records.model
    headers = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    assert headers == ["Session", "Messages", "Started"]  # Linggen keeps no state per session


@pytest.fixture
def agentstack_db(tmp_path):
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.plugin("on-plugin", enabled=1)
    b.plugin("off-plugin", enabled=0)
    for key, text in (("deploy", "Deploy to staging first."), ("style", "Small modules and type hints."),
                      ("tests", "Run the tests before every deploy.")):
        b.memory(key, text)
    b.session("active")
    return b


def _collection(qtbot, window, path, section):
    open_and_wait(qtbot, window, path)
    qtbot.waitUntil(lambda: section in window._sections, timeout=10000)
    window.show_section(section)
    pane = window.panes[section]
    qtbot.waitUntil(lambda: pane.loaded > 0, timeout=5000)
    return pane


def test_agentstack_plugins_say_yes_or_no_as_the_rest_of_the_window(qtbot, window, agentstack_db):
    pane = _collection(qtbot, window, agentstack_db.close(), "collection:plugins")
    column = pane.spec.columns.index("Enabled")
    shown = {pane.tree.topLevelItem(i).text(0): pane.tree.topLevelItem(i).text(column)
             for i in range(pane.tree.topLevelItemCount())}
    assert shown == {"on-plugin": "yes", "off-plugin": "no"}


def test_agentstack_overview_chart_says_what_it_counts(qtbot, window, agentstack_db):
    open_and_wait(qtbot, window, agentstack_db.close())
    _overview_text(qtbot, window)
    chart = window.pane("overview").activity_chart
    qtbot.waitUntil(lambda: not chart.is_empty(), timeout=5000)
    assert "conversation" not in chart.title.lower()  # AgentStack keeps no conversations
    assert chart.title == "Activity: sessions, tasks and memory changes per day"


def test_linggen_overview_chart_counts_messages(qtbot, window, linggen_home):
    open_and_wait(qtbot, window, linggen_home)
    _overview_text(qtbot, window)
    chart = window.pane("overview").activity_chart
    qtbot.waitUntil(lambda: not chart.is_empty(), timeout=5000)
    assert chart.title == "Activity: messages per day"
    assert " messages over " in chart.toolTip()


def test_agentstack_search_warns_above_the_hits_when_the_index_is_out_of_step(qtbot, window, agentstack_db):
    b = agentstack_db
    b.sql("DROP TRIGGER memory_au")  # a tool without the triggers changed a row behind the index
    b.sql("UPDATE memory SET content = 'completely different words' WHERE key = 'tests'")
    pane = _collection(qtbot, window, b.close(), "collection:memory")
    assert not pane.search_warning.isVisibleTo(pane)
    pane.search("deploy")
    qtbot.waitUntil(lambda: pane.query == "deploy", timeout=5000)
    keys = [pane.tree.topLevelItem(i).text(0) for i in range(pane.tree.topLevelItemCount())]
    assert keys == ["deploy"]  # "tests" is no longer about deploying: its stale hit is not shown
    assert pane.search_warning.isVisibleTo(pane)
    assert "out of step" in pane.search_warning.text() and "rebuild" in pane.search_warning.text()
    assert "1 hit for “deploy”" in pane.summary.text()
    pane.search("")  # back to the whole list: the warning was about those hits only
    qtbot.waitUntil(lambda: pane.query == "" and pane.loaded > 0, timeout=5000)
    assert not pane.search_warning.isVisibleTo(pane)
