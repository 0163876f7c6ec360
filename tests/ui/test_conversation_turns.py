"""What the shared conversation view says of a turn, as the old Daycare-only History pane did (#33): an
assistant message's heading names the model and the tokens of its turn, and a message Daycare rewrote
later (``assistant_rewrite``, which names the message only by its time) is shown with its rewrite — from
either side, even when the other lies outside the messages drawn. On the Daycare SQLite demo, the PGlite
demo, and CianaParrot (whose AIMessages carry their token counts)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QTextDocument

from daycare_gui.stores import api, registry
from daycare_gui.ui.panes.generic.conversation_window import conversation_window
from tests.pg_helpers import use_test_pglite

PG_NOW = 1_795_000_000_000


def _shown(qapp, window) -> str:
    """The conversation as the view shows it, as plain text."""
    doc = QTextDocument()
    if hasattr(window, "html"):
        doc.setHtml(window.html(qapp.palette()))
    else:  # the view before #33's rewrite pairing: so a failure says what is missing, not a name
        from daycare_gui.ui.widgets.message_view import messages_html

        doc.setHtml(messages_html(window.messages, qapp.palette(), focus=window.focus_id, partners=window.partners,
                                  steps=window.steps))
    return doc.toPlainText()


def _rewritten_turn(cap):
    """(session, the assistant message, its key, the rewrite, its key) of the first rewrite in the store,
    paired by hand from the stored records (``assistantAt`` is the original's ``at``)."""
    for thread in cap.threads():
        for session in cap.sessions(thread.id):
            pages = cap.page_after(session.ref, None, 10_000)
            for p in pages:
                rewrite = p.message()
                if rewrite.kind == "assistant_rewrite":
                    at = rewrite.raw["assistantAt"]
                    original = next(q for q in pages if q.message().kind == "assistant_message"
                                    and q.message().at == at)
                    return session.ref, original.message(), original.key, rewrite, p.key
    raise AssertionError("the demo holds no assistant_rewrite")


def _check_daycare(qapp, store) -> None:
    cap = store.capability(api.Conversations)
    ref, original, original_key, rewrite, rewrite_key = _rewritten_turn(cap)
    assert rewrite_key - original_key > 1  # a Python run lies between them: neither is drawn with the other

    # The original alone on the page: its heading has the model and tokens, and what it became follows.
    alone = _shown(qapp, conversation_window(cap, ref, original_key, before=0, after=0))
    tokens = original.raw["tokens"]
    assert f"· {tokens['model']} · {tokens['size']['total']:,} tokens · id {original.id}" in alone
    assert f"Rewritten later (id {rewrite.id}" in alone
    assert rewrite.raw["text"] in alone.split("Rewritten later", 1)[1]

    # The rewrite alone on the page: what it rewrote, then what it says now.
    alone = _shown(qapp, conversation_window(cap, ref, rewrite_key, before=0, after=0))
    assert f"Original (id {original.id}" in alone
    before, after = alone.split("Rewritten to:", 1)
    assert original.raw["text"] in before and rewrite.raw["text"] in after


def test_daycare_sqlite_demo_turns(qapp, demo_store):
    with registry.open_store(demo_store) as store:
        _check_daycare(qapp, store)


@pytest.fixture(scope="module")
def pglite_demo(tmp_path_factory):
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    use_test_pglite()
    folder = tmp_path_factory.mktemp("pglite-turns") / "store"
    write_pglite_demo(folder / "daycare.pglite", now_ms=PG_NOW)
    return folder


def test_daycare_pglite_demo_turns(qapp, pglite_demo):
    use_test_pglite()
    with registry.open_store(pglite_demo) as store:
        _check_daycare(qapp, store)


def test_cianaparrot_answer_says_its_tokens(qapp, tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo

    root = write_demo(tmp_path / "ciana") or tmp_path / "ciana"
    with registry.open_store(root) as store:
        cap = store.capability(api.Conversations)
        thread = cap.threads()[0]
        ref = cap.sessions(thread.id)[0].ref
        shown = _shown(qapp, conversation_window(cap, ref, None))
    answers = [line for line in shown.splitlines() if "150 tokens" in line]
    assert answers and all(line.startswith("assistant") for line in answers)


def test_the_conversation_says_when_the_session_goes_on_beyond_it(qapp, demo_store):
    """The conversation is a window on the session: it says when messages lie before or after it."""
    with registry.open_store(demo_store) as store:
        cap = store.capability(api.Conversations)
        ref, _original, original_key, _rewrite, _rewrite_key = _rewritten_turn(cap)
        middle = _shown(qapp, conversation_window(cap, ref, original_key, before=0, after=0))
        whole = _shown(qapp, conversation_window(cap, ref, original_key))
    assert "earlier messages: scroll the list up" in middle and "later messages: scroll the list down" in middle
    assert "earlier messages" not in whole and "later messages" not in whole  # the demo's session fits
