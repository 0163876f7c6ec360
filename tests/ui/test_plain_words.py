"""Issue #34: words a person reads, not a store's raw keys — the Overview's "What it holds", the Details
dock's field names, an Inbox item without text (its JSON summarised in words), a rewrite's reason."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

from daycare_gui.ui.context import DetailItem
from tests.ui.conftest import open_and_wait

RAW_KEY = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")  # sessions_per_project_layout, model_id


def test_what_it_holds_names_its_counts_in_words(qtbot, window, tmp_path):
    from daycare_gui.stores.linggen import write_demo

    open_and_wait(qtbot, window, write_demo(tmp_path / "linggen"))
    overview = window.panes["overview"]
    qtbot.waitUntil(lambda: "What it holds" in overview.shown_text(), timeout=10000)
    text = overview.shown_text()
    assert "Sessions per project layout" in text
    assert not RAW_KEY.findall(text), RAW_KEY.findall(text)


def test_details_name_a_records_fields_in_words(qtbot, window):
    # a Linggen session's fields, as its store gives them
    window.detail.show_item(DetailItem("Session", (("model_id", "gemini-flash"), ("project_name", "shop"),
                                                   ("Record id", "24"))))
    names = [window.detail.fields.item(r, 0).text() for r in range(window.detail.fields.rowCount())]
    assert names == ["Model ID", "Project name", "Record id"]


def test_an_inbox_item_without_text_is_summarised_in_words(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("inbox")
    pane = window.panes["inbox"]
    model = pane.views["inbox"].model  # (the shared list pane; its rows are read as they are shown)
    summary = next(c for c in range(model.columnCount())
                   if model.headerData(c, Qt.Orientation.Horizontal) == "Summary")
    kind = next(c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Kind")
    qtbot.waitUntil(lambda: any(model.index(r, kind).data() == "restore" for r in range(model.rowCount())),
                    timeout=5000)
    texts = [model.index(r, summary).data() for r in range(model.rowCount())]
    assert not [t for t in texts if t.startswith("{")], texts  # no raw JSON
    restore = next(model.index(r, summary).data() for r in range(model.rowCount())
                   if model.index(r, kind).data() == "restore")
    assert restore == "Restore"
