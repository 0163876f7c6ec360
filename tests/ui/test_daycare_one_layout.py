"""One application for every Daycare generation (#33): the SQLite store and the PGlite store of the same demo
list the same sections under the same names and icons in the same order, each concept in the same place
(apart from sections one generation has no data for); what only today's Daycare has comes after the shared
ones; quick open, deep links, search hits and row links land in those sections; and the sections with
nothing in them fold into one "Empty" line in both windows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.sections import SECTIONS
from daycare_gui.stores.records import JumpEntry, Link, SessionRef
from daycare_gui.ui.panes.generic import link_route, route_for, section_counts, sections_for
from daycare_gui.ui.widgets.navigation import NEVER_FOLDED, NavIdRole
from tests.pg_helpers import use_test_pglite

NOW = "2026-11-18T00:00Z"
OPEN_TIMEOUT = 120_000  # PGlite's copy and start on a busy machine
SHARED_IDS = [s.id for s in SECTIONS]


@pytest.fixture(scope="module")
def demos(tmp_path_factory):
    """The same demo written by both generations (the PGlite one by PGlite itself)."""
    from daycare_gui.cli import main

    use_test_pglite()
    root = tmp_path_factory.mktemp("one-layout")
    assert main(["demo", str(root / "sqlite"), "--now", NOW, "--quiet"]) == 0
    assert main(["demo", str(root / "pglite"), "--generation", "pglite", "--now", NOW, "--quiet"]) == 0
    return root / "sqlite", root / "pglite"


def _navigation(path):
    """(id, title, icon, group) of each navigation entry in order, and each one's count."""
    use_test_pglite()
    with registry.open_store(path) as store:
        specs = sections_for(store)
        counts = section_counts(store, specs)
    return [(s.id, s.title, s.icon, s.group) for s in specs if s.in_nav], counts


def _with_data(nav, counts):
    """The entries the window shows outside the Empty line (None: not counted, as Overview and Costs)."""
    return [entry for entry in nav if entry[0] in NEVER_FOLDED or counts.get(entry[0]) != 0]


def test_both_generations_name_and_order_their_sections_alike(demos):
    sqlite_nav, sqlite_counts = _navigation(demos[0])
    pglite_nav, pglite_counts = _navigation(demos[1])
    sqlite, pglite = _with_data(sqlite_nav, sqlite_counts), _with_data(pglite_nav, pglite_counts)
    in_pglite, in_sqlite = {e[0] for e in pglite}, {e[0] for e in sqlite}
    both = [e for e in sqlite if e[0] in in_pglite]
    assert [e for e in pglite if e[0] in in_sqlite] == both  # same ids, titles, icons, in the same order
    assert [e[1] for e in both] == [
        "Overview", "Users", "Agents", "Search", "Inbox", "Cron tasks", "Automations", "Apps", "Skills", "Memory",
        "Processes", "System prompts", "Settings and auth", "Files", "Costs", "Storage", "Problems"]
    # today's store keeps none of the shared table's generic names
    ids = [e[0] for e in pglite_nav]
    assert not {"conversations", "tasks", "documents", "collection:inbox", "collection:mini_apps"} & set(ids)
    # what only today's Daycare has (webhooks: its task group) follows the shared sections, Problems last
    extra = [i for i in ids if i not in SHARED_IDS]
    assert {"collection:key_values", "collection:observation_log", "collection:versions:agents",
            "collection:files:settings"} <= set(extra)
    assert all(ids.index("storage") < ids.index(i) < ids.index("problems") for i in extra)
    assert "webhook" in ids and "heartbeat" not in ids and "expose" not in ids  # concepts it does not have
    assert "heartbeat" in {e[0] for e in sqlite_nav} and "webhook" not in {e[0] for e in sqlite_nav}
    # the sections one generation has no data for are those its demo leaves empty, and they are counted 0
    assert {e[1] for e in sqlite if e[0] not in in_pglite} == {"Heartbeat tasks", "Channels", "Signals", "Expose"}
    assert {e[1] for e in pglite if e[0] in SHARED_IDS and e[0] not in in_sqlite} == {"Webhooks",
                                                                                       "Prompt files"}


def test_counts_of_task_groups_and_shelves_do_not_list_every_item(demos, monkeypatch):
    from daycare_gui.stores.daycare.pg.activity import PgTasks
    from daycare_gui.stores.daycare.pg.documents import PgDocuments

    def listed(*_args):
        raise AssertionError("listed every item to count them")

    monkeypatch.setattr(PgTasks, "tasks", listed)
    monkeypatch.setattr(PgDocuments, "documents", listed)
    monkeypatch.setattr(PgDocuments, "_table_docs", listed)
    nav, counts = _navigation(demos[1])
    assert (counts["cron"], counts["webhook"], counts["memory"], counts["skills"]) == (3, 1, 2, 2)


def test_every_item_of_today_s_store_lands_in_one_of_its_sections(demos):
    use_test_pglite()
    with registry.open_store(demos[1]) as store:
        sections = {s.id for s in sections_for(store)}
        entries = list(store.capability(api.Directory).entries())
        assert {e.kind for e in entries} >= {"user", "agent", "session", "task", "doc", "table"}
        for entry in entries:
            section, _target = route_for(store, entry)
            assert section in sections, entry
        landed = {e.key: route_for(store, e) for e in entries}
        assert landed["u1owner/doc-prefs"] == ("memory", "u1owner/doc-prefs")
        assert landed["agent-file:ag00trip/SYSTEM.md"][0] == "agent_files"
        assert landed["config:settings.json"][0] == "settings"
        assert {landed[t.id][0] for t in store.capability(api.Tasks).tasks()} == {"cron", "webhook"}
        ref = SessionRef("ag00trip", "s1")
        hit = JumpEntry("message", "7", "a hit", ref=api_message_target(ref))
        assert route_for(store, hit) == ("history", api_message_target(ref))  # a search hit: its record
        assert route_for(store, JumpEntry("session", "s1", "", ref=ref)) == ("history", ref)
        # a row's link to another list opens the section showing that list
        assert link_route(store, Link("row", ("mini_apps", "a1"), "")) == ("apps", "a1")
        assert link_route(store, Link("row", ("files:processes", "p1"), "")) == ("processes", "p1")
        assert link_route(store, Link("row", ("users", "u1owner"), "")) == ("collection:users", "u1owner")
        assert link_route(store, Link("row", ("key_values", "k"), "")) == ("collection:key_values", "k")
        assert link_route(store, Link("session", ref, "")) == ("history", ref)
        assert link_route(store, Link("thread", "ag00trip", "")) == ("agents", "ag00trip")


def api_message_target(ref):
    from daycare_gui.ui.panes.generic.conversation_window import MessageTarget

    return MessageTarget(ref, "7", 3)


def _top_level(window) -> list[str]:
    nav = window.nav
    root = nav.nav_model.invisibleRootItem()
    return [root.child(r).text().split("  (")[0] for r in range(root.rowCount())
            if not nav.isRowHidden(r, root.index())]


def _folded(window) -> list[str]:
    empty = window.nav._empty
    return [] if empty is None else [empty.child(r).data(NavIdRole) for r in range(empty.rowCount())]


@pytest.mark.parametrize("generation", ["sqlite", "pglite"])
def test_empty_sections_fold_into_one_line_in_both_windows(qtbot, window, demos, generation):
    path = demos[0] if generation == "sqlite" else demos[1]
    use_test_pglite()
    window.open_path(str(path))
    qtbot.waitUntil(lambda: window.opened is not None and window.nav._empty is not None, timeout=OPEN_TIMEOUT)
    top = _top_level(window)
    assert top[:5] == ["Overview", "Users", "Agents", "Search", "Inbox"]  # Search shown, in the same place
    assert top[-2:] == ["Empty", "Problems"]
    if generation == "sqlite":
        assert _folded(window) == ["agent_files"]  # the demo writes no prompt files beside its agents
    else:  # the lists its demo leaves empty, and no "(0)" left among the others
        assert {"channels", "signals", "collection:model_role_rules", "collection:voice_agents"} <= set(_folded(window))
        assert not [i for i, item in window.nav._items.items()
                    if item.text().endswith("(0)") and i != "problems" and i not in _folded(window)]


@pytest.mark.parametrize("generation", ["sqlite", "pglite"])
def test_the_overview_counts_the_files_beside_the_database_in_both_generations(qtbot, window, demos, generation):
    """Both Overviews have an "Other items" box beside the tables: what Daycare keeps in files, counted (today's
    Daycare showed only its tables, as if its skills, settings and processes were not part of the store)."""
    path = demos[0] if generation == "sqlite" else demos[1]
    use_test_pglite()
    window.open_path(str(path))
    qtbot.waitUntil(lambda: window.opened is not None, timeout=OPEN_TIMEOUT)
    window.show_section("overview")
    page = window.pane("overview")
    qtbot.waitUntil(lambda: page.facts is not None, timeout=OPEN_TIMEOUT)
    other = {page.other_model.record(r).id: page.other_model.record(r).count
             for r in range(page.other_model.rowCount())}
    assert page.other_box.isVisibleTo(page) and page.other_box.title().startswith("Other items")
    assert other["files.skills"] >= 1 and other["files.settings"] == 1
    assert other["files.processes"] >= 1
    names = [page.other_model.data(page.other_model.index(r, 0)) for r in range(page.other_model.rowCount())]
    assert "Skills (files)" in names and "Settings (files)" in names  # what it counts first


def test_a_pglite_list_of_versions_is_captioned_and_headed_as_every_list(qtbot, window, demos):
    """PGlite's own lists had no caption and their columns as stored ("valid from", "updated_at"): they
    read like every other list now, the caption naming the group the list sits in."""
    use_test_pglite()
    window.open_path(str(demos[1]))
    qtbot.waitUntil(lambda: window.opened is not None and "collection:versions:tasks_cron" in window._sections,
                    timeout=OPEN_TIMEOUT)
    window.show_section("collection:versions:tasks_cron")
    pane = window.pane("collection:versions:tasks_cron")
    qtbot.waitUntil(lambda: pane.loaded > 0, timeout=OPEN_TIMEOUT)
    assert pane.caption.text() == f"<b>Versions: Tasks cron</b> ({pane.total:,})" and pane.total >= 1
    headers = [pane.tree.headerItem().text(i) for i in range(pane.tree.columnCount())]
    assert headers == ["ID", "Version", "Valid from", "Valid to", "What changed"]
    # a keyed list of PGlite's own (one list, no tabs) is captioned and headed alike
    window.show_section("collection:key_values")
    listing = window.pane("collection:key_values")
    qtbot.waitUntil(lambda: "(1)" in listing.caption.text(), timeout=OPEN_TIMEOUT)
    assert listing.caption.text() == "<b>Key/values</b> (1)"
    model = listing.table.model()
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())][:2] == ["User ID", "Key"]
