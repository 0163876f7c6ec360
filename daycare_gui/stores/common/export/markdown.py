"""Markdown export: a heading for the session, one per message (role and time), the message text as
written, tool calls and results as fenced blocks with a language tag, kept whole however long."""

from __future__ import annotations

import re

from daycare_gui.stores.common.export.formats import (
    arguments_text,
    masked,
    result_language,
    utc,
    who,
)
from daycare_gui.stores.common.unread import stored_only
from daycare_gui.stores.records import Message


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in re.findall(r"`+", text)), default=0) if "`" in text else 0


def fence(text: str, language: str) -> str:
    """A fenced block that ``text`` cannot close: longer than any run of backticks inside it."""
    longest = _longest_backticks(text)
    ticks = "`" * max(3, longest + 1)
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"{ticks}{language}\n{body}{ticks}\n"


def _inline_code(text: str) -> str:
    longest = _longest_backticks(text)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


_HEADING_HINT = re.compile(r"(?m)^ {0,3}(#{1,6}(\s|$)|[=-]+[ \t]*$)")


def demote_headings(text: str, by: int = 2) -> str:
    """The message's own headings two levels down (``#`` → ``###``), so that in the export only the
    messages are level-2 headings and an outline reads right; code blocks and everything else unchanged."""
    if not _HEADING_HINT.search(text):
        return text  # the common case: no heading, no parse
    from markdown_it import MarkdownIt

    lines = text.replace("\r\n", "\n").split("\n")
    tokens = MarkdownIt("commonmark").parse("\n".join(lines))
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open" or tok.level != 0 or not tok.map:
            continue
        first, end = tok.map
        level = min(6, int(tok.tag[1:]) + by)
        lines[first] = "#" * level + " " + tokens[i + 1].content.replace("\n", " ")
        for n in range(first + 1, end):  # a setext heading's further lines and underline
            lines[n] = None
    return "\n".join(line for line in lines if line is not None)


def _line(text: str) -> str:
    """A heading or label line: no line breaks may end it early."""
    return " ".join(text.split())


def message_block(m: Message) -> str:
    """One (already masked) message: ``## role · time``, a line of facts, its text, calls and result."""
    when = utc(m.at)
    parts = [f"## {_line(who(m))}" + (f" · {when}" if when else "") + "\n"]
    facts = [f"record {_inline_code(m.id)}"] if m.id else []
    if m.kind and m.kind != m.role:
        facts.append(_inline_code(m.kind))
    if facts:
        parts.append("*" + " · ".join(facts) + "*\n")
    if m.problem:
        parts.append(f"> **Problem:** {_line(m.problem)}\n")
    stored = stored_only(m)
    if stored is not None:
        parts.append("The record as stored:\n")
        parts.append(fence(stored, "json"))
    if m.text and m.tool_result is None:
        parts.append(demote_headings(m.text).rstrip("\n") + "\n")
    for name in m.attachments:
        parts.append(f"- attachment: {_inline_code(name)}\n")
    for call in m.tool_calls:
        text, language = arguments_text(call.arguments)
        parts.append(f"**Tool call** {_inline_code(call.name or 'tool')}"
                     + (f" · call {_inline_code(call.id)}" if call.id else "") + "\n")
        parts.append(fence(text, language))
    r = m.tool_result
    if r is not None:
        label = "**Tool error**" if r.is_error else "**Tool result**"
        parts.append(f"{label} {_inline_code(r.name or 'tool')}"
                     + (f" · call {_inline_code(r.call_id)}" if r.call_id else "") + "\n")
        parts.append(fence(r.text, result_language(r.text)))
        if m.text and m.text != r.text:
            parts.append(demote_headings(m.text).rstrip("\n") + "\n")
    return "\n".join(parts) + "\n"


class Writer:
    def begin(self, h) -> str:
        title = _line(f"{h.thread_title} — {h.session_title}")
        lines = [f"# {title}\n", f"- Session: {_inline_code(h.ref.session_id)}",
                 f"- Thread: {_inline_code(h.ref.thread_id)}"]
        if h.store:
            lines.append(f"- Store: {_line(h.kind) + ' ' if h.kind else ''}{_inline_code(h.store)}")
        lines.append(f"- Messages: {h.total:,}" + (f" ({h.selected:,} selected)" if h.selected is not None else ""))
        return "\n".join(lines) + "\n\n"

    def message(self, m: Message) -> str:
        return message_block(masked(m))

    def end(self, written: int) -> str:
        return ""


def message_markdown(m: Message) -> str:
    """One message as Markdown, secrets masked ("Copy as Markdown")."""
    return message_block(masked(m))
