"""Exports read back and compared with the records; secrets masked in every format; streaming and selection."""

from __future__ import annotations

import io
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from daycare_gui.stores.common.export import FORMATS, export_session, export_to_file, message_markdown
from daycare_gui.stores.common.export.formats import arguments_text
from daycare_gui.stores.common.export.stream import ExportCancelled
from daycare_gui.stores.common.secrets import mask_tree
from daycare_gui.stores.records import Message
from tests.stores.export.fake import FAKE_KEY, REF, FakeConversations, planted_messages, tricky_messages
from tests.stores.export.parse import html_page, jsonl_records, markdown_messages


def _export(cap, fmt: str, **options) -> str:
    out = io.StringIO()
    export_session(cap, REF, fmt, out, **options)
    return out.getvalue()


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_a_planted_api_key_never_appears(fmt):
    text = _export(FakeConversations(planted_messages()), fmt)
    assert FAKE_KEY not in text
    assert FAKE_KEY[12:30] not in text  # not even a long piece of it
    assert "••••••••" in text  # masked, not dropped: the reader sees a secret was there
    assert ("Done" if fmt == "jsonl" else "Setting it.") in text  # and the rest is still there
    if fmt == "jsonl":
        assert len(jsonl_records(text)) == 4  # masking inside values keeps every line valid JSON


def test_copy_as_markdown_masks_too():
    for m in planted_messages():
        assert FAKE_KEY not in message_markdown(m)


def test_markdown_reads_back_as_the_records():
    messages = tricky_messages() + planted_messages()
    titles, shown = markdown_messages(_export(FakeConversations(messages), "md"))
    assert titles == ["Helper agent — Setup session"]
    assert [s.heading.split(" · ")[0] for s in shown] == ["user", "assistant", "tool", "bot → alice",
                                                          "user", "assistant", "tool", "assistant"]
    assert shown[0].heading == "user · 2026-01-01 00:00:00 UTC"
    assert "\n#### Plan\nHere:" in _export(FakeConversations(messages), "md")  # a message's heading sits below
    # tool calls and results as fenced blocks with their language, kept whole (5,000 lines of backticks)
    assert shown[1].fences[0] == ("python", "print(1)\n")  # the message's own fence, untouched
    assert shown[1].fences[1] == ("json", arguments_text({"code": "print('```')\n" * 3})[0] + "\n")
    assert shown[2].fences == [("text", "````\nx" * 5000 + "\n")]
    assert [lang for lang, _ in shown[5].fences] == ["json", "text"]  # an object, then a shell line
    assert shown[6].fences[0][1].startswith("wrote .env: ANTHROPIC_API_KEY=sk-••••••••")


def test_html_is_one_safe_page_whose_text_equals_the_records():
    messages = tricky_messages()
    page = html_page(_export(FakeConversations(messages), "html"))
    assert "script" not in page.tags and "img" not in page.tags and "link" not in page.tags
    assert page.urls == []  # nothing to load, nothing to follow
    assert "http" not in page.style and "url(" not in page.style
    assert "prefers-color-scheme: dark" in page.style  # readable in both palettes
    assert [m.classes for m in page.messages] == ["user", "assistant", "tool", "alien"]
    assert page.messages[0].text == messages[0].text  # the tags in it are text, shown as written
    assert page.messages[1].arguments == [arguments_text(messages[1].tool_calls[0].arguments)[0]]
    assert page.messages[2].outputs == ["````\nx" * 5000]
    assert page.messages[3].text == "a\u2028b\u2029c"


def test_jsonl_is_the_raw_records_one_per_line():
    messages = tricky_messages()
    rows = jsonl_records(_export(FakeConversations(messages), "jsonl"))
    assert len(rows) == 4
    assert rows[0] == messages[0].raw and rows[1] == messages[1].raw and rows[3] == messages[3].raw
    assert rows[2]["tool_result"]["text"] == "````\nx" * 5000  # no stored payload: its neutral fields
    planted = jsonl_records(_export(FakeConversations(planted_messages()), "jsonl"))
    assert planted == [mask_tree(m.raw) for m in planted_messages()]
    assert planted[1]["toolCalls"][1]["arguments"] == "export OPENAI_API_KEY=sk-••••••••"


def _numbered(i: int) -> Message:
    return Message(str(i), "user" if i % 2 else "assistant", f"message number {i}", at=1767225600000 + i,
                   raw={"n": i})


def test_a_long_session_streams_a_page_at_a_time():
    cap = FakeConversations(count=120_000, make=_numbered)
    seen = []
    rows = jsonl_records(_export(cap, "jsonl", progress=lambda done, total: seen.append((done, total))))
    assert [r["n"] for r in rows] == list(range(120_000))
    assert max(limit for _start, limit in cap.asked) <= 500  # never the whole session at once
    assert seen[-1] == (120_000, 120_000) and len(seen) > 100  # progress as it goes


def test_a_selection_exports_only_those_and_stops_reading_after_them():
    cap = FakeConversations(count=120_000, make=_numbered)
    titles, shown = markdown_messages(_export(cap, "md", ids=["7", "3", "900"]))
    assert len(shown) == 3
    text = _export(FakeConversations(count=120_000, make=_numbered), "html", ids=["7", "3", "900"])
    assert [m.text for m in html_page(text).messages] == ["message number 3", "message number 7",
                                                          "message number 900"]
    assert len(cap.asked) <= 2  # the rest of the 120,000 is never read
    bounded = FakeConversations(count=120_000, make=_numbered)
    rows = jsonl_records(_export(bounded, "jsonl", ids=["100001", "5"], start=100_000, stop=100_010))
    assert rows == [{"n": 100001}]  # outside the span: not read at all
    assert bounded.asked[0][0] == 100_000


def test_file_export_is_atomic_and_cancel_leaves_nothing(tmp_path):
    target = tmp_path / "out.md"
    target.write_text("before")
    cap = FakeConversations(count=5000, make=_numbered)
    with pytest.raises(ExportCancelled):
        export_to_file(cap, REF, "md", target, cancelled=lambda: True)
    assert target.read_text() == "before"
    assert os.listdir(tmp_path) == ["out.md"]  # no temporary file left behind
    assert export_to_file(cap, REF, "html", target) == 5000
    assert len(html_page(target.read_text(encoding="utf-8")).messages) == 5000
    assert os.listdir(tmp_path) == ["out.md"]


def test_jsonl_lines_survive_line_separators():
    text = _export(FakeConversations(tricky_messages()), "jsonl")
    assert "\u2028" not in text and "\u2029" not in text
    assert len(text.splitlines()) == 4 and json.loads(text.splitlines()[3]) == {"text": "a\u2028b\u2029c"}


_keys = st.sampled_from(["text", "apiKey", "token", "tokens", "env", "url", "API_TOKEN", "password", "k\"ey",
                         "max_tokens", "note"])
_strings = st.one_of(st.text(max_size=20), st.sampled_from([
    FAKE_KEY, f"Bearer {FAKE_KEY}", "postgres://me:pw@db/x", "host=db password=hunter2", '{"apiKey": "v"}',
    "ghp_" + "a" * 30, "a\u2028b", "x@y:/z", "plain words"]))
_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), _strings),
                     lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4)),
                     max_leaves=12)


@given(_json)
def test_jsonl_fast_path_masks_exactly_like_the_full_walk(value):
    from daycare_gui.stores.common.export.jsonl import record_line

    line = record_line(value)
    assert json.loads(line) == mask_tree(value)
    assert FAKE_KEY not in line and "hunter2" not in line


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_record_that_could_not_be_read_is_exported_as_stored_with_its_secrets_masked(fmt):
    """A message that shows nothing because it could not be read (a newer system's record type, a payload
    that is not an object) is not lost from a readable export: its record as stored comes after its problem,
    as JSON, secrets masked. A message that shows its text does not repeat its record."""
    unknown = Message("7", "event", kind="memory_digest", problem="unknown record type 'memory_digest'",
                      raw={"summary": "what the agent learnt this week", "apiKey": FAKE_KEY})
    known = Message("8", "user", "hello", raw={"text": "hello", "marker": "raw of a known record"})
    text = _export(FakeConversations([unknown, known]), fmt)
    assert "The record as stored" in text and "what the agent learnt this week" in text
    assert FAKE_KEY not in text and "••••••••" in text
    assert "raw of a known record" not in text
