"""A Markdown file with optional YAML frontmatter, edited without disturbing anything it was not asked to change.

The file is kept as exact text pieces — BOM, opening ``---`` line, header (the YAML), closing line,
body — so an unchanged document writes back byte for byte, whatever it holds (CRLF, mixed line
endings, no final newline, broken YAML, even bytes that are not UTF-8).

Editing a key never re-dumps the header: that would reformat quoting, indentation and comments.
Instead the key's value span is found from the YAML node marks and only that span is replaced (or the
key's lines removed, or one line appended). Every edit is then checked by loading the new header and
comparing it with the old one: every other key must be unchanged and the edited key must hold exactly
the new value. If not, :class:`DocumentError` is raised and the document stays as it was.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

from . import yaml_text
from .errors import DocumentError
from .line_breaks import EditorText, restore_line_breaks

BOM = b"\xef\xbb\xbf"
_MISSING = object()
_HEADER_FIRST_LINE = 2  # the opening --- is line 1 of the file
_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class FrontmatterProblem:
    """Why the frontmatter cannot be read; ``line`` is 1-based in the whole file."""

    message: str
    line: int | None

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line is not None else self.message


def split_lines(text: str) -> list[str]:
    """Lines with their own endings. Only ``\\n`` ends a line (str.splitlines would also split on \\x0b, \\u2028…)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def line_ending_of(text: str, default: str = "\n") -> str:
    """The ending of the first line of ``text`` ("\\r\\n" or "\\n"): what new lines in that text should use."""
    index = text.find("\n")
    if index < 0:
        return default
    return "\r\n" if index > 0 and text[index - 1] == "\r" else "\n"


def _strip_line_ending(line: str) -> str:
    return line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith("\n") else line


def _is_marker(line: str) -> bool:
    return line.rstrip(" \t\r\n") == "---"


@dataclass
class _Entry:
    """Where one top-level key lives in the header text (character offsets)."""

    key: Any
    line_start: int  # start of the key's first line
    key_start: int  # where the key's text (maybe quoted) begins
    colon: int  # index of the ':' after the key
    value_node: Any
    content_end: int  # end of the value's last content line (before its line ending)
    line_end: int  # just past content_end's line ending


class FrontmatterDocument:
    """Markdown + optional YAML frontmatter. Build with :meth:`parse`; write with :meth:`to_bytes`."""

    def __init__(self) -> None:
        self._original = b""
        self._bom = False
        self._undecodable: str | None = None  # why the bytes are not UTF-8, if they are not
        self._open = ""  # the opening "---" line with its ending; "" when there is no frontmatter
        self._header = ""  # the YAML text between the markers, exactly
        self._close = ""  # the closing "---" line with its ending (may lack one at end of file)
        self._body = ""
        self._values: dict = {}
        self.error: FrontmatterProblem | None = None

    # --- reading ---------------------------------------------------------------------------------

    @classmethod
    def parse(cls, data: bytes) -> FrontmatterDocument:
        """Never raises: problems end up in :attr:`error`, and the bytes still write back unchanged."""
        doc = cls()
        doc._original = bytes(data)
        doc._bom = data.startswith(BOM)
        payload = data[len(BOM) :] if doc._bom else data
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = payload[: exc.start].count(b"\n") + 1
            doc._undecodable = f"the file is not valid UTF-8 (byte {exc.start + (3 if doc._bom else 0)}, line {line})"
            doc.error = FrontmatterProblem(doc._undecodable + "; it can be viewed but not edited", line)
            return doc
        doc._split(text)
        return doc

    def _split(self, text: str) -> None:
        lines = split_lines(text)
        self._open = self._header = self._close = self._body = ""
        self._values, self.error = {}, None
        if not lines or not lines[0].endswith("\n") or not _is_marker(lines[0]):
            self._body = text
            return
        self._open = lines[0]
        for index in range(1, len(lines)):
            if _is_marker(lines[index]):
                self._header = "".join(lines[1:index])
                self._close = lines[index]
                self._body = "".join(lines[index + 1 :])
                self._load_header()
                return
        self._header = "".join(lines[1:])
        self.error = FrontmatterProblem("the frontmatter opened with --- is never closed by a --- line", 1)

    def _load_header(self) -> None:
        self._values, self.error = {}, None
        try:
            values = yaml_text.load_safe(self._header)
        except MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = _HEADER_FIRST_LINE + self._header.count("\n", 0, mark.index) if mark is not None else None
            message = " ".join(str(part) for part in (exc.context, exc.problem) if part) or str(exc)
            self.error = FrontmatterProblem(f"the frontmatter is not valid YAML: {message}", line)
            return
        except Exception as exc:  # reader errors (control characters), bad timestamps, deep nesting…
            position = getattr(exc, "position", None)
            line = _HEADER_FIRST_LINE + self._header.count("\n", 0, position) if isinstance(position, int) else None
            self.error = FrontmatterProblem(f"the frontmatter is not valid YAML: {exc}", line)
            return
        if values is None:
            values = {}
        if not isinstance(values, dict):
            kind = "list" if isinstance(values, list) else type(values).__name__
            self.error = FrontmatterProblem(f"the frontmatter must be key: value pairs, not a {kind}", _HEADER_FIRST_LINE)
            return
        self._values = values

    @property
    def has_frontmatter(self) -> bool:
        return bool(self._open)

    @property
    def editable(self) -> bool:
        """True when keys can be edited (UTF-8, frontmatter absent or readable)."""
        return self._undecodable is None and self.error is None

    @property
    def eol(self) -> str:
        """The line ending new lines get: the header's own if it has one, else the file's first, else LF."""
        return line_ending_of(self._open + self._header, line_ending_of(self._body))

    def keys(self) -> list:
        """Top-level keys in file order (empty when the frontmatter is missing or unreadable)."""
        return list(self._values)

    def get(self, key: Any, default: Any = None) -> Any:
        return self._values.get(key, default)

    def __contains__(self, key: Any) -> bool:
        return key in self._values

    def values(self) -> dict:
        return dict(self._values)

    @property
    def header_text(self) -> str:
        """The YAML between the markers, exactly as in the file."""
        return self._header

    @property
    def raw_text(self) -> str:
        """The whole file as text (without BOM). For bytes that are not UTF-8 this is a lossy view for display."""
        if self._undecodable is not None:
            payload = self._original[len(BOM) :] if self._bom else self._original
            return payload.decode("utf-8", errors="replace")
        return self._open + self._header + self._close + self._body

    @property
    def body(self) -> str:
        """The Markdown after the frontmatter, with line endings shown as ``\\n``."""
        return self._body.replace("\r\n", "\n")

    @property
    def raw_body(self) -> str:
        return self._body

    @property
    def shown_body(self) -> str:
        """The body as a text editor shows it: every line break (CRLF, a lone CR, U+2028…) a ``\\n``."""
        return EditorText(self._body).shown

    @property
    def shown_text(self) -> str:
        """The whole text as a text editor shows it (see :attr:`shown_body`)."""
        return EditorText(self.raw_text).shown

    def to_bytes(self) -> bytes:
        if self._undecodable is not None:
            return self._original
        return (BOM if self._bom else b"") + self.raw_text.encode("utf-8")

    @property
    def modified(self) -> bool:
        return self.to_bytes() != self._original

    # --- raw edits (work even when the frontmatter is broken) ----------------------------------

    def set_raw_text(self, text: str) -> None:
        """Replace the whole file's text (BOM state kept); the result is parsed again, so errors may clear."""
        yaml_text._check_encodable(text)
        self._undecodable = None
        self._split(text)

    def set_shown_text(self, text: str) -> None:
        """Replace the whole text with what an editor holds after an edit of :attr:`shown_text`: lines the
        edit kept keep their own line endings, new lines take the file's most common one."""
        self.set_raw_text(restore_line_breaks(self.raw_text, text, self.eol))

    def set_header_text(self, text: str) -> None:
        """Replace the YAML between the markers (adding markers if the file had none)."""
        yaml_text._check_encodable(text)
        self._require_text()
        eol = self.eol
        if text and not text.endswith("\n"):
            text += eol
        if not self._open:
            self._open = "---" + eol
        if not self._close:
            self._close = "---" + eol
        self._header = text
        self._load_header()

    def set_body(self, text: str) -> None:
        """Replace the body with ``text`` as an editor gives it (line feeds; CRLF is read as one too).

        Each line the edit kept, or changed in place, keeps its own line ending (a file may mix CRLF and
        LF, or hold a lone CR or U+2028 an editor shows as a break); new lines take the body's most common
        ending (the header's when the body has none). Unchanged text keeps the exact original."""
        self._require_text()
        if self._open and not self._close:
            raise DocumentError("the frontmatter is never closed; fix it in the raw text first", 1)
        body = restore_line_breaks(self._body, text.replace("\r\n", "\n"), self.eol)
        if body == self._body:
            return
        yaml_text._check_encodable(body)
        self._body = body

    def set_raw_body(self, text: str) -> None:
        """Replace the body with exactly ``text`` (no line-ending conversion)."""
        self._require_text()
        if self._open and not self._close:
            raise DocumentError("the frontmatter is never closed; fix it in the raw text first", 1)
        yaml_text._check_encodable(text)
        self._body = text

    # --- key edits -------------------------------------------------------------------------------

    def set(self, key: Any, value: Any) -> None:
        """Set one top-level key, changing only that key's value text (or appending ``key: value``)."""
        self._require_editable()
        value = _normalize(value)
        if key in self._values and yaml_text.same_value(self._values[key], value):
            return
        entries = self._entries()
        entry = next((e for e in entries if yaml_text.same_value(e.key, key)), None)
        if entry is None:
            new_header = self._header + self._new_entry_text(key, value)
        else:
            new_header = self._replace_value(entry, value)
        self._commit(new_header, key, value)

    def delete(self, key: Any) -> None:
        """Remove a key and its value lines; comments and blank lines after it stay."""
        self._require_editable()
        entry = next((e for e in self._entries() if yaml_text.same_value(e.key, key)), None)
        if entry is None:
            return
        self._commit(self._header[: entry.line_start] + self._header[entry.line_end :], key, _MISSING)

    def rename_key(self, old: Any, new: str) -> None:
        """Give a key a new name in place (same line, same value text)."""
        self._require_editable()
        if new in self._values:
            raise DocumentError(f"the frontmatter already has a key {new!r}")
        entry = next((e for e in self._entries() if yaml_text.same_value(e.key, old)), None)
        if entry is None:
            raise DocumentError(f"the frontmatter has no key {old!r}")
        new_header = self._header[: entry.key_start] + yaml_text.emit_key(new) + self._header[entry.colon :]
        expected = {(new if k == old else k): v for k, v in self._values.items()}
        self._check(new_header, expected, f"renaming {old!r}")
        self._header, self._values = new_header, yaml_text.load_safe(new_header) or {}

    # --- internals -------------------------------------------------------------------------------

    def _require_text(self) -> None:
        if self._undecodable is not None:
            raise DocumentError(self._undecodable + "; refusing to edit it")

    def _require_editable(self) -> None:
        self._require_text()
        if self.error is not None:
            raise DocumentError(
                f"{self.error.message}; fix the frontmatter in the raw text before editing fields", self.error.line
            )

    def _root_node(self):
        node = yaml_text.compose(self._header)
        if node is None:
            return None
        if not isinstance(node, MappingNode) or node.flow_style:
            raise DocumentError("the frontmatter is written as a { } flow mapping; edit it as raw text", _HEADER_FIRST_LINE)
        if any(k.tag == _MERGE_TAG for k, _ in node.value):
            raise DocumentError("the frontmatter uses YAML merge keys (<<); edit it as raw text", _HEADER_FIRST_LINE)
        return node

    def _entries(self) -> list[_Entry]:
        node = self._root_node()
        if node is None:
            return []
        header = self._header
        keys = list(self._values)
        if len(keys) != len(node.value):
            raise DocumentError("the frontmatter's keys could not be located; edit it as raw text")
        starts = [header.rfind("\n", 0, k.start_mark.index) + 1 for k, _ in node.value]
        entries = []
        for index, ((key_node, value_node), key) in enumerate(zip(node.value, keys, strict=False)):
            line_start = starts[index]
            if header[line_start : key_node.start_mark.index].strip(" "):
                raise DocumentError(f"the key {key!r} does not start its own line; edit it as raw text")
            colon = key_node.end_mark.index
            while colon < len(header) and header[colon] in " \t":
                colon += 1
            if colon >= len(header) or header[colon] != ":":
                raise DocumentError(f"the key {key!r} is written in a form that cannot be edited; edit it as raw text")
            boundary = starts[index + 1] if index + 1 < len(starts) else len(header)
            content_end, line_end = _value_extent(header, colon + 1, boundary)
            entries.append(_Entry(key, line_start, key_node.start_mark.index, colon, value_node, content_end, line_end))
        return entries

    def _replace_value(self, entry: _Entry, value: Any) -> str:
        header, node = self._header, entry.value_node
        block_list = isinstance(value, list) and len(value) > 0
        scalar_style = node.style if isinstance(node, ScalarNode) and node.style in (None, "'", '"') else None
        starts_after_colon = node.start_mark.index > entry.colon  # False for an *alias (marks of the anchor)
        precise = starts_after_colon and (
            (isinstance(node, ScalarNode) and node.style in (None, "'", '"') and node.end_mark.index > node.start_mark.index)
            or (isinstance(node, (MappingNode, SequenceNode)) and node.flow_style)
        )
        if precise and not block_list:
            text = yaml_text.emit_inline(value, scalar_style)
            return header[: node.start_mark.index] + text + header[node.end_mark.index :]
        if block_list:
            indent, item_style = "  ", None
            if isinstance(node, SequenceNode) and not node.flow_style and node.value and starts_after_colon:
                dash_line = header.rfind("\n", 0, node.start_mark.index) + 1
                candidate = header[dash_line : node.start_mark.index]
                if candidate.strip(" ") == "":
                    indent = candidate
                first = node.value[0]
                if isinstance(first, ScalarNode) and first.style in (None, "'", '"'):
                    item_style = first.style
            replacement = self._header_eol() + yaml_text.emit_block_list(
                value, indent=indent, style=item_style, eol=self._header_eol()
            )
        else:
            replacement = " " + yaml_text.emit_inline(value, scalar_style)
        return header[: entry.colon + 1] + replacement + header[entry.content_end :]

    def _new_entry_text(self, key: Any, value: Any) -> str:
        eol = self._header_eol()
        if isinstance(value, list) and value:
            items = yaml_text.emit_block_list(value, indent="  ", style=None, eol=eol)
            return f"{yaml_text.emit_key(key)}:{eol}{items}{eol}"
        return f"{yaml_text.emit_key(key)}: {yaml_text.emit_inline(value)}{eol}"

    def _header_eol(self) -> str:
        return line_ending_of(self._header, self.eol)

    def _commit(self, new_header: str, key: Any, value: Any) -> None:
        expected = dict(self._values)
        if value is _MISSING:
            expected.pop(key, None)
        else:
            expected[key] = value
        self._check(new_header, expected, f"setting {key!r}" if value is not _MISSING else f"removing {key!r}")
        if not self._open:  # first key of a file without frontmatter: add the markers
            eol = self.eol
            self._open, self._close = "---" + eol, "---" + eol
        self._header = new_header
        self._values = yaml_text.load_safe(new_header) or {}

    def _check(self, new_header: str, expected: dict, what: str) -> None:
        """The safety net: the edited header must load to exactly ``expected`` (same keys, order, values)."""
        try:
            loaded = yaml_text.load_safe(new_header)
        except Exception as exc:
            raise DocumentError(f"{what} would break the frontmatter ({exc}); nothing was changed") from exc
        loaded = {} if loaded is None else loaded
        if not isinstance(loaded, dict) or list(loaded) != list(expected):
            raise DocumentError(f"{what} would change other keys of the frontmatter; nothing was changed")
        for name, old in expected.items():
            if not yaml_text.same_value(loaded[name], old):
                raise DocumentError(f"{what} would change the value of {name!r}; nothing was changed")


def _value_extent(header: str, start: int, boundary: int) -> tuple[int, int]:
    """Where a key's value text ends: its last line that is not blank or a comment, before ``boundary``.

    Blank lines and comments between this key's value and the next key belong to neither, so they are
    kept when the value is replaced or the key removed.
    """
    lines = split_lines(header[start:boundary])
    if not lines:
        return start, start
    last = 0
    for index in range(1, len(lines)):
        stripped = lines[index].strip()
        if stripped and not stripped.startswith("#"):
            last = index
    kept = "".join(lines[: last + 1])
    line_end = start + len(kept)
    content_end = start + len(_strip_line_ending(kept) if kept.endswith("\n") else kept)
    return content_end, line_end


def _normalize(value: Any) -> Any:
    """Tuples become lists (what a loader gives back); datetimes are refused (their YAML form is ambiguous)."""
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list):
        return [_normalize(v) for v in value]
    if isinstance(value, dict):
        return {k: _normalize(v) for k, v in value.items()}
    if isinstance(value, _dt.datetime):
        raise DocumentError("date-times cannot be written faithfully; write an ISO string instead")
    return value
