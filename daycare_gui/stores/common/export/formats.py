"""The export formats by name, and what their writers share: masking a message and saying times."""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.secrets import mask_free_text, mask_tree
from daycare_gui.stores.records import Message, ToolCallRecord


@dataclass(frozen=True)
class Format:
    name: str  # "md", "html", "jsonl": the command line's --format
    title: str  # "Markdown": the save dialog's filter
    suffix: str  # ".md"
    module: str  # the writer's module in this package

    def writer(self):
        from importlib import import_module

        return import_module(f"daycare_gui.stores.common.export.{self.module}").Writer()

    @property
    def filter(self) -> str:
        """A file dialog's name filter: ``Markdown (*.md)``."""
        return f"{self.title} (*{self.suffix})"


FORMATS = {
    "md": Format("md", "Markdown", ".md", "markdown"),
    "html": Format("html", "HTML page", ".html", "html"),
    "jsonl": Format("jsonl", "JSON Lines, records as stored", ".jsonl", "jsonl"),
}


def format_for_path(path: str, default: str = "md") -> str:
    """The format a file name asks for by its suffix (``.htm`` too), else ``default``."""
    suffix = Path(path).suffix.lower()
    if suffix == ".htm":
        return "html"
    return next((f.name for f in FORMATS.values() if f.suffix == suffix), default)


def masked(m: Message) -> Message:
    """The message with every secret masked in what readable formats show: text, tool arguments, the
    result and the problem (the raw record is masked by the JSONL writer, the one that writes it)."""
    text = mask_free_text(m.text) if m.text else m.text
    calls = tuple(ToolCallRecord(c.id, c.name, mask_tree(c.arguments)) for c in m.tool_calls)
    result = m.tool_result
    if result is not None and result.text:
        result_text = mask_free_text(result.text)
        if result_text != result.text:
            result = replace(result, text=result_text)
    problem = mask_free_text(m.problem) if m.problem else m.problem
    if text == m.text and calls == m.tool_calls and result is m.tool_result and problem == m.problem:
        return m  # the common case: nothing secret, nothing copied
    return replace(m, text=text, tool_calls=calls, tool_result=result, problem=problem)


def utc(ms: int | None) -> str:
    """A stored time as ``2026-03-01 12:00:05 UTC``: exports are read elsewhere, so no local zone."""
    if ms is None:
        return ""
    if not isinstance(ms, (int, float)):  # (a store's odd time: said as it is, not a failed export)
        return str(ms)
    try:
        moment = _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc)
    except (OverflowError, OSError, ValueError):
        return f"{ms} ms"
    return (f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d} "  # strftime costs more per record
            f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d} UTC")


def arguments_text(value: Any) -> tuple[str, str]:
    """Tool arguments as (text, language): JSON indented, or the string as it is."""
    if value is None:
        return "", "json"
    if isinstance(value, str):
        return value, _language_of(value)
    try:
        return json.dumps(value, ensure_ascii=False, indent=2), "json"
    except (TypeError, ValueError):
        return str(value), "text"


def _language_of(text: str) -> str:
    stripped = text.strip()
    if stripped[:1] in ("{", "[") and stripped[-1:] in ("}", "]"):
        try:
            json.loads(stripped)
            return "json"
        except ValueError:
            pass
    return "text"


def result_language(text: str) -> str:
    return _language_of(text)


def who(m: Message) -> str:
    """``assistant``, or ``alice → bob`` when the store says who sent it to whom."""
    if m.author and m.recipient:
        return f"{m.author} → {m.recipient}"
    return m.author or m.role or "?"
