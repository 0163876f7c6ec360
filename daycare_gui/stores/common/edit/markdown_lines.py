"""Markdown headings found line by line, the way Daycare's readers find them (fenced code skipped)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^(`{3,}|~{3,})")


@dataclass(frozen=True)
class Heading:
    index: int  # line index
    level: int
    title: str


def line_text(line: str) -> str:
    """A line without its ending."""
    return line.rstrip("\r\n")


def headings(lines: list[str]) -> list[Heading]:
    """ATX headings (``## Title``) outside fenced code blocks, in order."""
    found: list[Heading] = []
    fence: str | None = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        fence_match = _FENCE.match(stripped)
        if fence is not None:
            if fence_match and stripped.startswith(fence[0] * len(fence)) and stripped.strip(fence[0]) == "":
                fence = None
            continue
        if fence_match:
            fence = fence_match.group(1)
            continue
        match = _HEADING.match(stripped)
        if match:
            found.append(Heading(index, len(match.group(1)), match.group(2)))
    return found


def section_end(all_headings: list[Heading], start: Heading, n_lines: int, *, stop_level: int | None = None) -> int:
    """Index of the first line after ``start``'s section: the next heading of level <= stop_level (default: start's)."""
    limit = start.level if stop_level is None else stop_level
    for heading in all_headings:
        if heading.index > start.index and heading.level <= limit:
            return heading.index
    return n_lines


def to_eol(text: str, eol: str) -> str:
    """Text with its line breaks written as ``eol``."""
    text = text.replace("\r\n", "\n")
    return text.replace("\n", eol) if eol != "\n" else text
