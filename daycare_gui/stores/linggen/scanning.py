"""One streaming pass over a ``messages.jsonl``: counts, last time, messages per day, and every bad line.

This is the one loop that touches every message of a home when it opens, so it is kept tight: one
JSON decoder built once, plans looked for only in contents that start with ``{``, and days computed
once per hour of timestamps. Nothing of the file is kept.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.linggen.byte_order_mark import BOM_CHAR, JSONL_LINE_UNREAD, REMOVE_BOM
from daycare_gui.stores.linggen.messages import content_kind
from daycare_gui.stores.problems import ProblemLog

_PREVIEW = 120


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")  # Linggen's serde_json rejects NaN/Infinity too


_decode = json.JSONDecoder(parse_constant=_reject_constant).decode


@dataclass
class MessageStats:
    messages: int = 0
    bad_lines: int = 0
    observations: int = 0
    plans: int = 0
    last_ms: int | None = None
    days: Counter = field(default_factory=Counter)


def _preview(raw: str) -> str:
    return repr(mask_url(raw if len(raw) <= _PREVIEW else raw[:_PREVIEW] + "…"))


def scan_messages(path: Path, problems: ProblemLog) -> MessageStats:
    stats = MessageStats()
    try:
        handle = open_regular(path)
    except FileNotFoundError:
        return stats
    except OSError as exc:
        problems.add(path, f"cannot read file: {exc.strerror or type(exc).__name__}")
        return stats
    days: dict[int, str] = {}
    last = None
    where = str(path)
    with handle:
        for number, chunk in enumerate(handle, 1):
            try:
                raw = chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                stats.bad_lines += 1
                problems.add(where, f"not UTF-8 (byte {exc.start} of the line); line skipped", number)
                continue
            bom = raw[:1] == BOM_CHAR
            if bom:  # Linggen's serde_json rejects the mark: the line is shown (messages.parse_line), not read
                raw = raw[1:]
            try:
                obj = _decode(raw)
            except (ValueError, RecursionError) as exc:
                text = raw.rstrip("\r\n")
                if not text.strip():
                    problems.add(where, "blank line ignored", number, "warning")
                    continue
                stats.bad_lines += 1
                if chunk.endswith(b"\n"):
                    msg = getattr(exc, "msg", str(exc))
                    problems.add(where, f"not JSON ({msg}); line skipped: {_preview(text)}", number)
                else:
                    problems.add(where, "truncated line (last line has no newline and does not parse); "
                                        f"skipped: {_preview(text)}", number)
                continue
            if type(obj) is not dict:
                stats.bad_lines += 1
                problems.add(where, f"expected a JSON object; line skipped: {_preview(raw.rstrip())}", number)
                continue
            if bom:
                stats.bad_lines += 1
                problems.add(where, f"{JSONL_LINE_UNREAD}; {REMOVE_BOM}", number)
                continue
            stats.messages += 1
            if obj.get("is_observation") is True:
                stats.observations += 1
            content = obj.get("content")
            if type(content) is str and content[:1] == "{" and content_kind(content) == "plan":
                stats.plans += 1
            ts = obj.get("timestamp")
            if type(ts) in (int, float) and 0 <= ts < 1e14:
                if ts >= 1e11:  # milliseconds; Linggen writes seconds
                    ts = ts / 1000
                if last is None or ts > last:
                    last = ts
                quarter = int(ts // 900)  # local midnight falls on a quarter hour in every time zone
                day = days.get(quarter)
                if day is None:
                    day = days[quarter] = _day(ts)
                stats.days[day] += 1
    stats.last_ms = int(last * 1000) if last is not None else None
    return stats


def _day(seconds: float) -> str:
    try:
        return date.fromtimestamp(seconds).isoformat()
    except (OverflowError, OSError, ValueError):
        return ""
