"""Errors raised by the document model. Both carry a message meant for the person editing."""

from __future__ import annotations


class DocumentError(Exception):
    """The document cannot be edited this way (broken frontmatter, not UTF-8, an edit that would not stay faithful)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class InvalidValue(ValueError):
    """A value was refused before anything was changed (bad cron expression, bad rule, bad task id)."""
