"""Linggen chat lines as neutral messages, and paging through a ``messages.jsonl`` without loading it.

A line is ``{agent_id, from_id, to_id, content, timestamp, is_observation}``. The sender and recipient go
to ``author``/``recipient``; observations (what tools returned, fed back to the model) are marked with
kind ``observation``; a ``content`` that is itself a JSON string of ``{"type": ...}`` (plans, finalised
tasks) is decoded, and plans are rendered as checklists.
"""

from __future__ import annotations

import json
import os
from array import array
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.common.secrets import mask_secrets, mask_url
from daycare_gui.stores.linggen.byte_order_mark import BOM, JSONL_LINE_UNREAD
from daycare_gui.stores.linggen.plans import json_plan_markdown
from daycare_gui.stores.linggen.readers import plain, seconds_to_ms, text_of
from daycare_gui.stores.records import Message

_PREVIEW = 200
# The keys Linggen writes on a chat line: none holds a secret, so such a line needs no masking walk.
_LINE_KEYS = frozenset(("agent_id", "from_id", "to_id", "content", "timestamp", "is_observation"))


def decode_content(content: Any) -> dict | None:
    """The object a ``content`` string encodes when it is ``{"type": ...}``; otherwise None."""
    if not isinstance(content, str) or not content.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(content)
    except (ValueError, RecursionError):
        return None
    return plain(value) if isinstance(value, dict) and isinstance(value.get("type"), str) else None


def content_kind(content: Any) -> str:
    decoded = decode_content(content)
    return decoded["type"] if decoded is not None else ""


def message_of(obj: dict, line_no: int) -> Message:
    sender, recipient = text_of(obj.get("from_id")), text_of(obj.get("to_id"))
    content = obj.get("content")
    observation = obj.get("is_observation") is True
    decoded = decode_content(content)
    kind = "observation" if observation else ""  # an ordinary chat line needs no label
    if decoded is not None:
        kind = decoded["type"]
        text = json_plan_markdown(decoded.get("plan")) if kind == "plan" else f"**{kind}**\n\n{_fenced(decoded)}"
    elif isinstance(content, str):
        text = content
    elif content is None:
        text = ""
    else:
        text = _fenced(content)
    if observation:
        role = "tool"
    elif sender == "user":
        role = "user"
    elif sender == "system":
        role = "system"
    else:
        role = "assistant"
    meta = [("from", sender), ("to", recipient), ("agent", text_of(obj.get("agent_id")))]
    if observation:
        meta.append(("observation", "yes (a tool's output fed back to the model)"))
    problem = None
    if not isinstance(obj.get("timestamp"), (int, float)) or isinstance(obj.get("timestamp"), bool):
        problem = "no timestamp"
    if "@" in text or "=" in text:  # a password in a URL or a key=value string
        text = mask_url(text)
    return Message(
        id=f"L{line_no}",
        role=role,
        text=text,
        at=seconds_to_ms(obj.get("timestamp")),
        kind=kind,
        author=sender,
        recipient=recipient,
        meta=tuple((k, v) for k, v in meta if v),
        raw=obj if _LINE_KEYS.issuperset(obj) else mask_secrets(obj),
        problem=problem,
    )


def _fenced(value: Any) -> str:
    return f"```json\n{json.dumps(mask_secrets(value), indent=2, ensure_ascii=False)}\n```"


def bad_line_message(line_no: int, raw: str, reason: str) -> Message:
    preview = raw if len(raw) <= _PREVIEW else raw[:_PREVIEW] + "…"
    return Message(id=f"L{line_no}", role="event", kind="unreadable line",
                   text=f"Line {line_no} could not be read ({reason}); Linggen skips it.",
                   raw=mask_url(preview), problem=reason)


# -- paging --------------------------------------------------------------------------------------------


@dataclass
class LineIndex:
    """Byte offsets and line numbers of the non-blank lines of one file, as it was when indexed."""

    size: int
    mtime_ns: int
    offsets: array
    numbers: array

    def __len__(self) -> int:
        return len(self.offsets)


def build_index(path: Path) -> LineIndex:
    offsets, numbers = array("q"), array("q")
    try:
        st = os.stat(path)
        with open_regular(path) as handle:
            pos, number = 0, 0
            for chunk in handle:
                number += 1
                if chunk.strip():
                    offsets.append(pos)
                    numbers.append(number)
                pos += len(chunk)
    except OSError:
        return LineIndex(0, 0, offsets, numbers)
    return LineIndex(st.st_size, st.st_mtime_ns, offsets, numbers)


def read_entries(path: Path, index: LineIndex, start: int, limit: int) -> list[Message]:
    """Entries ``start`` .. ``start+limit`` of the index: messages, or markers for unreadable lines."""
    out: list[Message] = []
    stop = min(len(index), max(0, start) + max(0, limit))
    if start >= stop:
        return out
    try:
        handle = open_regular(path)
    except OSError:
        return out
    with handle:
        for i in range(start, stop):
            if handle.tell() != index.offsets[i]:  # blank lines in between are not entries
                handle.seek(index.offsets[i])
            out.append(parse_line(handle.readline(), index.numbers[i]))
    return out


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")  # as the scan's reader does: Linggen's serde rejects it too


_decode = json.JSONDecoder(parse_constant=_reject_constant).decode


def parse_line(chunk: bytes, line_no: int) -> Message:
    complete = chunk.endswith(b"\n")
    bom = chunk.startswith(BOM)
    if bom:  # Linggen skips such a line; it is shown with that said (as the scan counts it: unreadable)
        chunk = chunk[len(BOM):]
    try:
        raw = chunk.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError:
        return bad_line_message(line_no, chunk.decode("utf-8", errors="replace").rstrip("\r\n"), "not UTF-8")
    try:
        obj = _decode(raw)
    except (ValueError, RecursionError):
        return bad_line_message(line_no, raw, "not JSON" if complete else "truncated last line")
    if type(obj) is not dict:
        return bad_line_message(line_no, raw, "not a JSON object")
    if any(type(v) in (dict, list) for v in obj.values()):  # only nested values can be too deep
        obj = plain(obj)
    message = message_of(obj, line_no)
    return replace(message, problem=f"this line {JSONL_LINE_UNREAD}") if bom else message
