"""Typed records for the JSON columns of Daycare's SQLite tables.

Parsers never raise on bad data. A value that does not parse becomes :class:`Unparsed` (raw text plus
the reason), so a view can still show it and the loader can report it as a problem. Known keys become
fields; keys Daycare added later land in ``extra`` so nothing is dropped.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, field, fields
from typing import Any

from daycare_gui.stores.deferred_dataclass import deferred


@deferred
class Unparsed:
    raw: str | None
    reason: str

    def __bool__(self) -> bool:  # lets callers write `if record:` for "parsed fine"
        return False


def parse_json_text(raw: str | bytes | None, *, allow_null: bool = False) -> Any | Unparsed:
    if raw is None:
        return None if allow_null else Unparsed(None, "value is NULL")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return Unparsed(raw.decode("utf-8", "replace"), f"not UTF-8 (byte {exc.start})")
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, TypeError) as exc:
        return Unparsed(raw, f"not valid JSON: {exc}")
    except (ValueError, RecursionError):  # nesting deeper than Python's JSON decoder goes
        return Unparsed(raw, "not readable JSON: nested too deeply")


def _split(obj: dict, known: tuple[str, ...]) -> dict:
    return {k: v for k, v in obj.items() if k not in known}


def _s(obj: dict, key: str, default: str = "") -> str:
    v = obj.get(key)
    return v if isinstance(v, str) else default


def _opt_s(obj: dict, key: str) -> str | None:
    v = obj.get(key)
    return v if isinstance(v, str) else None


def _n(obj: dict, key: str, default: int | float = 0) -> int | float:
    v = obj.get(key)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def _frozen(cls, defaults: dict, values: dict):
    """``cls(**values)`` for a frozen dataclass without field defaults from factories, minus its __init__'s
    object.__setattr__ per field: a history page builds 200 records, and that was a third of the time the
    data layer took beyond reading and decoding them. The result is the same frozen object."""
    obj = object.__new__(cls)
    fields_ = obj.__dict__
    fields_.update(defaults)
    fields_.update(values)
    return obj


# --- agent descriptors ------------------------------------------------------------------------------

DESCRIPTOR_KINDS = ("user", "cron", "system", "subagent", "app", "permanent")


@deferred
class AgentDescriptor:
    """One of the six descriptor kinds; unknown kinds keep their type and every key in ``extra``."""

    type: str
    id: str | None = None  # cron, subagent, app, permanent
    name: str | None = None
    connector: str | None = None  # user
    user_id: str | None = None  # user: the connector's user id (not a users.id)
    channel_id: str | None = None  # user
    tag: str | None = None  # system
    parent_agent_id: str | None = None  # subagent, app
    system_prompt: str | None = None  # app, permanent
    app_id: str | None = None  # app
    username: str | None = None  # permanent
    description: str | None = None  # permanent
    workspace_dir: str | None = None  # permanent
    extra: dict = field(default_factory=dict)

    @property
    def known_kind(self) -> bool:
        return self.type in DESCRIPTOR_KINDS

    @property
    def display_name(self) -> str:
        """A name a person recognises, derived differently per kind."""
        if self.type == "user":
            return f"{self.connector or '?'} user {self.user_id or '?'}" + (
                f" · {self.channel_id}" if self.channel_id and self.channel_id != self.user_id else ""
            )
        if self.type == "cron":
            return self.name or f"cron {self.id or '?'}"
        if self.type == "system":
            return f"system: {self.tag or '?'}"
        if self.type == "subagent":
            return self.name or f"subagent {self.id or '?'}"
        if self.type == "app":
            return self.name or f"app {self.app_id or self.id or '?'}"
        if self.type == "permanent":
            return self.name or (self.username and f"@{self.username}") or f"agent {self.id or '?'}"
        return self.name or self.id or f"({self.type})"


_DESCRIPTOR_KEYS = {
    "type": "type",
    "id": "id",
    "name": "name",
    "connector": "connector",
    "userId": "user_id",
    "channelId": "channel_id",
    "tag": "tag",
    "parentAgentId": "parent_agent_id",
    "systemPrompt": "system_prompt",
    "appId": "app_id",
    "username": "username",
    "description": "description",
    "workspaceDir": "workspace_dir",
}


def parse_descriptor(raw: str | None) -> AgentDescriptor | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict):
        return Unparsed(raw, "descriptor is not a JSON object")
    if not isinstance(obj.get("type"), str):
        return Unparsed(raw, "descriptor has no type")
    values = {}
    for key, attr in _DESCRIPTOR_KEYS.items():
        v = obj.get(key)
        if isinstance(v, str):
            values[attr] = v
        elif v is not None and key != "type":
            values.setdefault("extra", {})[key] = v  # wrong type: keep it visible rather than drop it
    extra = {**values.pop("extra", {}), **_split(obj, tuple(_DESCRIPTOR_KEYS))}
    return AgentDescriptor(extra=extra, **values)


# --- permissions and tokens ---------------------------------------------------------------------------


@deferred
class SessionPermissions:
    working_dir: str | None
    write_dirs: tuple[str, ...]
    read_dirs: tuple[str, ...]
    network: bool | None  # None: key absent (imported agents may hold a reduced object)
    events: bool | None
    workspace_dir: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def reduced(self) -> bool:
        return self.network is None or self.events is None


def parse_permissions(raw: str | None) -> SessionPermissions | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict):
        return Unparsed(raw, "permissions are not a JSON object")
    return permissions_from_obj(obj)


def permissions_from_obj(obj: dict) -> SessionPermissions:
    def dirs(key):
        v = obj.get(key)
        return tuple(x for x in v if isinstance(x, str)) if isinstance(v, list) else ()

    def flag(key):
        v = obj.get(key)
        return v if isinstance(v, bool) else None

    known = ("workingDir", "writeDirs", "readDirs", "network", "events", "workspaceDir")
    return SessionPermissions(
        working_dir=_opt_s(obj, "workingDir"),
        write_dirs=dirs("writeDirs"),
        read_dirs=dirs("readDirs"),
        network=flag("network"),
        events=flag("events"),
        workspace_dir=_opt_s(obj, "workspaceDir"),
        extra=_split(obj, known),
    )


@deferred
class TokenSize:
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total: int = 0

    @classmethod
    def from_obj(cls, obj: Any) -> TokenSize:
        if not isinstance(obj, dict):
            return cls()
        get = obj.get
        values = (get("input"), get("output"), get("cacheRead"), get("cacheWrite"), get("total"))
        if any(type(v) is not int for v in values):  # noqa: E721 (bool is not a count): the careful path
            values = (int(_n(obj, "input")), int(_n(obj, "output")), int(_n(obj, "cacheRead")),
                      int(_n(obj, "cacheWrite")), int(_n(obj, "total")))
        # built without the frozen __init__ (one per assistant message of every history page)
        return _frozen(cls, {}, dict(zip(_TOKEN_FIELDS, values)))

    def __add__(self, other: TokenSize) -> TokenSize:
        return TokenSize(
            self.input + other.input,
            self.output + other.output,
            self.cache_read + other.cache_read,
            self.cache_write + other.cache_write,
            self.total + other.total,
        )


_TOKEN_FIELDS = ("input", "output", "cache_read", "cache_write", "total")


@deferred
class TokenEntry:
    provider: str
    model: str
    size: TokenSize


def token_entry_from_obj(obj: Any) -> TokenEntry | None:
    if not isinstance(obj, dict):
        return None
    return _frozen(TokenEntry, {}, {"provider": _s(obj, "provider", "?"), "model": _s(obj, "model", "?"),
                                    "size": TokenSize.from_obj(obj.get("size"))})


def parse_tokens(raw: str | None) -> TokenEntry | None | Unparsed:
    obj = parse_json_text(raw, allow_null=True)
    if obj is None or isinstance(obj, Unparsed):
        return obj
    entry = token_entry_from_obj(obj)
    return entry if entry is not None else Unparsed(raw, "tokens are not a JSON object")


@deferred
class TokenStats:
    """provider → model → sizes."""

    by_model: dict[tuple[str, str], TokenSize]

    @property
    def total(self) -> TokenSize:
        out = TokenSize()
        for size in self.by_model.values():
            out = out + size
        return out


def parse_stats(raw: str | None) -> TokenStats | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict):
        return Unparsed(raw, "stats are not a JSON object")
    by_model: dict[tuple[str, str], TokenSize] = {}
    for provider, models in obj.items():
        if isinstance(models, dict):
            for model, size in models.items():
                by_model[(str(provider), str(model))] = TokenSize.from_obj(size)
    return TokenStats(by_model)


# --- session history -----------------------------------------------------------------------------------

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
        s = " ".join(s.split())
        return s if len(s) <= limit else s[: limit - 1] + "…"


def _files(v: Any) -> tuple[FileReference, ...]:
    if not v or not isinstance(v, list):
        return ()
    out = []
    for f in v:
        if isinstance(f, dict):
            out.append(
                FileReference(
                    _s(f, "id"), _s(f, "name"), _s(f, "mimeType"), int(_n(f, "size")), _s(f, "path")
                )
            )
    return tuple(out)


def _tool_calls(v: Any) -> tuple[ToolCall, ...]:
    if not v or not isinstance(v, list):
        return ()
    return tuple(
        ToolCall(_s(c, "id"), _s(c, "name", "?"), c.get("arguments", c.get("args")))
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
    return "\n".join(texts) or None, _opt_s(msg, "toolName"), bool(msg.get("isError"))


def _message(kw: dict, data: dict) -> None:  # user_message, note (and the two below)
    kw["text"] = _opt_s(data, "text")
    kw["files"] = _files(data.get("files"))


def _assistant(kw: dict, data: dict) -> None:
    _message(kw, data)
    kw["tool_calls"] = _tool_calls(data.get("toolCalls"))
    kw["tokens"] = token_entry_from_obj(data.get("tokens"))


def _rewrite(kw: dict, data: dict) -> None:
    _message(kw, data)
    at_ = data.get("assistantAt")
    kw["assistant_at"] = at_ if isinstance(at_, int) else None
    kw["reason"] = _opt_s(data, "reason")


def _tool_result(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = _opt_s(data, "toolCallId")
    kw["tool_output_text"], kw["tool_name"], kw["is_error"] = _tool_message_text(data.get("output"))


def _rlm_start(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = _opt_s(data, "toolCallId")
    kw["code"] = _opt_s(data, "code")


def _rlm_tool_call(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = _opt_s(data, "toolCallId")
    kw["tool_name"] = _opt_s(data, "toolName")
    kw["print_output"] = tuple(x for x in data.get("printOutput") or () if isinstance(x, str))


def _rlm_tool_result(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = _opt_s(data, "toolCallId")
    kw["tool_name"] = _opt_s(data, "toolName")
    kw["output"] = _opt_s(data, "toolResult")
    kw["is_error"] = bool(data.get("toolIsError"))


def _rlm_complete(kw: dict, data: dict) -> None:
    kw["tool_call_id"] = _opt_s(data, "toolCallId")
    kw["output"] = _opt_s(data, "output")
    kw["print_output"] = tuple(x for x in data.get("printOutput") or () if isinstance(x, str))
    kw["is_error"] = bool(data.get("isError"))
    kw["error"] = _opt_s(data, "error")


def _reset(kw: dict, data: dict) -> None:
    kw["reset_message"] = _opt_s(data, "message")


# record type → what its payload adds (one lookup per record: history pages build 200 at a time)
_KIND_FIELDS = {
    "user_message": _message, "note": _message, "assistant_message": _assistant, "assistant_rewrite": _rewrite,
    "tool_result": _tool_result, "rlm_start": _rlm_start, "rlm_tool_call": _rlm_tool_call,
    "rlm_tool_result": _rlm_tool_result, "rlm_complete": _rlm_complete, "reset": _reset,
}


def _text_only(kw: dict, data: dict) -> None:
    kw["text"] = _opt_s(data, "text")


def _text_and_calls(kw: dict, data: dict) -> None:
    kw["text"] = _opt_s(data, "text")
    kw["tool_calls"] = _tool_calls(data.get("toolCalls"))


# What HistoryRecord.summary reads of each type, for a record made only to be listed (lean): a message's
# files and an assistant's tokens were a third of making the record of a row the message list paints.
_KIND_SUMMARY_FIELDS = {**_KIND_FIELDS, "user_message": _text_only, "note": _text_only,
                        "assistant_message": _text_and_calls, "assistant_rewrite": _text_only}


def history_record_from(type_: str, at: int, data: dict, *, id: int | None = None, session_id: str | None = None,
                        lean: bool = False):
    """The typed record of a history row's payload; ``lean``: only what :meth:`HistoryRecord.summary`
    reads is filled in (no files, tokens or rewrite details) — for a list's line, never for a view."""
    kw: dict[str, Any] = {"type": type_, "at": at, "data": data, "id": id, "session_id": session_id}
    fill = (_KIND_SUMMARY_FIELDS if lean else _KIND_FIELDS).get(type_)
    if fill is not None:
        fill(kw, data)
    return _frozen(HistoryRecord, _HISTORY_DEFAULTS, kw)


_HISTORY_DEFAULTS = {f.name: f.default for f in fields(HistoryRecord) if f.default is not MISSING}


def parse_history_row(id: int, session_id: str, type_: str, at: int, data_raw: str | None):
    """A ``session_history`` row → :class:`HistoryRecord`, or (record with empty data, reason)."""
    obj = parse_json_text(data_raw)
    if isinstance(obj, Unparsed) or not isinstance(obj, dict):
        reason = obj.reason if isinstance(obj, Unparsed) else "data is not a JSON object"
        rec = HistoryRecord(type=type_, at=at, data={"_raw": data_raw}, id=id, session_id=session_id)
        return rec, reason
    return history_record_from(type_, at, obj, id=id, session_id=session_id), None


# --- inbox, signals, channels, expose, processes ---------------------------------------------------------

INBOX_KINDS = ("message", "system_message", "signal", "reset", "compact", "restore")


@deferred
class InboxItem:
    id: str
    agent_id: str
    posted_at: int
    type: str
    payload: dict | Unparsed

    def summary(self, limit: int = 160) -> str:
        p = self.payload
        if isinstance(p, Unparsed):
            return f"(unparsed: {p.reason})"
        text = None
        for key in ("text", "message", "prompt"):
            v = p.get(key)
            if isinstance(v, str):
                text = v
                break
            if isinstance(v, dict) and isinstance(v.get("text"), str):
                text = v["text"]
                break
        if text is None and isinstance(p.get("signal"), dict):
            kind = p["signal"].get("type")
            text = f"signal {kind}" if isinstance(kind, str) and kind else "signal of unknown type"
        s = " ".join((text or payload_in_words(p)).split())
        return s if len(s) <= limit else s[: limit - 1] + "…"


def payload_in_words(payload: dict) -> str:
    """A payload without text, in words rather than JSON: ``{"type": "restore"}`` → "Restore",
    ``{"type": "compact", "keep": 3}`` → "Compact · keep 3"."""
    from daycare_gui.stores.common.wording import words_of

    parts = []
    kind = payload.get("type")
    if isinstance(kind, str) and kind:
        parts.append(words_of(kind) if "_" in kind or kind.islower() else kind)
    for key, value in payload.items():
        if key == "type":
            continue
        name = words_of(str(key)).lower()
        if isinstance(value, bool):
            parts.append(f"{name} {'yes' if value else 'no'}")
        elif isinstance(value, (int, float, str)) and str(value):
            parts.append(f"{name} {value}")
        elif isinstance(value, (dict, list)):
            parts.append(f"{name} ({len(value)} {'item' if len(value) == 1 else 'items'})")
    return " · ".join(parts) or "(no details)"


@deferred
class SignalSource:
    type: str
    id: str | None = None
    user_id: str | None = None


def parse_signal_source(raw: str | None) -> SignalSource | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        return Unparsed(raw, "source has no type")
    return SignalSource(obj["type"], _opt_s(obj, "id"), _opt_s(obj, "userId"))


@deferred
class ExposeTarget:
    type: str
    port: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        return f"port {self.port}" if self.type == "port" else f"unix {self.path}"


def parse_expose_target(raw: str | None) -> ExposeTarget | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, dict) or obj.get("type") not in ("port", "unix"):
        return Unparsed(raw, "target must be {type: port|unix}")
    port = obj.get("port")
    return ExposeTarget(obj["type"], port if isinstance(port, int) else None, _opt_s(obj, "path"))


def parse_string_list(raw: str | None) -> tuple[str, ...] | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, list):
        return Unparsed(raw, "not a JSON array")
    return tuple(str(x) for x in obj)
