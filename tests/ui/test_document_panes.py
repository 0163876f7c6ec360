"""Apps, skills, memory and files pages over the demo store (and a real Daycare fixture).

(The cron and heartbeat pages are the shared tasks page: tests/ui/test_shared_task_page.py.)"""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from tests.ui.test_people_panes import open_at, texts


def column(model, title):
    """A column's index by its title (columns are ordered for reading, and that order may change)."""
    return next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == title)


def select_where(pane, column, text):
    row = texts(pane.records.proxy, column).index(text)
    pane.table.selectRow(row)
    return pane.current_record()


def test_apps_show_allow_and_deny_rules(qtbot, window, demo_store, model_tester):
    from daycare_gui.core.files.apps import parse_permissions

    pane = open_at(qtbot, window, demo_store, "apps")
    view = pane.views["apps"]
    model_tester(view.model)
    qtbot.waitUntil(lambda: view.model.rowCount() == 3 and all(view.model.record(r) for r in range(3)), timeout=5000)
    view.table.selectRow(texts(view.model, 2).index("workspace"))
    row = view.current_row()
    shown = window.detail.item.markdown
    assert "System prompt" in shown and "Allow" in shown and "Deny" in shown
    permissions, _problems = parse_permissions(Path(row.key) / "PERMISSIONS.md")
    assert permissions.allow and all(f"- {r.text}" in shown for r in permissions.allow)
    assert all(f"- {r.text}" in shown for r in permissions.deny)
    assert dict(window.detail.item.fields)["Rules"] == f"{len(permissions.allow)} allow / {len(permissions.deny)} deny"


def test_skills_show_source_and_body(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "skills")
    model_tester(pane.records.model, pane.records.proxy)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 5, timeout=5000)
    sources = texts(pane.records.proxy, 1)
    assert "config" in sources and any(s.startswith("user ") for s in sources)
    skill = select_where(pane, 1, "config")
    assert dict(window.detail.item.fields)["Source"].startswith("config")
    qtbot.waitUntil(lambda: pane.viewer.path == skill.path and pane.viewer.shown_text() != "Reading…", timeout=5000)
    assert "name:" not in pane.viewer.shown_text()  # frontmatter is not rendered as Markdown


def test_memory_shows_records_and_index_status(qtbot, window, demo_store, model_tester):
    pane = open_at(qtbot, window, demo_store, "memory")
    model_tester(pane.records.model, pane.records.proxy)
    qtbot.waitUntil(lambda: pane.records.proxy.rowCount() == 3, timeout=5000)
    assert set(texts(pane.records.proxy, 3)) == {"listed"}
    entity = select_where(pane, 0, "incidents")
    shown = pane.viewer.shown_text()
    assert entity.records and all(r.title in shown and r.body.replace("`", "") in shown for r in entity.records)
    assert [v for k, v in window.detail.item.fields if k == "Record"] == [r.title for r in entity.records]


def test_files_expand_home_lazily_and_show_knowledge(qtbot, window, demo_store):
    # No model tester here: it fetches every folder it can (a model's contract), which is the very
    # laziness this test checks. The next test runs the tree model under the tester.
    pane = open_at(qtbot, window, demo_store, "files")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4, timeout=5000)
    owner = next(n for n in pane.model.top_nodes() if n.label.startswith("Alex Rivera"))
    assert owner.children is None  # nothing below a home is listed before it is expanded
    home = pane.model.index_of(owner)
    assert pane.model.hasChildren(home) and pane.model.rowCount(home) == 0

    pane.open_item(owner.name)  # selects and expands the home
    qtbot.waitUntil(lambda: pane.model.is_listed(home), timeout=5000)
    names = [pane.model.index(r, 0, home).data() for r in range(pane.model.rowCount(home))]
    assert names[:5] == ["desktop", "developer", "documents", "downloads", "knowledge"]
    knowledge = pane.model.child_named(home, "knowledge")
    assert pane.model.node(knowledge).children is None
    pane.tree.expand(pane.proxy.mapFromSource(knowledge))
    qtbot.waitUntil(lambda: pane.model.is_listed(knowledge), timeout=5000)
    soul = pane.model.child_named(knowledge, "SOUL.md")
    pane.tree.setCurrentIndex(pane.proxy.mapFromSource(soul))
    qtbot.waitUntil(lambda: pane.viewer.path is not None and pane.viewer.path.endswith("SOUL.md")
                    and pane.viewer.pages.currentIndex() == pane.viewer.MARKDOWN, timeout=5000)
    assert pane.viewer.shown_text().startswith("Soul")
    assert dict(window.detail.item.fields)["Knowledge file"].startswith("yes")

    desktop = pane.model.child_named(home, "desktop")
    pane.tree.expand(pane.proxy.mapFromSource(desktop))
    qtbot.waitUntil(lambda: pane.model.is_listed(desktop), timeout=5000)
    todo = pane.model.child_named(desktop, "todo.txt")
    pane.tree.setCurrentIndex(pane.proxy.mapFromSource(todo))
    qtbot.waitUntil(lambda: pane.viewer.path is not None and pane.viewer.path.endswith("todo.txt")
                    and pane.viewer.pages.currentIndex() == pane.viewer.TEXT, timeout=5000)


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


def test_files_lists_shared_knowledge_files_of_the_data_dir(qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    (store / "SOUL.md").write_text("# Shared soul\n")
    pane = open_at(qtbot, window, store, "files")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5, timeout=5000)
    group = pane.model.index(4, 0)
    assert group.data().startswith("Data dir knowledge files")
    assert pane.model.rowCount(group) == 1 and pane.model.index(0, 0, group).data() == "SOUL.md"
    pane.tree.setCurrentIndex(pane.proxy.mapFromSource(pane.model.index(0, 0, group)))
    qtbot.waitUntil(lambda: pane.viewer.shown_text().startswith("Shared soul"), timeout=5000)
