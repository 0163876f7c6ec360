"""Pretty JSON text of any value (dataclasses and Unparsed included), for raw views."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any


def to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value) if f.repr}
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [to_plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def pretty_json(value: Any) -> str:
    """Stored JSON text is re-indented; anything else is converted first. Never raises."""
    if isinstance(value, (str, bytes)):
        try:
            return json.dumps(json.loads(value), indent=2, ensure_ascii=False)
        except (ValueError, TypeError):
            return value if isinstance(value, str) else value.decode("utf-8", "replace")
    try:
        return json.dumps(to_plain(value), indent=2, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)
