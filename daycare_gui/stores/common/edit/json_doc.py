"""A JSON file edited by splicing: setting one value replaces only that value's text.

Daycare's JSON files are written by people and by ``JSON.stringify(…, null, 2)``; re-dumping a whole file
would reorder nothing but still rewrite spacing, escapes and number spellings the user chose. Here the
text is scanned once into value spans (character offsets), an edit replaces one span (or inserts one
member after the last member of an object), and the result is parsed again and compared with what was
intended: every other value must be unchanged. A file that is not one clean JSON object, that holds a
key twice (which copy would win is a matter of the reader) or that is not UTF-8 is refused, never guessed.

New text follows the file's own style: its indentation unit, its line ending, its ``": "`` spacing, and
whether the container being edited is written on one line or spread over several.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import DocumentError, InvalidValue

BOM = "\ufeff"
_WS = " \t\r\n"
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS = ("true", "false", "null")


@dataclass
class Member:
    """One key of an object: its name, where its (quoted) text starts and ends, and its value."""

    key: str
    start: int
    key_end: int
    value: Node


@dataclass
class Node:
    """One JSON value and where its text is; an object's members and an array's items in file order."""

    kind: str  # "object" | "array" | "scalar"
    start: int
    end: int
    members: list[Member] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)

    def member(self, key: str) -> Member | None:
        for member in self.members:
            if member.key == key:
                return member
        return None


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _no_duplicates(pairs):
    seen = set()
    for key, _value in pairs:
        if key in seen:
            raise DocumentError(f"the key {key!r} appears twice in one object; edit this file by hand")
        seen.add(key)
    return dict(pairs)


class _Scanner:
    """Finds the span of every value. Runs only on text ``json.loads`` accepted, so it can be simple."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _WS:
            self.pos += 1

    def value(self) -> Node:
        self.skip()
        start, ch = self.pos, self.text[self.pos]
        if ch == "{":
            return self._object(start)
        if ch == "[":
            return self._array(start)
        if ch == '"':
            self._string()
            return Node("scalar", start, self.pos)
        for literal in _LITERALS:
            if self.text.startswith(literal, start):
                self.pos += len(literal)
                return Node("scalar", start, self.pos)
        match = _NUMBER.match(self.text, start)
        self.pos = match.end()
        return Node("scalar", start, self.pos)

    def _string(self) -> str:
        start = self.pos
        self.pos += 1
        while self.text[self.pos] != '"':
            self.pos += 2 if self.text[self.pos] == "\\" else 1
        self.pos += 1
        return json.loads(self.text[start:self.pos])

    def _object(self, start: int) -> Node:
        node = Node("object", start, start)
        self.pos += 1
        self.skip()
        if self.text[self.pos] == "}":
            self.pos += 1
            node.end = self.pos
            return node
        while True:
            self.skip()
            key_start = self.pos
            key = self._string()
            key_end = self.pos
            self.skip()
            self.pos += 1  # ':'
            node.members.append(Member(key, key_start, key_end, self.value()))
            self.skip()
            if self.text[self.pos] == "}":
                self.pos += 1
                node.end = self.pos
                return node
            self.pos += 1  # ','

    def _array(self, start: int) -> Node:
        node = Node("array", start, start)
        self.pos += 1
        self.skip()
        if self.text[self.pos] == "]":
            self.pos += 1
            node.end = self.pos
            return node
        while True:
            node.items.append(self.value())
            self.skip()
            if self.text[self.pos] == "]":
                self.pos += 1
                node.end = self.pos
                return node
            self.pos += 1  # ','


def _parse(text: str) -> tuple[Any, Node]:
    try:
        value = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise DocumentError(f"not valid JSON: {exc.msg} (column {exc.colno})", exc.lineno) from None
    except RecursionError:
        raise DocumentError("not valid JSON: nested too deeply") from None
    except ValueError as exc:
        raise DocumentError(f"not valid JSON: {exc}") from None
    return value, _Scanner(text).value()


class JsonDocument:
    """A JSON object file. ``to_bytes()`` of an unedited document is its exact bytes."""

    def __init__(self, text: str, bom: bool) -> None:
        self.text = text
        self.bom = bom
        self.value, self.root = _parse(text)
        if not isinstance(self.value, dict):
            raise DocumentError("the file does not hold a JSON object")

    @classmethod
    def parse(cls, data: bytes) -> JsonDocument:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DocumentError(f"not UTF-8 (byte {exc.start}); edit this file by hand") from None
        bom = text.startswith(BOM)
        return cls(text[1:] if bom else text, bom)

    def to_bytes(self) -> bytes:
        return ((BOM if self.bom else "") + self.text).encode("utf-8")

    def get(self, path: tuple[str, ...], default: Any = None) -> Any:
        node: Any = self.value
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return default
            node = node[key]
        return node

    # --- style of the file ------------------------------------------------------------------------------

    @property
    def eol(self) -> str:
        return "\r\n" if "\r\n" in self.text else "\n"

    def _line_indent(self, offset: int) -> str:
        line_start = self.text.rfind("\n", 0, offset) + 1
        line = self.text[line_start:offset]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def _starts_line(self, offset: int) -> bool:
        line_start = self.text.rfind("\n", 0, offset) + 1
        return not self.text[line_start:offset].strip(" \t")

    def _indent_unit(self) -> str:
        """The file's indentation step, from its first member written on a line of its own (default 2 spaces)."""
        stack = [(self.root, "")]
        while stack:
            node, outer = stack.pop(0)
            children = [m.value for m in node.members] if node.kind == "object" else node.items
            starts = [m.start for m in node.members] if node.kind == "object" else [c.start for c in children]
            for start in starts:
                if self._starts_line(start):
                    inner = self._line_indent(start)
                    if len(inner) > len(outer) and inner.startswith(outer):
                        return inner[len(outer):]
            for child in children:
                if child.kind != "scalar":
                    stack.append((child, self._line_indent(child.start)))
        return "  "

    def _separator(self) -> str:
        """What the file writes between a key and its value (``": "`` unless it says otherwise)."""
        stack = [self.root]
        while stack:
            node = stack.pop(0)
            for member in node.members:
                between = self.text[member.key_end:member.value.start]
                return between if "\n" not in between else ": "
            stack.extend(m.value for m in node.members if m.value.kind == "object")
        return ": "

    def _multiline(self, node: Node) -> bool:
        return "\n" in self.text[node.start:node.end]

    def _render(self, value: Any, indent: str, multiline: bool) -> str:
        separator = self._separator()
        if not multiline or not isinstance(value, (dict, list)) or not value:
            item = "," + (" " if separator.endswith(" ") else "")
            return json.dumps(value, ensure_ascii=False, separators=(item, separator))
        text = json.dumps(value, ensure_ascii=False, indent=self._indent_unit(), separators=(",", separator))
        return text.replace("\n", self.eol + indent)

    # --- editing ---------------------------------------------------------------------------------------

    def set(self, path: tuple[str, ...], value: Any) -> None:
        """Set the value at ``path`` (object keys from the top), creating missing objects on the way."""
        if not path:
            raise InvalidValue("no key given")
        try:
            json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise InvalidValue(f"{'.'.join(path)}: the value cannot be written as JSON ({exc})") from None
        if _canonical(self.get(path, _Missing)) == _canonical(value):
            return
        node, depth = self.root, 0
        while depth < len(path) - 1:
            found = node.member(path[depth])
            if found is None:
                break
            child = found.value
            if child.kind != "object":
                raise InvalidValue(f"{'.'.join(path[: depth + 1])} is not an object, so it has no key {path[depth + 1]!r}")
            node, depth = child, depth + 1
        key, rest = path[depth], path[depth + 1:]
        new_value: Any = value
        for name in reversed(rest):
            new_value = {name: new_value}
        found = node.member(key)
        if found is not None:
            existing = found.value
            empty = existing.kind == "scalar" or not (existing.members or existing.items)
            # A one-line list stays on one line; a scalar or an empty container takes the style of its object.
            multiline = self._multiline(existing) or (empty and self._multiline(node))
            text = self._render(new_value, self._line_indent(found.start), multiline)
            new_text = self.text[:existing.start] + text + self.text[existing.end:]
        else:
            new_text = self._insert_member(node, key, new_value)
        self._replace(new_text, path, value)

    def _insert_member(self, node: Node, key: str, value: Any) -> str:
        separator, eol = self._separator(), self.eol
        if node.members:
            last = node.members[-1]
            last_value = last.value
            if self._starts_line(last.start):
                indent = self._line_indent(last.start)
                member = f",{eol}{indent}{json.dumps(key, ensure_ascii=False)}{separator}"
                member += self._render(value, indent, True)
            else:
                item = "," + (" " if separator.endswith(" ") else "")
                member = f"{item}{json.dumps(key, ensure_ascii=False)}{separator}{self._render(value, '', False)}"
            return self.text[:last_value.end] + member + self.text[last_value.end:]
        if node is not self.root and not self._multiline(self.root):  # a one-line file stays on one line
            member = f"{json.dumps(key, ensure_ascii=False)}{separator}{self._render(value, '', False)}"
            return self.text[:node.start] + "{" + member + "}" + self.text[node.end:]
        outer = self._line_indent(node.start)
        indent = outer + self._indent_unit()
        body = f"{json.dumps(key, ensure_ascii=False)}{separator}{self._render(value, indent, True)}"
        return self.text[:node.start] + "{" + eol + indent + body + eol + outer + "}" + self.text[node.end:]

    def _replace(self, new_text: str, path: tuple[str, ...], value: Any) -> None:
        """Take ``new_text`` only if it parses to the old value with exactly ``path`` changed."""
        expected = json.loads(json.dumps(self.value))
        target = expected
        for name in path[:-1]:
            target = target.setdefault(name, {})
        target[path[-1]] = value
        try:
            parsed, root = _parse(new_text)
        except DocumentError as exc:
            raise DocumentError(f"the edit would not stay valid JSON ({exc}); nothing was changed") from None
        if _canonical(parsed) != _canonical(expected):
            raise DocumentError("the edit would change more than the value asked for; nothing was changed")
        self.text, self.value, self.root = new_text, parsed, root


class _Missing:
    pass


def _canonical(value: Any) -> str:
    """A comparison key that tells 1, 1.0 and true apart (Python's == does not)."""
    if value is _Missing:
        return "\0missing"
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def split_key(text: str) -> tuple[str, ...]:
    """``engine.db.path`` → ("engine", "db", "path"). Empty parts are refused."""
    parts = tuple(text.split("."))
    if not all(part for part in parts):
        raise InvalidValue(f"{text!r} is not a key: use names joined by dots, such as engine.dataDir")
    return parts
