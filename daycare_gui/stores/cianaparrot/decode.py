"""Safe decoding of LangGraph checkpoint payloads: never imports, never executes, never revives.

LangGraph stores each value as ``(type tag, bytes)``. MessagePack payloads carry *extension types* whose
payload names a Python module and class and the arguments to rebuild an object with (a constructor, a
class method, a pydantic model, a numpy array). LangGraph's own loader imports those modules; we never do.
Every extension becomes an :class:`ExtRecord` — the code, the names it carries and its arguments as plain
data — so the viewer can show what the object *was* without creating it. ``pickle`` and encrypted payloads
are only described (size and first bytes), JSON envelopes are parsed as data, unknown things stay raw.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import msgpack

# Extension codes as LangGraph's serializer writes them (facts from langgraph-checkpoint 4.x).
EXT_NAMES = {
    0: "constructor (one argument)",
    1: "constructor (positional arguments)",
    2: "constructor (keyword arguments)",
    3: "class method (one argument)",
    4: "pydantic v1 model",
    5: "pydantic v2 model",
    6: "numpy array",
    7: "delta snapshot",
}
MAX_DEPTH = 48  # nested extension payloads; deeper ones stay raw (a crafted blob must not exhaust the stack)
PREVIEW_BYTES = 16  # first bytes shown of an opaque payload


@dataclass(frozen=True)
class ExtRecord:
    """A MessagePack extension value, described instead of rebuilt."""

    code: int
    module: str = ""
    name: str = ""  # the class (or dtype for numpy arrays)
    args: Any = None  # the argument(s) as decoded data
    method: str = ""  # the class method LangGraph would call (code 3, and code 5's validate method)
    raw: bytes = b""  # the payload, kept when it could not be decoded
    problem: str | None = None

    @property
    def label(self) -> str:
        if self.module or self.name:
            return f"{self.module}.{self.name}" if self.module else self.name
        return EXT_NAMES.get(self.code, f"extension {self.code}")


@dataclass(frozen=True)
class Opaque:
    """A payload we show as what it is, never open: pickle, encrypted, undecodable or unknown tags."""

    tag: str
    size: int
    head: str  # hex of the first bytes
    reason: str

    def describe(self) -> str:
        return f"{self.reason}: {self.size} bytes, starts {self.head or '(empty)'}"


@dataclass(frozen=True)
class Decoded:
    value: Any = None
    tag: str = ""
    problem: str | None = None
    notes: tuple[str, ...] = field(default=())


def opaque(tag: str, data: bytes, reason: str) -> Opaque:
    return Opaque(tag, len(data), data[:PREVIEW_BYTES].hex(), reason)


def _unpack(data: bytes, depth: int) -> Any:
    return msgpack.unpackb(
        data,
        raw=False,
        strict_map_key=False,  # LangGraph writes maps with non-string keys (OPT_NON_STR_KEYS)
        unicode_errors="surrogateescape",  # a bad string keeps its bytes instead of failing the blob
        use_list=True,
        ext_hook=lambda code, payload: _ext(code, payload, depth + 1),
    )


def _ext(code: int, payload: bytes, depth: int) -> ExtRecord:
    """Turn one extension into a record. Never raises: msgpack would abort the whole blob."""
    if depth > MAX_DEPTH:
        return ExtRecord(code, raw=payload, problem=f"nested deeper than {MAX_DEPTH} extensions; kept raw")
    try:
        inner = _unpack(payload, depth)
    except Exception as exc:  # noqa: BLE001 — any failure of an untrusted payload becomes a problem
        if code not in EXT_NAMES:
            return ExtRecord(code, raw=payload, problem=f"unknown extension code {code}; kept raw")
        return ExtRecord(code, raw=payload, problem=f"payload is not MessagePack ({_why(exc)})")
    if code == 7:  # a snapshot wraps the channel's whole value
        return ExtRecord(code, name="snapshot", args=inner)
    if code == 6 and isinstance(inner, list) and len(inner) >= 3:
        return ExtRecord(code, module="numpy", name=str(inner[0]), args={"shape": inner[1], "order": inner[2]},
                         raw=inner[3] if len(inner) > 3 and isinstance(inner[3], bytes) else b"")
    if code in EXT_NAMES and isinstance(inner, list) and len(inner) >= 3 and all(
        isinstance(x, str) for x in inner[:2]
    ):
        method = inner[3] if len(inner) > 3 and isinstance(inner[3], str) else ""
        return ExtRecord(code, module=inner[0], name=inner[1], args=inner[2], method=method)
    if code in EXT_NAMES:
        return ExtRecord(code, args=inner, problem=f"unexpected {EXT_NAMES[code]} payload shape")
    return ExtRecord(code, args=inner, raw=payload, problem=f"unknown extension code {code}")


def _why(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) < 120 else text[:119] + "…"


def decode_msgpack(data: bytes) -> Decoded:
    try:
        return Decoded(_unpack(bytes(data), 0), "msgpack")
    except RecursionError:
        return Decoded(opaque("msgpack", data, "MessagePack nested too deeply"), "msgpack",
                       "MessagePack nested too deeply to decode; shown raw")
    except Exception as exc:  # noqa: BLE001 — ExtraData, FormatError, StackError, ValueError, ...
        return Decoded(opaque("msgpack", data, "not valid MessagePack"), "msgpack",
                       f"not valid MessagePack ({_why(exc)}); shown raw")


def decode_json(data: bytes | str) -> Decoded:
    """LangGraph's older ``json`` payloads: parsed as plain data; ``lc`` envelopes stay dictionaries."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray, memoryview)) else data
        if isinstance(data, memoryview):
            text = bytes(data).decode("utf-8")
        return Decoded(json.loads(text), "json")
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raw = data if isinstance(data, bytes) else str(data).encode("utf-8", "surrogateescape")
        return Decoded(opaque("json", raw, "not valid JSON"), "json", f"not valid JSON ({_why(exc)}); shown raw")


def sniff(data: bytes) -> str:
    """A tag for payloads of databases older than the ``type`` column."""
    if not data:
        return "null"
    if data[:1] == b"\x80" and len(data) > 2 and 2 <= data[1] <= 5 and data.endswith(b"."):
        return "pickle"
    if data.lstrip()[:1] in (b"{", b"["):
        return "json"
    return "msgpack"


def decode_typed(tag: str | None, data: Any) -> Decoded:
    """Decode one ``(type, blob)`` pair. Never raises; never opens pickle or encrypted payloads."""
    if data is None:
        return Decoded(None, tag or "null")
    if isinstance(data, str):  # a TEXT column where a BLOB was expected (hand-made or migrated rows)
        data = data.encode("utf-8", "surrogateescape")
    data = bytes(data)
    notes: tuple[str, ...] = ()
    if tag is None:
        tag = sniff(data)
        notes = (f"no type recorded; looks like {tag}",)
    if tag == "null":
        return Decoded(None, tag, None if not data else "type null but the payload is not empty", notes)
    if tag in ("bytes", "bytearray"):
        return Decoded(opaque(tag, data, "raw bytes"), tag, None, notes)
    if tag == "msgpack":
        d = decode_msgpack(data)
        return Decoded(d.value, tag, d.problem, notes)
    if tag == "json":
        d = decode_json(data)
        return Decoded(d.value, tag, d.problem, notes)
    if tag == "pickle":
        return Decoded(opaque(tag, data, "Python pickle (never opened)"), tag,
                       "pickle payload: not opened (unpickling would run code from the store)", notes)
    if "+" in tag:
        base, _, cipher = tag.partition("+")
        return Decoded(opaque(tag, data, f"encrypted ({cipher}) {base}"), tag,
                       f"encrypted payload ({cipher}); cannot be shown without the key", notes)
    return Decoded(opaque(tag, data, f"unknown type {tag!r}"), tag, f"unknown payload type {tag!r}; shown raw", notes)


def plain(value: Any, *, _depth: int = 0) -> Any:
    """Decoded data as JSON-like values for raw views and ``inspect`` (bytes as size + hex)."""
    if _depth > 200:
        return "<nested too deeply>"
    if isinstance(value, (str, int, float, bool)) or value is None:
        if isinstance(value, str):
            return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        return value
    if isinstance(value, dict):
        return {_key(k): plain(v, _depth=_depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v, _depth=_depth + 1) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        b = bytes(value)
        return f"<{len(b)} bytes: {b[:PREVIEW_BYTES].hex()}{'…' if len(b) > PREVIEW_BYTES else ''}>"
    if isinstance(value, ExtRecord):
        out: dict[str, Any] = {"$ext": value.code, "$kind": EXT_NAMES.get(value.code, "unknown")}
        if value.module:
            out["module"] = value.module
        if value.name:
            out["class"] = value.name
        if value.method:
            out["method"] = value.method
        if value.args is not None:
            out["args"] = plain(value.args, _depth=_depth + 1)
        if value.raw:
            out["raw"] = plain(value.raw)
        if value.problem:
            out["problem"] = value.problem
        return out
    if isinstance(value, Opaque):
        return {"$opaque": value.tag, "size": value.size, "head": value.head, "what": value.reason}
    if isinstance(value, msgpack.ExtType):  # not produced with our hook; kept for safety
        return {"$ext": value.code, "raw": plain(value.data)}
    return repr(value)


def _key(k: Any) -> str:
    if isinstance(k, str):
        return plain(k)
    if isinstance(k, (bytes, bytearray)):
        return plain(bytes(k))
    if isinstance(k, (list, tuple)):
        return json.dumps(plain(k), ensure_ascii=False)
    return str(plain(k))


def masked(value: Any) -> Any:
    """``plain(value)`` with secret-named string values masked (counts such as ``total_tokens`` stay)."""
    return _mask(plain(value))


def _mask(obj: Any) -> Any:
    from daycare_gui.stores.common.secrets import is_secret_key, mask_value

    if isinstance(obj, dict):
        return {k: (mask_value(v) if isinstance(v, str) and is_secret_key(k) else _mask(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_mask(v) for v in obj]
    return obj
