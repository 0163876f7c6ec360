"""Memory edited on the shared documents page as the old Memory page's editor allowed (#33): on the SQLite
demo an entity's ``## record`` sections are renamed and a record added in the form (each a splice, the rest
of the file byte for byte); on the PGlite demo a memory (a ``documents`` row under memory/) is renamed and a
new one made with New…, each as Daycare writes a versioned row."""

from __future__ import annotations

import shutil

import pytest

from tests.pg_helpers import use_test_pglite
from tests.ui.conftest import open_and_wait
from tests.ui.test_document_shelves import _answer_form, _open, _shelf, memory_shelf_size

PG_NOW = 1_795_000_000_000


def test_sqlite_memory_records_are_renamed_and_added_in_the_form(qtbot, window, demo_store, tmp_path, monkeypatch):
    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    path = store / "plugins" / "memory" / "people.md"
    before = path.read_bytes()
    pane = _shelf(qtbot, window, store, "memory", memory_shelf_size(store))
    _open(qtbot, pane, "People")
    fields = dict((f.label, v) for f, v in pane.opened.fields)
    assert fields["Record 1 title"] == "sam" and fields["New record title"] == ""
    _answer_form(monkeypatch, {"record:0:title": "Family", "record:new:title": "Neighbours",
                               "record:new:text": "- Ana next door"})
    pane.fields_button.click()
    qtbot.waitUntil(lambda: path.read_bytes() != before, timeout=10000)
    assert path.read_bytes() == before.replace(b"\n## sam\n", b"\n## Family\n") + b"\n## Neighbours\n- Ana next door\n"
    qtbot.waitUntil(lambda: "Neighbours" in pane.preview.toPlainText(), timeout=10000)


def test_sqlite_memory_record_without_a_title_is_refused(qtbot, window, demo_store, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    store = tmp_path / "daycare"
    shutil.copytree(demo_store, store)
    path = store / "plugins" / "memory" / "people.md"
    before = path.read_bytes()
    said = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: said.append(a[2]) or QMessageBox.StandardButton.Ok)
    pane = _shelf(qtbot, window, store, "memory", memory_shelf_size(store))
    _open(qtbot, pane, "People")
    _answer_form(monkeypatch, {"record:new:text": "text but no title"})
    pane.fields_button.click()
    qtbot.waitUntil(lambda: bool(said), timeout=10000)
    assert "needs a title" in said[0] and path.read_bytes() == before


@pytest.fixture(scope="module")
def pglite_demo_master(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite-memory") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=PG_NOW)
    return folder


def _titles(pane) -> dict[str, str]:
    return {d.title: d.group for d in pane.list.records.model.records()}


def test_pglite_memory_is_renamed_and_a_new_one_made(qtbot, window, pglite_demo_master, tmp_path, monkeypatch):
    use_test_pglite()
    store = tmp_path / "store"
    shutil.copytree(pglite_demo_master, store)
    open_and_wait(qtbot, window, store, timeout=60000)
    window.show_section("documents")
    pane = window.pane("documents")
    qtbot.waitUntil(lambda: _titles(pane).get("Preferences") == "memory", timeout=30000)
    _open(qtbot, pane, "Preferences")
    assert dict((f.name, v) for f, v in pane.opened.fields) == {"title": "Preferences", "description": "What Alex likes"}
    _answer_form(monkeypatch, {"title": "Travel likes"})
    pane.fields_button.click()
    qtbot.waitUntil(lambda: dict((f.name, v) for f, v in pane.opened.fields).get("title") == "Travel likes",
                    timeout=120000)

    assert pane.new_button.isVisible()
    _answer_form(monkeypatch, {"name": "Coffee order", "title": "Coffee", "body": "Flat white, no sugar"})
    pane.new_button.click()

    def listed() -> bool:  # the refresh reopens the store and makes the page again
        if window.store is not None and window.panes.get("documents") is None:
            window.show_section("documents")
        fresh = window.panes.get("documents")
        return fresh is not None and _titles(fresh).get("Coffee") == "memory"

    qtbot.waitUntil(listed, timeout=120000)
    fresh = window.panes["documents"]
    assert _titles(fresh).get("Travel likes") == "memory" and "Preferences" not in _titles(fresh)
    _open(qtbot, fresh, "Coffee")
    assert "Flat white, no sugar" in fresh.preview.toPlainText()
