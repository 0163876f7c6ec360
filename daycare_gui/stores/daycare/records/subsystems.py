"""The JSON of Daycare's subsystems: an inbox item's payload, a signal's source, an exposed endpoint's
target, and the string lists of channels and processes."""

from __future__ import annotations

from daycare_gui.stores.daycare.records.json_values import (
    Unparsed,
    parse_json_text,
    string_or_none,
)
from daycare_gui.stores.deferred_dataclass import deferred
from daycare_gui.stores.records.conversations import one_line

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
        return one_line(text or payload_in_words(p), limit)


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
    return SignalSource(obj["type"], string_or_none(obj, "id"), string_or_none(obj, "userId"))


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
    return ExposeTarget(obj["type"], port if isinstance(port, int) else None, string_or_none(obj, "path"))


def parse_string_list(raw: str | None) -> tuple[str, ...] | Unparsed:
    obj = parse_json_text(raw)
    if isinstance(obj, Unparsed):
        return obj
    if not isinstance(obj, list):
        return Unparsed(raw, "not a JSON array")
    return tuple(str(x) for x in obj)
