"""Reading legacy Daycare files the way Daycare's (TypeScript) import migrations read them.

The imports must store byte-identical values, so the small differences between JavaScript and Python matter:
``JSON.parse`` rejects ``NaN``, ``JSON.stringify`` prints ``1.0`` as ``1``, ``String.trim`` strips a different
set of characters, ``typeof x === "number"`` is false for booleans, and gray-matter parses YAML 1.2-style
booleans (``yes``/``no`` stay strings).
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import yaml

from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.problems import Problem

# Characters JavaScript's String.prototype.trim removes (WhiteSpace + LineTerminator).
_JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def js_trim(value: str) -> str:
    return value.strip(_JS_WHITESPACE)


def is_number(value: object) -> bool:
    """``typeof value === "number" && Number.isFinite(value)`` (booleans are not numbers in JS)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def js_floor(value: int | float) -> int:
    return value if isinstance(value, int) else math.floor(value)


def string_or_none(value: object) -> str | None:
    """Daycare's ``stringOrNull``: a string that is non-empty after trimming, trimmed; else None."""
    if not isinstance(value, str):
        return None
    trimmed = js_trim(value)
    return trimmed or None


class JsonError(ValueError):
    pass


def _reject_constant(name: str):
    raise JsonError(f"{name} is not JSON")


def parse_json(text: str):
    """``JSON.parse``: strict JSON, no NaN/Infinity."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise JsonError(str(exc)) from exc


def _js_compatible(value):
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {k: _js_compatible(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_js_compatible(v) for v in value]
    return value


def to_json(value) -> str:
    """``JSON.stringify(value)``: compact, keys in source order, non-ASCII kept."""
    return json.dumps(_js_compatible(value), separators=(",", ":"), ensure_ascii=False)


def read_text(path: Path) -> str:
    """``readFileSync(path, "utf8")``: invalid bytes become U+FFFD, a BOM is kept."""
    return read_regular(path).decode("utf-8", errors="replace")


def read_json_file(path: Path):
    """Parsed JSON, or raises OSError/JsonError."""
    return parse_json(read_text(path))


@dataclass
class JsonLines:
    """The parsed lines of a JSONL file and the lines that were skipped because they are not JSON."""

    values: list[tuple[int, object]] = field(default_factory=list)  # (1-based line number, value)
    skipped: list[Problem] = field(default_factory=list)


def read_json_lines(path: Path) -> JsonLines:
    result = JsonLines()
    for number, line in enumerate(read_text(path).split("\n"), start=1):
        trimmed = js_trim(line)
        if not trimmed:
            continue
        try:
            result.values.append((number, parse_json(trimmed)))
        except JsonError:
            result.skipped.append(Problem(str(path), number, "not valid JSON; Daycare skips this line", "warning"))
    return result


_ISO = re.compile(
    r"(?P<date>[+-]?\d{4,6}-\d{2}-\d{2})"
    r"(?:T(?P<time>\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(?P<tz>Z|[+-]\d{2}:\d{2})?)?"
)


def iso_to_ms(value: str) -> int | None:
    """``Date.parse`` for the ISO strings Daycare writes (``2026-02-19T02:00:00.000Z``); None if unparseable.

    Like JavaScript, a date-only string is UTC and a date-time without offset is local time.
    """
    match = _ISO.fullmatch(value.strip())
    if not match:
        return None
    time_part = match.group("time") or "00:00"
    if time_part.count(":") == 1:
        time_part += ":00"
    try:
        parsed = datetime.fromisoformat(f"{match.group('date')}T{time_part}")
    except ValueError:
        return None
    tz = match.group("tz")
    if tz == "Z" or match.group("time") is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    elif tz:
        sign = 1 if tz[0] == "+" else -1
        parsed = parsed.replace(tzinfo=timezone(sign * timedelta(hours=int(tz[1:3]), minutes=int(tz[4:6]))))
    else:
        parsed = parsed.astimezone()
    return math.floor(parsed.timestamp() * 1000)


def last_run_at(state_path: Path) -> int | None:
    """``{lastRunAt: ISO}`` state files → ms, or None when missing or unreadable."""
    try:
        parsed = read_json_file(state_path)
    except (OSError, JsonError):
        return None
    value = parsed.get("lastRunAt") if isinstance(parsed, dict) else None
    return iso_to_ms(value) if isinstance(value, str) else None


def file_times_ms(path: Path, now_ms: int) -> tuple[int, int]:
    """(created, updated): the file's birth time (mtime where the platform has none) and its mtime."""
    try:
        st = os.stat(path)
    except OSError:
        return now_ms, now_ms
    birth = getattr(st, "st_birthtime", None)
    updated = math.floor(st.st_mtime_ns / 1_000_000)
    created = math.floor(birth * 1000) if birth is not None else updated
    return (created if created > 0 else now_ms), (updated if updated > 0 else now_ms)


class _Yaml12Loader(yaml.SafeLoader):
    """Safe YAML with YAML 1.2 booleans, as js-yaml (gray-matter) parses them."""


_Yaml12Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class FrontmatterError(ValueError):
    pass


_FENCE = re.compile(r"^---[ \t]*\r?$", re.M)


def split_frontmatter(text: str) -> tuple[dict, str]:
    """gray-matter's split: YAML between a leading ``---`` line and the next ``---`` line, then the body.

    Invalid YAML raises :class:`FrontmatterError` (gray-matter throws, which aborts Daycare's migration).
    """
    if not text.startswith("---"):
        return {}, text
    first_newline = text.find("\n")
    if first_newline == -1 or text[3:first_newline].strip() != "":
        return {}, text
    closing = _FENCE.search(text, first_newline + 1)
    if closing is None:
        return {}, text
    raw_yaml = text[first_newline + 1 : closing.start()]
    body_start = closing.end()
    if body_start < len(text) and text[body_start] == "\n":
        body_start += 1
    try:
        data = yaml.load(raw_yaml, Loader=_Yaml12Loader) if raw_yaml.strip() else {}
    except yaml.YAMLError as exc:
        raise FrontmatterError(f"invalid YAML frontmatter: {exc}") from exc
    return (data if isinstance(data, dict) else {}), text[body_start:]
