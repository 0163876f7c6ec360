"""JSONL export: each record as stored (its raw payload), one per line, secrets masked inside the values."""

from __future__ import annotations

import json

from daycare_gui.stores.common.export.formats import masked
from daycare_gui.stores.common.secrets import mask_tree, may_hold_secret
from daycare_gui.stores.records import Message


def neutral(m: Message) -> dict:
    """What a record without a stored payload is written as: its neutral fields."""
    out: dict = {"id": m.id, "role": m.role, "text": m.text, "at": m.at}
    if m.kind:
        out["kind"] = m.kind
    if m.tool_calls:
        out["tool_calls"] = [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in m.tool_calls]
    if m.tool_result is not None:
        r = m.tool_result
        out["tool_result"] = {"call_id": r.call_id, "name": r.name, "text": r.text, "is_error": r.is_error}
    return out


def _dumps(value) -> str:
    # default=str: a kind's raw value is JSON-like by contract; anything else is written as its text
    return json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))


def record_line(raw) -> str:
    """One stored record as a JSON line, secrets masked inside its values."""
    line = _dumps(raw)
    if may_hold_secret(line):  # most records hold nothing secret: no walk, no copy
        line = _dumps(mask_tree(raw))
    # JSON allows these two raw, but many line readers split on them: escaped, one record stays one line
    return line.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029") + "\n"


class Writer:
    def begin(self, _header) -> str:
        return ""

    def message(self, m: Message) -> str:
        return record_line(m.raw if m.raw is not None else neutral(masked(m)))

    def end(self, _written: int) -> str:
        return ""
