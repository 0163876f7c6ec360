"""A JSON column's text as a value, or :class:`Unparsed` (raw text plus the reason) when it does not
parse; and the readers of a parsed object's keys that every record of this package is built with."""

from __future__ import annotations

import json
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


def unknown_keys(obj: dict, known: tuple[str, ...]) -> dict:
    return {k: v for k, v in obj.items() if k not in known}


def string_of(obj: dict, key: str, default: str = "") -> str:
    v = obj.get(key)
    return v if isinstance(v, str) else default


def string_or_none(obj: dict, key: str) -> str | None:
    v = obj.get(key)
    return v if isinstance(v, str) else None


def number_of(obj: dict, key: str, default: int | float = 0) -> int | float:
    v = obj.get(key)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def frozen_record(cls, defaults: dict, values: dict):
    """``cls(**values)`` for a frozen dataclass without field defaults from factories, minus its __init__'s
    object.__setattr__ per field: a history page builds 200 records, and that was a third of the time the
    data layer took beyond reading and decoding them. The result is the same frozen object."""
    obj = object.__new__(cls)
    fields_ = obj.__dict__
    fields_.update(defaults)
    fields_.update(values)
    return obj
