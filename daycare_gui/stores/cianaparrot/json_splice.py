"""Faithful edits of JSON text: change one value's characters and nothing else.

A small position-keeping parser finds the span of every value, so an edit replaces exactly the text of
the value that changed (or inserts/removes one member in the style of its neighbours). Whitespace, key
order, unknown keys and the escaping of untouched strings stay byte-identical.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from json.decoder import scanstring
from typing import Any

from daycare_gui.stores.common.newlines import newline_of

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
# NaN and the infinities are not JSON, but Python's json (the bot's reader and writer) takes them as
# numbers: a file holding one is still the bot's, and its other values must stay editable.
_WORDS = (("true", True), ("false", False), ("null", None),
          ("NaN", float("nan")), ("Infinity", float("inf")), ("-Infinity", float("-inf")))


class SpliceError(ValueError):
    pass


class RepeatedKey(SpliceError):
    """The key to change is written more than once in its object. Python's json (the bot's reader) keeps the
    last, so changing the first would be saved yet never seen, and changing the last would hide the first."""

    def __init__(self, key: str, count: int) -> None:
        super().__init__(f"the key {json.dumps(key)} appears {count} times in one object")
        self.key, self.count = key, count


@dataclass
class Node:
    start: int
    end: int
    value: Any = None  # for scalars
    items: list[Node] = field(default_factory=list)  # arrays
    members: list[tuple[str, int, Node]] = field(default_factory=list)  # objects: (key, key start, value)
    kind: str = "scalar"

    def member(self, key: str) -> Node | None:
        """The value of ``key``; raises :class:`RepeatedKey` when the object writes it more than once."""
        found = [n for k, _, n in self.members if k == key]
        if len(found) > 1:
            raise RepeatedKey(key, len(found))
        return found[0] if found else None


def parse(text: str) -> Node:
    node, pos = _value(text, _skip(text, 0), 0)
    if _skip(text, pos) != len(text):
        raise SpliceError(f"extra data at character {pos}")
    return node


def _skip(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()


def _value(text: str, pos: int, depth: int) -> tuple[Node, int]:
    if depth > 200:
        raise SpliceError("nested too deeply")
    if pos >= len(text):
        raise SpliceError("unexpected end of text")
    ch = text[pos]
    if ch == "{":
        node = Node(pos, pos, kind="object")
        pos = _skip(text, pos + 1)
        if text.startswith("}", pos):
            node.end = pos + 1
            return node, pos + 1
        while True:
            if not text.startswith('"', pos):
                raise SpliceError(f"expected a key at character {pos}")
            key_start = pos
            key, pos = scanstring(text, pos + 1)
            pos = _skip(text, pos)
            if not text.startswith(":", pos):
                raise SpliceError(f"expected ':' at character {pos}")
            child, pos = _value(text, _skip(text, pos + 1), depth + 1)
            node.members.append((key, key_start, child))
            pos = _skip(text, pos)
            if text.startswith(",", pos):
                pos = _skip(text, pos + 1)
                continue
            if text.startswith("}", pos):
                node.end = pos + 1
                return node, pos + 1
            raise SpliceError(f"expected ',' or '}}' at character {pos}")
    if ch == "[":
        node = Node(pos, pos, kind="array")
        pos = _skip(text, pos + 1)
        if text.startswith("]", pos):
            node.end = pos + 1
            return node, pos + 1
        while True:
            child, pos = _value(text, pos, depth + 1)
            node.items.append(child)
            pos = _skip(text, pos)
            if text.startswith(",", pos):
                pos = _skip(text, pos + 1)
                continue
            if text.startswith("]", pos):
                node.end = pos + 1
                return node, pos + 1
            raise SpliceError(f"expected ',' or ']' at character {pos}")
    if ch == '"':
        value, end = scanstring(text, pos + 1)
        return Node(pos, end, value), end
    for word, value in _WORDS:
        if text.startswith(word, pos):
            return Node(pos, pos + len(word), value), pos + len(word)
    m = _NUMBER.match(text, pos)
    if m:
        return Node(pos, m.end(), json.loads(m.group())), m.end()
    raise SpliceError(f"unexpected character at {pos}")


def dumps(value: Any, text: str) -> str:
    """A new value's text, escaped like the file (ASCII-only files stay ASCII-only)."""
    return json.dumps(value, ensure_ascii=text.isascii())


def _line_indent(text: str, pos: int) -> str:
    line_start = max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1
    return text[line_start:pos] if not text[line_start:pos].strip() else ""


def set_member(text: str, obj: Node, key: str, value: Any) -> str:
    """``text`` with ``obj[key]`` set to ``value``: the value's span replaced, or one member added."""
    existing = obj.member(key)
    new = dumps(value, text)
    if existing is not None:
        return text[: existing.start] + new + text[existing.end:]
    entry = f"{dumps(key, text)}: {new}"
    if not obj.members:
        return text[: obj.start] + "{" + entry + "}" + text[obj.end:]
    _, last_key_start, last = obj.members[-1]
    indent = _line_indent(text, last_key_start)
    on_own_line = indent or text[last_key_start - 1: last_key_start] in ("\n", "\r")
    sep = f",{newline_of(text)}{indent}" if on_own_line else ", "  # the file's own line ending
    return text[: last.end] + sep + entry + text[last.end:]


def remove_member(text: str, obj: Node, key: str) -> str:
    obj.member(key)  # a repeated key is refused: removing one would leave the other for the bot to read
    for i, (k, key_start, node) in enumerate(obj.members):
        if k != key:
            continue
        if i > 0:  # from the end of the previous value (its comma goes with us)
            cut_from = obj.members[i - 1][2].end
            return text[:cut_from] + text[node.end:]
        if len(obj.members) > 1:  # first of several: up to the next key
            return text[:key_start] + text[obj.members[1][1]:]
        return text[: obj.start + 1] + text[obj.end - 1:]
    return text
