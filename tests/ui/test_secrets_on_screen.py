"""Secrets stay hidden on screen, not only in exports: a key pasted into a chat, a token a tool echoed,
a password in a URL are masked wherever the window shows stored text (conversations of every kind, the
record list, search snippets, the details dock and its raw JSON, collection and table cells)."""

from __future__ import annotations

import json

from daycare_gui.stores.common.fts import MARK_CLOSE, MARK_OPEN
from daycare_gui.stores.daycare.records.history import history_record_from
from daycare_gui.stores.records import Message, ToolResultRecord
from daycare_gui.ui.context import DetailItem

KEY = "sk-ant-api03-QAsecretQAsecretQAsecret0123"
TOKEN = "ghp_QAsecretQAsecretQAsecret0123456789"
URL = "postgresql://bob:hunter2pass@db.example.com/x"
TEXT = f"my key is {KEY}, github {TOKEN} and db {URL}"
SECRETS = (KEY, TOKEN, "hunter2pass")


def _hidden(text: str) -> bool:
    return not any(s in text for s in SECRETS) and "••••" in text


def test_daycare_conversation_masks_message_text_and_tool_output(qapp):
    from PySide6.QtGui import QPalette

    from daycare_gui.stores.daycare.history_messages import message_of
    from daycare_gui.ui.widgets.message_view import messages_html

    said = history_record_from("user_message", 1_700_000_000_000, {"text": TEXT}, id=1, session_id="s")
    note = history_record_from("note", 1_700_000_000_001, {"text": TEXT}, id=2, session_id="s")
    html = messages_html([message_of(said), message_of(note)], QPalette())
    assert _hidden(html) and "my key is" in html


def test_shared_conversation_view_masks_text_results_and_problems(qapp):
    from PySide6.QtGui import QPalette

    from daycare_gui.ui.widgets.message_view import messages_html

    messages = [Message("1", "user", text=TEXT),
                Message("2", "tool", tool_result=ToolResultRecord("c", "shell", TEXT)),
                Message("3", "note", problem=f"line not JSON: {TEXT}")]
    html = messages_html(messages, QPalette())
    assert _hidden(html) and html.count("my key is") == 3


def test_a_record_no_reader_knows_shows_what_it_holds_masked(qapp):
    """A newer Daycare's record type (unknown here) shows its record as stored under its problem, secrets
    masked: what it holds is on screen, not only why it could not be read. A record that reads shows its
    text alone."""
    from PySide6.QtGui import QPalette

    from daycare_gui.stores.daycare.history_messages import message_of
    from daycare_gui.ui.widgets.message_view import messages_html

    digest = history_record_from("memory_digest", 1_700_000_000_000,
                                 {"summary": "Sam is vegetarian", "apiKey": KEY, "note": TEXT}, id=1, session_id="s")
    said = history_record_from("user_message", 1_700_000_000_001, {"text": "hello", "marker": "not repeated"},
                               id=2, session_id="s")
    html = messages_html([message_of(digest), message_of(said)], QPalette())
    assert "unknown record type" in html and "The record as stored" in html and "Sam is vegetarian" in html
    assert _hidden(html) and "not repeated" not in html and html.count("The record as stored") == 1


def test_record_list_search_snippets_and_cells_mask_what_they_show(qapp):
    from daycare_gui.ui.panes.generic.collection import _text as collection_cell
    from daycare_gui.ui.panes.generic.storage import shown_value as table_cell
    from daycare_gui.ui.widgets.history_rows import HistoryRowDelegate
    from daycare_gui.ui.widgets.snippet import snippet_html, snippet_plain

    rec = Message("1", "user", TEXT, at=1_700_000_000_000, kind="user_message")
    _when, summary = HistoryRowDelegate()._text(1, rec, str)
    assert _hidden(summary)
    snippet = f"my {MARK_OPEN}key{MARK_CLOSE} is {KEY}, github {TOKEN} and db {URL}"
    assert _hidden(snippet_html(snippet)) and _hidden(snippet_plain(snippet))
    assert _hidden(collection_cell(TEXT)) and _hidden(table_cell(TEXT))
    # a snippet cut before the URL's host still hides its password; a port at a cut is left alone
    cut = snippet_plain(f"db {MARK_OPEN}postgresql{MARK_CLOSE}://bob:hunter2pass…")
    assert "hunter2pass" not in cut and cut.startswith("db postgresql://bob:••••")
    assert snippet_plain("see http://example.com:8080…") == "see http://example.com:8080…"


def test_details_dock_masks_fields_and_raw_json_shown_and_copied(qtbot):
    from PySide6.QtGui import QGuiApplication

    from daycare_gui.ui.widgets.detail_pane import DetailPane

    pane = DetailPane()
    qtbot.addWidget(pane)
    stored = json.dumps({"text": TEXT, "note": {"deep": [TOKEN]}})
    pane.show_item(DetailItem("Record", (("Text", TEXT),), stored, prefer_raw=True))
    pane.show()
    qtbot.waitUntil(lambda: bool(pane.raw.toPlainText()), timeout=3000)
    assert _hidden(pane.raw.toPlainText()) and '"deep"' in pane.raw.toPlainText()
    pane.copy_raw.click()
    assert _hidden(QGuiApplication.clipboard().text())
    pane.tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: pane.fields.item(0, 1) is not None, timeout=3000)
    assert _hidden(pane.fields.item(0, 1).text())
    pane.show_item(DetailItem("Row", (), {"config": {"notes": TEXT}}, prefer_raw=True))
    qtbot.waitUntil(lambda: "notes" in pane.raw.toPlainText(), timeout=3000)
    assert _hidden(pane.raw.toPlainText())


def test_agentstack_metadata_masks_tokens_under_ordinary_keys():
    from daycare_gui.stores.agentstack.values import shown_json

    shown = shown_json(json.dumps({"note": f"use {TOKEN}", "tokens": [KEY], "url": URL}))
    assert _hidden(shown) and '"note"' in shown


def test_a_snippet_whose_match_splits_a_secret_is_masked_before_it_is_drawn_bold(qapp):
    """Issue #32: the marks of a search for sk* or postgresql split the secret before the masker saw it."""
    from daycare_gui.ui.widgets.snippet import snippet_html, snippet_plain

    for snippet in (f"key {MARK_OPEN}sk{MARK_CLOSE}-ant-api03-QAsecretQAsecretQAsecret0123 ok",
                    f"db {MARK_OPEN}postgresql{MARK_CLOSE}://bob:hunter2pass@db.example.com/x",
                    f"{MARK_OPEN}ghp{MARK_CLOSE}_QAsecretQAsecretQAsecret0123456789"):
        assert _hidden(snippet_html(snippet)) and _hidden(snippet_plain(snippet))
        assert "<b>" in snippet_html(snippet)
