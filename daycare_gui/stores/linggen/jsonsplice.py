"""Change one top-level value of a JSON object by replacing only its text.

Re-serialising a whole file would reorder nothing in Python but still change spacing, escapes and number
spelling; splicing keeps every other byte as it was (other keys, their order, the indentation, the final
newline). The scanner only finds where values start and end; ``json.loads`` remains the judge of validity.
"""

from __future__ import annotations

import json
from typing import Any

from daycare_gui.stores.common.newlines import newline_of

_WS = " \t\r\n"


class SpliceError(ValueError):
    pass


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _string_end(text: str, i: int) -> int:
    """``text[i]`` is an opening quote; the index just past the closing one."""
    i += 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            return i + 1
        i += 1
    raise SpliceError("unterminated string")


def _value_end(text: str, i: int) -> int:
    if i >= len(text):
        raise SpliceError("value expected")
    ch = text[i]
    if ch == '"':
        return _string_end(text, i)
    if ch in "[{":
        depth = 0
        while i < len(text):
            ch = text[i]
            if ch == '"':
                i = _string_end(text, i)
                continue
            if ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        raise SpliceError("unclosed bracket")
    j = i
    while j < len(text) and text[j] not in _WS + ",]}":
        j += 1
    if j == i:
        raise SpliceError(f"unexpected {ch!r}")
    return j


def members(text: str) -> tuple[list[tuple[str, int, int]], int, int]:
    """``([(key, value_start, value_end)], open_brace, close_brace)`` of the top-level object."""
    i = _skip_ws(text, 0)
    if i >= len(text) or text[i] != "{":
        raise SpliceError("the file is not a JSON object")
    open_at = i
    out: list[tuple[str, int, int]] = []
    i = _skip_ws(text, i + 1)
    if i < len(text) and text[i] == "}":
        return out, open_at, i
    while True:
        if i >= len(text) or text[i] != '"':
            raise SpliceError("key expected")
        key_end = _string_end(text, i)
        key = json.loads(text[i:key_end])
        i = _skip_ws(text, key_end)
        if i >= len(text) or text[i] != ":":
            raise SpliceError("':' expected")
        start = _skip_ws(text, i + 1)
        end = _value_end(text, start)
        out.append((key, start, end))
        i = _skip_ws(text, end)
        if i < len(text) and text[i] == ",":
            i = _skip_ws(text, i + 1)
            continue
        if i < len(text) and text[i] == "}":
            return out, open_at, i
        raise SpliceError("',' or '}' expected")


def _indent_of(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos) + 1
    j = line_start
    while j < len(text) and text[j] in " \t":
        j += 1
    return text[line_start:j]


def _render_list(items: list[Any], multiline: bool, indent: str, unit: str, sep: str = ", ",
                 nl: str = "\n") -> str:
    if not items:
        return "[]"
    parts = [json.dumps(v, ensure_ascii=False) for v in items]
    if not multiline:
        return "[" + sep.join(parts) + "]"
    inner = indent + unit
    return "[" + nl + ("," + nl).join(inner + p for p in parts) + nl + indent + "]"


def _render(value: Any, old: str | None, pretty: bool, indent: str, unit: str, nl: str = "\n") -> str:
    """``value`` laid out like the text it replaces: a list one item per line when the old one was, or
    (when the old one was empty or absent) when the object itself spans several lines."""
    if not isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if old is not None and old.strip() != "[]" and old.strip().startswith("["):
        multiline = "\n" in old
        sep = "," if ("," in old and ", " not in old) else ", "
    else:
        multiline, sep = pretty, ", "
    return _render_list(value, multiline, indent, unit, sep, nl)


def splice_value(text: str, key: str, value: Any) -> str:
    """``text`` with top-level ``key`` set to ``value``; added as the last member when absent."""
    found, open_at, close_at = members(text)
    spans = [(s, e) for k, s, e in found if k == key]
    if len(spans) > 1:
        raise SpliceError(f"the key {key!r} appears {len(spans)} times")
    unit = _indent_unit(text, found)
    nl = newline_of(text)  # inserted lines end as the file's own do: a CRLF file stays CRLF-only
    pretty = "\n" in text[open_at:close_at]
    if spans:
        start, end = spans[0]
        new = _render(value, text[start:end], pretty, _indent_of(text, start), unit, nl)
        return text[:start] + new + text[end:]
    key_text = json.dumps(key, ensure_ascii=False)
    if found:
        last_end = found[-1][2]
        member_indent = _indent_of(text, found[-1][1]) if pretty else ""
        new = _render(value, None, pretty, member_indent, unit, nl)
        sep = ("," + nl + member_indent) if pretty else ", "
        return text[:last_end] + sep + f"{key_text}: {new}" + text[last_end:]
    closing_indent = _indent_of(text, close_at) if pretty else ""
    member_indent = closing_indent + unit
    new = _render(value, None, True, member_indent, unit, nl)
    member = f"{nl}{member_indent}{key_text}: {new}{nl}{closing_indent}"
    return text[: open_at + 1] + member + text[close_at:]


def _indent_unit(text: str, found: list[tuple[str, int, int]]) -> str:
    """The file's indentation step (two spaces, as serde's pretty printer writes, when it cannot tell)."""
    if found:
        first = _indent_of(text, found[0][1])
        if first and text[: found[0][1]].count("\n"):
            return first
    return "  "
