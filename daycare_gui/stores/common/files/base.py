"""Shared pieces of the typed file records: JSON-safe ``to_dict``, the ``Loaded`` result and small helpers."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

from daycare_gui.stores.problems import Problem

T = TypeVar("T")


def plain(value: Any) -> Any:
    """Turn records, paths and tuples into JSON-serialisable values (for the CLI's ``--json`` and tests)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_dict = getattr(value, "to_dict", None)
        if to_dict is not None:
            return to_dict()
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


class RecordMixin:
    """``to_dict`` over the dataclass fields; fields marked ``metadata={"hidden": True}`` are left out."""

    def to_dict(self) -> dict:
        out = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if f.metadata.get("hidden"):
                continue
            out[f.name] = plain(getattr(self, f.name))
        return out


@dataclasses.dataclass(frozen=True)
class Loaded(Generic[T]):
    """What every collection reader returns: the items it could read and the problems it met.

    Unpacks like a pair: ``items, problems = read_cron_tasks(paths)``.
    """

    items: tuple[T, ...]
    problems: tuple[Problem, ...] = ()

    def __iter__(self):
        return iter((self.items, self.problems))

    def __len__(self) -> int:
        return 2


def loaded(items: Iterable[T], problems: Iterable[Problem]) -> Loaded[T]:
    return Loaded(tuple(items), tuple(problems))


def split_known(mapping: dict, known: Iterable[str]) -> dict:
    """The keys of ``mapping`` a reader does not interpret (shown to the user as "extra" fields)."""
    known = set(known)
    return {k: v for k, v in mapping.items() if k not in known}


def iso_to_ms(value: Any) -> int | None:
    """An ISO timestamp (as written by ``Date.toISOString``) to Unix ms, like JavaScript's ``Date.parse``."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        return None
    if dt.tzinfo is None:
        # Date.parse reads a date-time without offset as local time; so do we.
        dt = dt.astimezone()
    return int(round(dt.timestamp() * 1000))


def as_int(value: Any) -> int | None:
    """A finite number as int (JSON numbers may arrive as float); None for anything else or booleans."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == value and value not in (float("inf"), float("-inf")):
        return int(value)
    return None


def as_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def nonblank(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
