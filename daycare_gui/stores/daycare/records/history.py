"""A session's history (a ``session_history`` row, or a line of the legacy history files) as a
:class:`HistoryRecord`, its payload typed by the record's type."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields
from typing import Any

from daycare_gui.stores.common.token_counts import json_kind, read_counts, sizes_problem
from daycare_gui.stores.daycare.records.agents import TokenEntry, token_entry_from_obj
from daycare_gui.stores.daycare.records.json_values import (
    Unparsed,
    frozen_record,
    number_of,
    parse_json_text,
    string_of,
    string_or_none,
)
from daycare_gui.stores.deferred_dataclass import deferred
from daycare_gui.stores.records.conversations import one_line

HISTORY_KINDS = (
    "user_message",
    "assistant_message",
    "tool_result",
    "rlm_start",
    "rlm_tool_call",
    "rlm_tool_result",
    "rlm_complete",
    "assistant_rewrite",
    "note",
)


LEGACY_MARKERS = ("start", "reset")


@deferred
class FileReference:
    id: str
    name: str
    mime_type: str
    size: int
    path: str


@deferred
class ToolCall:
    id: str
    name: str
    arguments: Any


@deferred
class HistoryRecord:
    """One ``session_history`` row (or legacy history line) with its payload typed by kind.

    Fields that a kind does not have stay at their defaults; ``data`` keeps the full parsed payload so
    the raw view can show exactly what is stored.
    """

    type: str
    at: int
    data: dict
    id: int | None = None
    session_id: str | None = None
    text: str | None = None
    files: tuple[FileReference, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    tokens: TokenEntry | None = None
    tool_call_id: str | None = None
    tool_name: str | None = None
    tool_output_text: str | None = None  # tool_result: the text parts of toolMessage.content
    is_error: bool = False
    code: str | None = None  # rlm_start
    print_output: tuple[str, ...] = ()  # rlm_tool_call, rlm_complete
    output: str | None = None  # rlm_complete output / rlm_tool_result toolResult
    error: str | None = None
    assistant_at: int | None = None  # assistant_rewrite
    reason: str | None = None  # assistant_rewrite
    reset_message: str | None = None  # legacy reset marker

    @property
    def known_kind(self) -> bool:
        return self.type in HISTORY_KINDS or self.type in LEGACY_MARKERS

    @property
    def is_rlm(self) -> bool:
        return self.type.startswith("rlm_")

    def read_problem(self) -> str | None:
        """Why this record shows less than it holds, its payload read: a type no reader knows (a newer
        Daycare's), or a message whose text is stored as something else (another tool's row), which would
        otherwise read as an empty message. The view then shows the record as stored."""
        if not self.known_kind:
            return f"unknown record type {self.type!r}"
        if self.type in _TEXT_KINDS and isinstance(self.data, dict):
            text = self.data.get("text")
            if text is not None and not isinstance(text, str):
                return f"its text is stored as {json_kind(text)}, not as text"
            kind = _not_objects(self.data.get("toolCalls")) if self.type == "assistant_message" else None
            if kind:
                return f"its tool calls are stored as {kind}, not as a list of calls (Raw JSON shows them)"
            kind = _not_objects(self.data.get("files"))
            if kind:
                return f"its files are stored as {kind}, not as a list of files (Raw JSON shows them)"
            why = self.tokens_problem()
            if why:
                return f"{why}: Costs counts this call apart (Raw JSON shows them)"
        return None

    def tokens_problem(self) -> str:
        """Why the token counts an assistant message stored cannot be read (another tool's row), or "": its
        ``tokens`` then hold no figure to show (read as 0, they would say the call used none)."""
        tokens = self.data.get("tokens") if self.type == "assistant_message" and isinstance(self.data, dict) else None
        return token_sizes(tokens)[1] if tokens is not None else ""

    def summary(self, limit: int = 160) -> str:
        """One line for lists and tooltips."""
        if self.type in ("user_message", "assistant_message", "note", "assistant_rewrite"):
            s = self.text or ""
            if self.tool_calls:
                s = (s + " " if s else "") + "→ " + ", ".join(c.name for c in self.tool_calls)
        elif self.type == "tool_result":
            s = f"{self.tool_name or 'tool'}: {self.tool_output_text or ''}"
        elif self.type == "rlm_start":
            s = (self.code or "").strip().splitlines()[0] if (self.code or "").strip() else "python run"
        elif self.type in ("rlm_tool_call", "rlm_tool_result"):
            s = f"{self.tool_name or 'tool'}" + (f": {self.output}" if self.output else "")
        elif self.type == "rlm_complete":
            s = ("error: " + (self.error or "")) if self.is_error else (self.output or "done")
        elif self.type == "reset":
            s = self.reset_message or "reset"
        else:
            s = json.dumps(self.data, ensure_ascii=False)[:limit]
        return one_line(s, limit)


def _files(v: Any) -> tuple[FileReference, ...]:
    if not v or not isinstance(v, list):
        return ()
    out = []
    for f in v:
        if isinstance(f, dict):
            out.append(
                FileReference(
                    string_of(f, "id"), string_of(f, "name"), string_of(f, "mimeType"), int(number_of(f, "size")), string_of(f, "path")
                )
            )
    return tuple(out)


def _tool_calls(v: Any) -> tuple[ToolCall, ...]:
    if not v or not isinstance(v, list):
        return ()
    return tuple(
        ToolCall(string_of(c, "id"), string_of(c, "name", "?"), c.get("arguments", c.get("args")))
        for c in v
        if isinstance(c, dict)
    )


def _tool_message_text(output: Any) -> tuple[str | None, str | None, bool]:
    """(text, toolName, isError) from a ToolExecutionResult."""
    if not isinstance(output, dict):
        return None, None, False
    msg = output.get("toolMessage")
    if not isinstance(msg, dict):
        return None, None, False
    parts = msg.get("content")
    texts = []
    if isinstance(parts, list):
        texts = [p.get("text") for p in parts if isinstance(p, dict) and isinstance(p.get("text"), str)]
    elif isinstance(parts, str):
        texts = [parts]
    return "\n".join(texts) or None, string_or_none(msg, "toolName"), bool(msg.get("isError"))


def _message(kw: dict, data: dict) -> None:  # user_message, note (and the two below)
    kw["text"] = string_or_none(data, "text")
    kw["files"] = _files(data.get("files"))


def _assistant(kw: dict, data: dict) -> None:
    _message(kw, data)
    kw["tool_calls"] = _tool_calls(data.get("toolCalls"))
    kw["tokens"] = token_entry_from_obj(data.get("tokens"))


def _rewrite(kw: dict, data: dict) -> None:
    _message(kw, data)
    at_ = data.get("assistantAt")
    kw["assistant_at"] = at_ if isinstance(at_, int) else None
    kw["reason"] = string_or_none(data, "reason")


def _tool_result(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = string_or_none(data, "toolCallId")
    kw["tool_output_text"], kw["tool_name"], kw["is_error"] = _tool_message_text(data.get("output"))


def _rlm_start(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = string_or_none(data, "toolCallId")
    kw["code"] = string_or_none(data, "code")


def _rlm_tool_call(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = string_or_none(data, "toolCallId")
    kw["tool_name"] = string_or_none(data, "toolName")
    kw["print_output"] = tuple(x for x in data.get("printOutput") or () if isinstance(x, str))


def _rlm_tool_result(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = string_or_none(data, "toolCallId")
    kw["tool_name"] = string_or_none(data, "toolName")
    kw["output"] = string_or_none(data, "toolResult")
    kw["is_error"] = bool(data.get("toolIsError"))


def _rlm_complete(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = string_or_none(data, "toolCallId")
    kw["output"] = string_or_none(data, "output")
    kw["print_output"] = tuple(x for x in data.get("printOutput") or () if isinstance(x, str))
    kw["is_error"] = bool(data.get("isError"))
    kw["error"] = string_or_none(data, "error")


def _reset(kw: dict, data: dict) -> None:
    kw["reset_message"] = string_or_none(data, "message")


# record type → what its payload adds (one lookup per record: history pages build 200 at a time)
_KIND_FIELDS = {
    "user_message": _message, "note": _message, "assistant_message": _assistant, "assistant_rewrite": _rewrite,
    "tool_result": _tool_result, "rlm_start": _rlm_start, "rlm_tool_call": _rlm_tool_call,
    "rlm_tool_result": _rlm_tool_result, "rlm_complete": _rlm_complete, "reset": _reset,
}


def _text_only(kw: dict, data: dict) -> None:
    kw["text"] = string_or_none(data, "text")


def _text_and_calls(kw: dict, data: dict) -> None:
    kw["text"] = string_or_none(data, "text")
    kw["tool_calls"] = _tool_calls(data.get("toolCalls"))


# What HistoryRecord.summary reads of each type, for a record made only to be listed (lean): a message's
# files and an assistant's tokens were a third of making the record of a row the message list paints.
_KIND_SUMMARY_FIELDS = {**_KIND_FIELDS, "user_message": _text_only, "note": _text_only,
                        "assistant_message": _text_and_calls, "assistant_rewrite": _text_only}


_TEXT_KINDS = frozenset({"user_message", "assistant_message", "note", "assistant_rewrite"})
TOKEN_SIZES = ("input", "output", "cacheRead", "cacheWrite")  # the counts of an assistant message's tokens.size


def _not_objects(value) -> str | None:
    """What a stored list of objects (tool calls, files) is instead, in words, or None when it is one (or
    absent). An empty list is not walked: most messages have one."""
    if value is None or value.__class__ is list and (not value or all(isinstance(v, dict) for v in value)):
        return None
    return "a list holding other values" if isinstance(value, list) else json_kind(value)


def token_sizes(tokens) -> tuple[list[int], str]:
    """The four counts (``TOKEN_SIZES``) of an assistant message's stored ``tokens`` (not null), and why they
    cannot be read: "" when they can, else all four are 0 (Costs counts the call apart)."""
    size = tokens.get("size") if tokens.__class__ is dict else None
    if size.__class__ is not dict:
        return [0] * 4, sizes_problem(tokens, size)
    get = size.get
    return token_counts_of([get("input"), get("output"), get("cacheRead"), get("cacheWrite")])


def token_counts_of(values) -> tuple[list[int], str]:
    """:func:`token_sizes` from the four stored values (in ``TOKEN_SIZES`` order)."""
    for v in values:  # (a loop, not all() over a generator: the message list checks every assistant row)
        if v.__class__ is not int or v < 0:
            break
    else:  # the usual case: no problem to word
        return list(values), ""
    counts, why = read_counts(dict(zip(TOKEN_SIZES, values)))
    return ([0] * 4 if why else counts), why


def history_record_from(type_: str, at: int, data: dict, *, id: int | None = None, session_id: str | None = None,
                        lean: bool = False):
    """The typed record of a history row's payload; ``lean``: only what :meth:`HistoryRecord.summary`
    reads is filled in (no files, tokens or rewrite details) — for a list's line, never for a view."""
    kw: dict[str, Any] = {"type": type_, "at": at, "data": data, "id": id, "session_id": session_id}
    fill = (_KIND_SUMMARY_FIELDS if lean else _KIND_FIELDS).get(type_)
    if fill is not None:
        fill(kw, data)
    return frozen_record(HistoryRecord, _HISTORY_DEFAULTS, kw)


_HISTORY_DEFAULTS = {f.name: f.default for f in fields(HistoryRecord) if f.default is not MISSING}


def parse_history_row(id: int, session_id: str, type_: str, at: int, data_raw: str | None):
    """A ``session_history`` row → :class:`HistoryRecord`, or (record with empty data, reason)."""
    obj = parse_json_text(data_raw)
    if isinstance(obj, Unparsed) or not isinstance(obj, dict):
        reason = obj.reason if isinstance(obj, Unparsed) else "data is not a JSON object"
        rec = HistoryRecord(type=type_, at=at, data={"_raw": data_raw}, id=id, session_id=session_id)
        return rec, reason
    return history_record_from(type_, at, obj, id=id, session_id=session_id), None
