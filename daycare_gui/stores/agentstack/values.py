"""Turning AgentStack's stored values into what a person reads: times, JSON, embeddings, diffs.

Every helper takes a value straight from the file and returns text plus, when the value is damaged, a
reason; none raises on bad input.
"""

from __future__ import annotations

import difflib
import json
import math
import sys
from array import array
from datetime import datetime, timezone
from typing import Any

from daycare_gui.stores.agentstack.database import BadText
from daycare_gui.stores.common import json_brackets as brackets
from daycare_gui.stores.common.secrets import mask_tree
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.records.conversations import one_line

MAX_JSON_CHARS = 200_000  # longer JSON is shown raw, not parsed (a damaged or hostile value)
MAX_JSON_DEPTH = 64  # deeper nesting is shown raw: printing it would exhaust the stack
DIFF_LINES = 40


def when(ms: Any) -> str:
    """Milliseconds since the epoch → "2026-01-29 14:03:07" (UTC); other values as text."""
    if ms is None or ms == "":
        return ""
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        return str(ms)
    try:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return str(ms)


def time_problem(name: str, ms: Any) -> str | None:
    if ms is None or (isinstance(ms, int) and not isinstance(ms, bool)):
        return None
    return f"{name} is {type(ms).__name__} {str(ms)[:40]!r}, not a time in milliseconds"


def iso(text: Any) -> str:
    """``users``/``refresh_tokens`` keep ISO-8601 text: show it as it is, shortened to seconds."""
    return "" if text is None else str(text).replace("T", " ")[:19]


def parse_json(text: Any) -> tuple[Any, str | None]:
    """Stored JSON text → (value masked of secrets, problem). NULL → (None, None)."""
    if text is None:
        return None, None
    if not isinstance(text, str):
        return None, f"is {type(text).__name__}, not JSON text"
    if isinstance(text, BadText):
        return None, "is not valid UTF-8"
    if len(text) > MAX_JSON_CHARS:
        return None, f"is {len(text):,} characters of JSON; not parsed"
    if json_depth(text) > MAX_JSON_DEPTH:
        return None, f"is JSON nested deeper than {MAX_JSON_DEPTH} levels; not parsed"
    try:
        return shown_value(json.loads(text)), None
    except (ValueError, RecursionError) as exc:
        return None, f"is not valid JSON ({str(exc)[:80]})"


def shown_value(value: Any) -> Any:
    """A stored JSON value as every view shows it: its secrets masked, under secret-looking keys and
    wherever a token or a URL password can be recognised. (An edit of it puts back what the user left as
    shown, by comparing with this.)"""
    return mask_tree(value)


def json_depth(text: str) -> int:
    """How deep brackets nest in JSON text, strings skipped (cheap when there are few brackets)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    return brackets.scan(text).deepest


def shown_json(text: Any) -> str:
    """The JSON as it should appear in a raw view: masked when it holds a secret, else as stored."""
    value, problem = parse_json(text)
    if problem or value is None:
        return "" if text is None else str(text)[:MAX_JSON_CHARS]
    try:
        original = json.loads(text)
    except (ValueError, RecursionError):
        return str(text)
    return text if value == original else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, ensure_ascii=False, indent=2, default=str) + "\n```"


def text_problem(name: str, value: Any) -> str | None:
    return f"{name} is not valid UTF-8 (shown with replacement characters)" if isinstance(value, BadText) else None


def short(text: Any, limit: int = 80) -> str:
    return one_line(str(text or ""), limit)


def fenced(text: str, limit: int = 20_000) -> str:
    body = text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit:,} more characters)"
    fence = "````" if "```" in body else "```"
    return f"{fence}\n{body}\n{fence}"


# -- embeddings -----------------------------------------------------------------------------------------


def embedding_facts(blob: Any) -> tuple[str, dict | None, str | None]:
    """A float32 embedding → ("768 d, norm 1.000", facts, problem). Never returns the numbers."""
    if blob is None:
        return "", None, None
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        return "damaged", None, f"embedding is {type(blob).__name__}, not float32 bytes"
    data = bytes(blob)
    if not data:
        return "damaged", {"bytes": 0}, "embedding is empty (0 bytes)"
    if len(data) % 4:
        return "damaged", {"bytes": len(data)}, (f"embedding is damaged: {count(len(data), 'byte')} is not "
                                                 "a whole number of float32 values")
    values = array("f")
    values.frombytes(data)
    if sys.byteorder == "big":
        values.byteswap()  # stored little-endian (Node's Float32Array on x86/ARM)
    if not all(math.isfinite(v) for v in values):
        bad = sum(1 for v in values if not math.isfinite(v))
        return "damaged", {"bytes": len(data), "dimensions": len(values)}, (
            f"embedding is damaged: {bad:,} of {count(len(values), 'value')} "
            f"{'is' if bad == 1 else 'are'} NaN or infinite")
    norm = math.sqrt(math.fsum(v * v for v in values))
    facts = {"bytes": len(data), "dimensions": len(values), "norm": round(norm, 4)}
    if norm == 0:
        return f"{len(values)} d, zero", facts, "embedding is all zeros (cosine similarity is undefined)"
    return f"{len(values)} d, norm {norm:.3f}", facts, None


# -- versions ---------------------------------------------------------------------------------------------


def diff_text(before: str, after: str, *, label_a: str, label_b: str, limit: int = DIFF_LINES) -> str:
    """A unified diff of two texts, at most ``limit`` lines, in a fenced ``diff`` block ("" when equal)."""
    if before == after:
        return ""
    lines = list(difflib.unified_diff(before.splitlines(), after.splitlines(), label_a, label_b, lineterm="", n=1))
    if len(lines) > limit:
        lines = lines[:limit] + [f"… {len(lines) - limit} more diff lines"]
    return "```diff\n" + "\n".join(lines) + "\n```"


def change_summary(before: dict, after: dict) -> str:
    """One line: what differs between two states of a memory entry."""
    parts = []
    if before.get("content") != after.get("content"):
        a, b = str(before.get("content") or ""), str(after.get("content") or "")
        added = removed = 0
        for line in difflib.ndiff(a.splitlines(), b.splitlines()):
            added += line.startswith("+ ")
            removed += line.startswith("- ")
        parts.append(f"content +{added} −{removed} lines")
    for name in ("metadata", "key", "namespace"):
        if (before.get(name) or None) != (after.get(name) or None):
            parts.append(f"{name} changed")
    return ", ".join(parts) or "no change"


def describe_change(before: dict, after: dict, *, label_a: str, label_b: str) -> str:
    """Markdown: the summary line and the diffs of content and metadata."""
    out = [f"*{change_summary(before, after)}*"]
    for name in ("key", "namespace"):
        if (before.get(name) or None) != (after.get(name) or None):
            out.append(f"- {name}: `{before.get(name)}` → `{after.get(name)}`")
    content = diff_text(str(before.get("content") or ""), str(after.get("content") or ""),
                        label_a=label_a, label_b=label_b)
    if content:
        out.append(content)
    meta = diff_text(_pretty(before.get("metadata")), _pretty(after.get("metadata")),
                     label_a=f"{label_a} metadata", label_b=f"{label_b} metadata", limit=20)
    if meta:
        out.append(meta)
    return "\n\n".join(out)


def _pretty(metadata: Any) -> str:
    value, problem = parse_json(metadata)
    if problem or value is None:
        return "" if metadata is None else str(metadata)
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)
