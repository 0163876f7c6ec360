"""Decoded checkpoint values → neutral chat messages.

LangChain messages reach us in three shapes, none of which we rebuild: a MessagePack pydantic record
(``ExtRecord`` code 5, or 4/2 in older data) whose class ends in ``Message``; an older ``json`` payload's
``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}`` envelope; or a plain dict
with ``type`` and ``content``. All become :class:`Message` with tool calls paired to results by id.
"""

from __future__ import annotations

import json
from typing import Any

from daycare_gui.stores.cianaparrot.decode import ExtRecord, Opaque, masked, plain
from daycare_gui.stores.common.secrets import mask_tree
from daycare_gui.stores.records import Message, ToolCallRecord, ToolResultRecord

_ROLE = {
    "human": "user", "ai": "assistant", "tool": "tool", "system": "system", "function": "tool",
    "remove": "event", "developer": "system",
}
_CLASS_TYPE = {
    "HumanMessage": "human", "AIMessage": "ai", "ToolMessage": "tool", "SystemMessage": "system",
    "FunctionMessage": "function", "ChatMessage": "chat", "RemoveMessage": "remove",
}


def message_fields(value: Any) -> tuple[str, dict] | None:
    """``(class name, fields)`` when ``value`` is a LangChain message in any stored shape, else None."""
    if isinstance(value, ExtRecord):
        if value.name.endswith(("Message", "MessageChunk")) and isinstance(value.args, dict):
            return value.name, value.args
        return None
    if isinstance(value, dict):
        ident = value.get("id")
        if value.get("lc") in (1, 2) and isinstance(ident, list) and ident and isinstance(ident[-1], str):
            kwargs = value.get("kwargs")
            if ident[-1].endswith(("Message", "MessageChunk")) and isinstance(kwargs, dict):
                return ident[-1], kwargs
            return None
        if isinstance(value.get("type"), str) and value["type"] in _ROLE and "content" in value:
            return value["type"], value
    return None


def messages_in(value: Any) -> list | None:
    """The list of messages a checkpoint's ``messages`` channel holds (unwrapping a delta snapshot)."""
    if isinstance(value, ExtRecord) and value.code == 7:
        value = value.args
    return value if isinstance(value, list) else None


def as_text(value: Any) -> str:
    """A stored value as a reader would write it: a string as it is, anything else as compact JSON with
    its secrets masked (Python's repr would show ``['a', {'b': 1}]``, quoting as nobody wrote it)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return _clean(value)
    return json.dumps(mask_tree(plain(value)), ensure_ascii=False)


def role_text(role: Any) -> str:
    """A role as shown: its string (an unknown one too), "other" when there is none, else its JSON."""
    return as_text(role) or "other"


def parts_text(content: Any) -> str:
    """Content the bot writes as a string but that may be anything: text parts joined as text, every
    other part (and content that is neither a string nor a list) as JSON."""
    if not isinstance(content, list):
        return as_text(content)
    parts = [p["text"] if isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str)
             else p for p in content]
    return "\n\n".join(t for t in map(as_text, parts) if t)


def content_text(content: Any) -> tuple[str, tuple[ToolCallRecord, ...]]:
    """Text of a message's content (a string or a list of blocks) and any ``tool_use`` blocks in it."""
    if isinstance(content, str):
        return _clean(content), ()
    if not isinstance(content, list):
        return as_text(content), ()
    parts, calls = [], []
    for block in content:
        if isinstance(block, str):
            parts.append(_clean(block))
        elif isinstance(block, dict):
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str):
                parts.append(_clean(block["text"]))
            elif kind == "tool_use":
                calls.append(ToolCallRecord(str(block.get("id", "")), str(block.get("name", "")),
                                            plain(block.get("input"))))
            elif kind in ("thinking", "reasoning"):
                continue
            elif isinstance(kind, str) and kind:  # image, file, audio: their data (often base64) is not text
                parts.append(f"[{kind}]")
            else:
                parts.append(as_text(block))
        else:
            parts.append(as_text(block))
    return "\n\n".join(p for p in parts if p), tuple(calls)


def _clean(text: str) -> str:
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _tool_calls(fields: dict) -> tuple[ToolCallRecord, ...]:
    calls = []
    for call in fields.get("tool_calls") or ():
        if isinstance(call, dict):
            calls.append(ToolCallRecord(str(call.get("id") or ""), str(call.get("name") or ""),
                                        masked(call.get("args"))))
    if not calls:  # older OpenAI-style calls kept in additional_kwargs
        extra = fields.get("additional_kwargs")
        for call in (extra.get("tool_calls") or ()) if isinstance(extra, dict) else ():
            if isinstance(call, dict) and isinstance(call.get("function"), dict):
                fn = call["function"]
                args = fn.get("arguments")
                try:
                    args = json.loads(args) if isinstance(args, str) else args
                except ValueError:
                    pass
                calls.append(ToolCallRecord(str(call.get("id") or ""), str(fn.get("name") or ""),
                                            masked(args)))
    return tuple(calls)


def _total_tokens(usage: Any) -> int | None:
    """A LangChain message's ``usage_metadata.total_tokens`` when it is a count (a store may hold anything)."""
    total = usage.get("total_tokens") if isinstance(usage, dict) else None
    return total if isinstance(total, int) and not isinstance(total, bool) and total >= 0 else None


def to_message(value: Any, index: int) -> Message:
    """One element of a ``messages`` list as a Message (anything else is shown as a note with its data)."""
    found = message_fields(value)
    if found is None:
        what = value.describe() if isinstance(value, Opaque) else json.dumps(plain(value), ensure_ascii=False)[:400]
        problem = value.problem if isinstance(value, ExtRecord) else None
        return Message(str(index), "note", what, kind=type(value).__name__, raw=masked(value),
                       problem=problem or "not a chat message")
    cls, fields = found
    mtype = str(fields.get("type") or _CLASS_TYPE.get(cls.removesuffix("Chunk"), ""))
    role = _ROLE.get(mtype, role_text(fields.get("role")) if mtype == "chat" else "other")
    text, block_calls = content_text(fields.get("content"))
    calls = _tool_calls(fields)
    known = {c.id for c in calls}
    calls += tuple(c for c in block_calls if c.id not in known)
    result = None
    if role == "tool":
        result = ToolResultRecord(as_text(fields.get("tool_call_id")), as_text(fields.get("name")), text,
                                  fields.get("status") == "error")
    meta = []
    if fields.get("name") and role != "tool":
        meta.append(("name", as_text(fields["name"])))
    usage = fields.get("usage_metadata")
    if isinstance(usage, dict) and usage.get("total_tokens") is not None:
        meta.append(("tokens", str(usage.get("total_tokens"))))
    model = (fields.get("response_metadata") or {}).get("model_name") if isinstance(
        fields.get("response_metadata"), dict) else None
    if model:
        meta.append(("model", str(model)))
    invalid = fields.get("invalid_tool_calls")
    problem = f"{len(invalid)} invalid tool call(s)" if isinstance(invalid, list) and invalid else None
    if isinstance(value, ExtRecord) and value.problem:
        problem = value.problem
    return Message(
        id=str(fields.get("id") or index),
        role=role,
        text=text,
        kind=cls,
        author=as_text(fields.get("name")) if role == "user" else "",
        tool_calls=calls,
        tool_result=result,
        meta=tuple(meta),
        model=str(model) if model else "",
        tokens=_total_tokens(usage),
        raw=masked(value),
        problem=problem,
    )


def summarize_value(value: Any, limit: int = 80) -> str:
    """A few words for a decoded write: "AIMessage → web_search", "2 messages", "None"."""
    if value is None:
        return "—"
    if isinstance(value, Opaque):
        return value.describe()
    found = message_fields(value)
    if found is not None:
        msg = to_message(value, 0)
        return f"{found[0]}: {msg.summary(limit)}"
    items = messages_in(value)
    if items is not None:
        if len(items) == 1:
            return summarize_value(items[0], limit)
        return f"{len(items)} items"
    if isinstance(value, ExtRecord):
        return value.label
    text = json.dumps(plain(value), ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"
