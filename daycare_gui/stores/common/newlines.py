"""The line ending a text file already uses, so text we insert matches it (a CRLF file stays CRLF-only)."""

from __future__ import annotations


def newline_of(text: str, default: str = "\n") -> str:
    """The file's first line break ("\\r\\n", "\\n" or a lone "\\r"); ``default`` for a single-line text."""
    lf, cr = text.find("\n"), text.find("\r")
    if lf < 0 and cr < 0:
        return default
    if cr < 0 or 0 <= lf < cr:
        return "\n"
    return "\r\n" if text.startswith("\r\n", cr) else "\r"
