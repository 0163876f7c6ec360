"""The shared Files page: each root a lazy tree, Markdown rendered, text as text, a log from its end, on
the Daycare SQLite demo and a CianaParrot workspace (the PGlite data directory: test_daycare_data_dir_window)."""

from __future__ import annotations

import shutil

from tests.ui.test_people_panes import open_at


def _listed(qtbot, pane, index):
    qtbot.waitUntil(lambda: pane.model.is_listed(index), timeout=5000)
    return [pane.model.index(r, 0, index).data() for r in range(pane.model.rowCount(index))]


def _select(qtbot, pane, index, page):
    pane.tree.setCurrentIndex(pane.proxy.mapFromSource(index))
    qtbot.waitUntil(lambda: pane.viewer.pages.currentIndex() == page and pane.viewer.shown_text() != "Reading…",
                    timeout=5000)


def test_files_expand_home_lazily_and_show_knowledge(qtbot, window, demo_store):
    # No model tester here: it fetches every folder it can (a model's contract), which is the very
    # laziness this test checks. The next test runs the tree model under the tester.
    pane = open_at(qtbot, window, demo_store, "files")
    assert pane.__module__.endswith("generic.files")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4, timeout=5000)
    owner = next(n for n in pane.model.top_nodes() if n.label.startswith("Alex Rivera"))
    assert owner.children is None  # nothing below a home is listed before it is expanded
    home = pane.model.index_of(owner)
    assert pane.model.hasChildren(home) and pane.model.rowCount(home) == 0

    pane.open_item(owner.entry.owner)  # selects and expands the home
    names = _listed(qtbot, pane, home)
    assert names[:5] == ["desktop", "developer", "documents", "downloads", "knowledge"]
    knowledge = pane.model.child_named(home, "knowledge")
    assert pane.model.node(knowledge).children is None
    pane.tree.expand(pane.proxy.mapFromSource(knowledge))
    _listed(qtbot, pane, knowledge)
    _select(qtbot, pane, pane.model.child_named(knowledge, "SOUL.md"), pane.viewer.MARKDOWN)
    assert pane.viewer.shown_text().startswith("Soul")
    assert dict(window.detail.item.fields)["Note"].startswith("knowledge file")

    desktop = pane.model.child_named(home, "desktop")
    pane.tree.expand(pane.proxy.mapFromSource(desktop))
    _listed(qtbot, pane, desktop)
    _select(qtbot, pane, pane.model.child_named(desktop, "todo.txt"), pane.viewer.TEXT)


def test_files_tree_keeps_the_model_contract_while_folders_list(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "files")
    model_tester(pane.model, pane.proxy)  # it lists every home as soon as they arrive, and checks each insert
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4, timeout=5000)
    homes = [pane.model.index(r, 0) for r in range(4)]
    qtbot.waitUntil(lambda: all(pane.model.is_listed(h) for h in homes), timeout=5000)
    owner = next(h for h in homes if h.data().startswith("Alex Rivera"))
    for name in ("desktop", "knowledge", "documents"):  # expand a few folders, as a user would
        child = pane.model.child_named(owner, name)
        pane.tree.expand(pane.proxy.mapFromSource(child))
        qtbot.waitUntil(lambda c=child: pane.model.is_listed(c), timeout=5000)
        assert pane.model.rowCount(child) > 0
        assert all(pane.model.parent(pane.model.index(r, 0, child)) == child for r in range(pane.model.rowCount(child)))


def test_files_lists_shared_knowledge_files_of_the_data_dir_and_nothing_else_there(qtbot, window, demo_store,
                                                                                    tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    (store / "SOUL.md").write_text("# Shared soul\n")
    pane = open_at(qtbot, window, store, "files")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5, timeout=5000)
    group = pane.model.index(4, 0)
    assert group.data().startswith("Data dir knowledge files")
    pane.tree.expand(pane.proxy.mapFromSource(group))
    assert _listed(qtbot, pane, group) == ["SOUL.md"]  # not settings.json, auth.json or daycare.db beside it
    _select(qtbot, pane, pane.model.index(0, 0, group), pane.viewer.MARKDOWN)
    assert pane.viewer.shown_text().startswith("Shared soul")


def test_a_link_out_of_a_home_is_listed_as_such_and_never_read(qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    (tmp_path / "private.txt").write_text("outside-the-store-text")
    home = next(p for p in (store / "users").iterdir()) / "home"
    (home / "escape.txt").symlink_to(tmp_path / "private.txt")
    pane = open_at(qtbot, window, store, "files")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4, timeout=5000)
    root = next(pane.model.index_of(n) for n in pane.model.top_nodes() if n.entry.path == home)
    pane.tree.expand(pane.proxy.mapFromSource(root))
    _listed(qtbot, pane, root)
    escape = pane.model.child_named(root, "escape.txt")
    assert "leads out" in escape.data(0x03)  # its tooltip says so
    _select(qtbot, pane, escape, pane.viewer.NOTE)
    assert "outside-the-store-text" not in pane.viewer.shown_text()


def test_cianaparrot_workspace_is_a_files_root(qtbot, window, tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    root = write_demo(tmp_path / "ciana")
    pane = open_at(qtbot, window, root, "files")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1, timeout=10000)
    workspace = pane.model.index(0, 0)
    assert workspace.data() == "Workspace"
    pane.tree.expand(pane.proxy.mapFromSource(workspace))
    names = _listed(qtbot, pane, workspace)
    assert {"skills", "AGENT.md", "MEMORY.md"} <= set(names)
    _select(qtbot, pane, pane.model.child_named(workspace, "AGENT.md"), pane.viewer.MARKDOWN)
    assert pane.viewer.shown_text().strip()
