"""Daycare's Memory and Settings sections on the shared documents page (one shelf each), on the SQLite
demo: memory entities with their records and the INDEX.md flag, settings.json and auth.json as masked
outlines (which fields are set, never a value), a setting edited through the store's validated splice.
(The PGlite data directory's documents: test_daycare_data_dir_window.py.)"""

from __future__ import annotations

import json
import shutil

from PySide6.QtWidgets import QDialog

from daycare_gui.ui.models.roles import StateRole
from tests.ui.test_overview_storage import _auth_secrets, _detail_texts, _widget_texts
from tests.ui.test_people_panes import open_at, texts


def memory_shelf_size(store) -> int:
    """The Memory shelf: the memory plugin's three entities and each user's home/knowledge/MEMORY.md."""
    return 3 + len(list(store.glob("users/*/home/knowledge/MEMORY.md")))


def _shelf(qtbot, window, store, section, n):
    pane = open_at(qtbot, window, store, section)
    assert pane.__module__.endswith("generic.documents")
    qtbot.waitUntil(lambda: pane.list.records.proxy.rowCount() == n, timeout=10000)
    return pane


def _open(qtbot, pane, title):
    doc = next(d for d in pane.list.records.model.records() if d.title == title)
    pane.list.select_key(doc.id)
    qtbot.waitUntil(lambda: pane.ref is not None and pane.ref.id == doc.id and pane.opened is not None, timeout=10000)
    return doc


def _outline_items(pane):
    tree = pane.outline.tree
    stack, out = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())], []
    while stack:
        item = stack.pop()
        out.append(item)
        stack += [item.child(i) for i in range(item.childCount())]
    return out


def test_memory_shows_records_and_flags_what_index_md_leaves_out(qtbot, window, demo_store, tmp_path, model_tester):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    index = store / "plugins" / "memory" / "INDEX.md"
    index.write_text(index.read_text().replace("- incidents\n", ""))
    pane = _shelf(qtbot, window, store, "memory", memory_shelf_size(store))
    model_tester(pane.list.records.model, pane.list.records.proxy)
    proxy = pane.list.records.proxy
    titles = texts(proxy, 0)
    flagged = titles.index("Deployment Incidents")
    assert texts(proxy, 4)[flagged] == "not in INDEX.md" and proxy.index(flagged, 0).data(StateRole) == "ignored"
    assert [t for t, n in zip(titles, texts(proxy, 4)) if n] == ["Deployment Incidents"]
    assert "1 flagged" in pane.list.caption.text()
    _open(qtbot, pane, "Deployment Incidents")
    shown = pane.preview.toPlainText()
    assert "incident-2026-02-01" in shown and "Rollback required" in shown
    records = [v for k, v in window.detail.item.fields if k == "Record"]
    assert records == ["incident-2026-02-01", "incident-2026-02-27"]
    assert dict(window.detail.item.fields)["INDEX.md"] == "not listed (ignored)"
    assert window.nav.text_of("memory").endswith(f"({memory_shelf_size(store)})")


def test_memory_fields_are_edited_in_a_form_and_spliced(qtbot, window, demo_store, tmp_path, monkeypatch):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    path = store / "plugins" / "memory" / "people.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    before = path.read_bytes()
    pane = _shelf(qtbot, window, store, "memory", memory_shelf_size(store))
    _open(qtbot, pane, "People")
    assert pane.fields_button.isEnabled()
    old = dict((f.name, v) for f, v in pane.opened.fields)["description"]

    from daycare_gui.ui.panes.generic import edit_form

    def exec_(dialog):  # what a user typing in the form's Description box gives
        dialog._getters = {**dialog._getters, "description": lambda: "Who is who at home"}
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(edit_form.EditDialog, "exec", exec_)
    pane.fields_button.click()
    qtbot.waitUntil(lambda: path.read_bytes() != before, timeout=10000)
    assert path.read_bytes() == before.replace(old.encode(), b"Who is who at home")


def test_settings_and_auth_show_which_fields_are_set_but_no_secret(qtbot, window, demo_store, tmp_path):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    settings = json.loads((store / "settings.json").read_text())
    settings["proxy"] = "http://alex:hunter2-PASSWORD@proxy.local:3128"  # kept by Daycare as an unknown key
    (store / "settings.json").write_text(json.dumps(settings, indent=2))
    secrets = _auth_secrets(store)
    assert len(secrets) >= 5
    pane = _shelf(qtbot, window, store, "settings", 2)
    assert pane.list.caption.text().startswith("<b>Settings and auth</b>")  # as the navigation names the page
    seen = []
    _open(qtbot, pane, "auth.json")
    assert pane.stack.currentWidget() is pane.outline and not pane.edit_button.isEnabled()
    providers = [pane.outline.tree.topLevelItem(i).text(0) for i in range(pane.outline.tree.topLevelItemCount())]
    assert providers == ["anthropic", "openai", "openrouter", "github-copilot", "telegram"]
    kinds = {p: pane.outline.tree.topLevelItem(i).text(1) for i, p in enumerate(providers)}
    assert kinds["github-copilot"] == "oauth" and kinds["anthropic"] == "apiKey"
    copilot = pane.outline.tree.topLevelItem(providers.index("github-copilot"))
    fields = {copilot.child(i).text(0): copilot.child(i).text(1) for i in range(copilot.childCount())}
    assert fields["accessToken"] == "set (hidden)"
    for item in _outline_items(pane):
        pane.outline.tree.setCurrentItem(item)
        seen.append(_detail_texts(qtbot, window.detail))
    seen.append(_widget_texts(pane))

    _open(qtbot, pane, "settings.json")
    for item in _outline_items(pane):
        pane.outline.tree.setCurrentItem(item)
        seen.append(f"{item.text(0)}={item.text(1)}\n" + _detail_texts(qtbot, window.detail))
    seen.append(_widget_texts(pane))
    everything = "\n".join(seen)
    assert "socketPath" in everything and "refreshToken" in everything
    assert "proxy=http://alex:••••••••@proxy.local:3128" in everything
    assert "PASSWORD" not in everything
    for secret in secrets:
        assert secret not in everything, "a secret from auth.json is visible"

    pane.outline.filter_box.setText("socketPath")
    tree = pane.outline.tree
    qtbot.waitUntil(lambda: tree.topLevelItem(0).isHidden(), timeout=5000)
    visible = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())
               if not tree.topLevelItem(i).isHidden()]
    assert visible == ["engine"]


def test_a_setting_is_edited_as_one_validated_value(qtbot, window, demo_store, tmp_path, monkeypatch):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    path = store / "settings.json"
    before = path.read_bytes()
    pane = _shelf(qtbot, window, store, "settings", 2)
    _open(qtbot, pane, "settings.json")
    item = next(i for i in _outline_items(pane) if i.text(0) == "maxEntries")
    pane.outline.tree.setCurrentItem(item)
    assert pane.value_button.isVisible() and pane.value_button.isEnabled()
    secret = next(i for i in _outline_items(pane) if "••" in i.text(1))
    pane.outline.tree.setCurrentItem(secret)
    assert not pane.value_button.isEnabled()  # a masked value is never put in a form
    pane.outline.tree.setCurrentItem(item)

    from daycare_gui.ui.panes.generic import edit_form

    def exec_(dialog):
        dialog._getters = {"memory.maxEntries": lambda: 600}
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(edit_form.EditDialog, "exec", exec_)
    pane.value_button.click()
    qtbot.waitUntil(lambda: path.read_bytes() != before, timeout=10000)
    assert path.read_bytes() == before.replace(b'"maxEntries": 500', b'"maxEntries": 600')


def test_a_broken_auth_json_is_said_to_be_unreadable_not_empty(qtbot, window, demo_store, tmp_path):
    """A ':' missing from auth.json: the page said "auth.json: 0 providers — none", as if it were empty."""
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    auth = store / "auth.json"
    auth.write_text(auth.read_text().replace(":", "", 1))
    pane = _shelf(qtbot, window, store, "settings", 2)
    _open(qtbot, pane, "auth.json")
    items = _outline_items(pane)
    assert len(items) == 1 and "not valid JSON" in items[0].text(1)


# -- Skills ---------------------------------------------------------------------------------------------


def test_skills_show_source_and_body(qtbot, window, demo_store, model_tester):
    pane = _shelf(qtbot, window, demo_store, "skills", 5)
    model_tester(pane.list.records.model, pane.list.records.proxy)
    sources = texts(pane.list.records.proxy, 1)
    assert "config" in sources and any(s.startswith("user ") for s in sources)
    skill = next(d for d in pane.list.records.model.records() if d.source == "config")
    _open(qtbot, pane, skill.title)
    assert dict(window.detail.item.fields)["Source"].startswith("config")
    shown = pane.preview.toPlainText()
    assert shown.strip() and "name:" not in shown  # frontmatter is not rendered as Markdown
    assert dict((f.name, v) for f, v in pane.opened.fields)["name"] == skill.title


def _answer_form(monkeypatch, values: dict, answers: list | None = None):
    """What a user types in the form the next button opens (EditDialog): ``values`` by field name."""
    from daycare_gui.ui.panes.generic import edit_form

    def exec_(dialog):
        dialog._getters = {**dialog._getters, **{k: (lambda v=v: v) for k, v in values.items()}}
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(edit_form.EditDialog, "exec", exec_)


def _fresh(qtbot, window, section, old, rows):
    def rebuilt() -> bool:  # the refresh reopens the store; the section's page is made again when shown
        if window.store is not None and window.panes.get(section) is None:
            window.show_section(section)
        return window.panes.get(section) is not None and window.panes[section] is not old

    qtbot.waitUntil(rebuilt, timeout=10000)
    pane = window.panes[section]
    qtbot.waitUntil(lambda: pane.list.records.proxy.rowCount() == rows, timeout=10000)
    return pane


def test_a_new_skill_comes_from_the_template_and_delete_moves_it_to_the_trash(qtbot, window, demo_store, tmp_path,
                                                                                monkeypatch):
    from tests.conftest import snapshot_tree

    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    pane = _shelf(qtbot, window, store, "skills", 5)
    assert pane.new_button.isVisible() and pane.new_button.text() == "New skill…"
    before = snapshot_tree(store)
    _answer_form(monkeypatch, {"name": "Plant care", "description": "How to water plants"})
    pane.new_button.click()
    pane = _fresh(qtbot, window, "skills", pane, 6)
    after = snapshot_tree(store)
    assert {k: v for k, v in after.items() if k not in before} == {
        "skills/plant-care/SKILL.md": b"---\nname: Plant care\ndescription: How to water plants\n---\n"
                                      b"Describe when and how to use this skill.\n"}
    assert {k: v for k, v in after.items() if k in before} == before

    _open(qtbot, pane, "Plant care")
    assert pane.delete_button.isEnabled()
    monkeypatch.setattr(type(pane), "confirm_delete", lambda self, ref: True)
    pane.delete_button.click()
    pane = _fresh(qtbot, window, "skills", pane, 5)
    assert not (store / "skills" / "plant-care").exists()
    assert any(k.startswith(".daycare-gui-trash/") and k.endswith("SKILL.md") for k in snapshot_tree(store))


def test_new_and_delete_ask_while_the_engine_runs_and_write_nothing_when_declined(qtbot, window, demo_store,
                                                                                    tmp_path, monkeypatch):
    import os

    from PySide6.QtWidgets import QMessageBox

    from tests.conftest import snapshot_tree

    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    (store / "engine.pid").write_text(f"{os.getpid()}\n")
    asked = []
    answers = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes]
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: asked.append(a[2]) or answers.pop(0))
    pane = _shelf(qtbot, window, store, "skills", 5)
    before = snapshot_tree(store)
    _answer_form(monkeypatch, {"name": "gardening", "description": "Keeps the garden"})
    pane.new_button.click()  # refused, asked, declined: nothing written
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=10000)
    assert "engine is running" in asked[0] and snapshot_tree(store) == before
    pane.new_button.click()  # asked again, and this time the user insists
    pane = _fresh(qtbot, window, "skills", pane, 6)
    assert "engine is running" in asked[1]
    assert (store / "skills" / "gardening" / "SKILL.md").is_file()
