"""Column descriptions shared by the table models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import Qt

from daycare_gui.stores.common.wording import words_of
from daycare_gui.ui.formats import date_time, number
from daycare_gui.ui.models.roles import KeyRole, RecordRole, SortRole, StateRole


@dataclass(frozen=True)
class Column:
    title: str
    value: Callable[[Any], Any]  # record → the value (also used for sorting unless sort_value is given)
    display: Callable[[Any], str] | None = None  # value → text; default str(), '' for None
    tooltip: Callable[[Any], str] | None = None  # record → tooltip
    sort_value: Callable[[Any], Any] | None = None
    align_right: bool = False

    def text(self, record) -> str:
        v = self.value(record)
        if self.display is not None:
            return self.display(v)
        return "" if v is None else str(v)


def fmt_time(ms: int | None, *, seconds: bool = True) -> str:
    """Local date and time of a Daycare millisecond timestamp, in the locale's order (ui.formats)."""
    return date_time(ms, seconds=seconds)


def heading(column: str) -> str:
    """A kind's column name as a heading: PGlite's lists name theirs as stored ("updated_at", "valid from")
    beside every other table's "Updated at"."""
    words = words_of(column)
    return words[:1].upper() + words[1:]


def list_title(title: str, group: str = "") -> str:
    """A list's caption: its title, after its navigation group's where the title does not say it already
    ("Versions: Tasks cron", but "Memory by namespace" in Memory, "Agent identities" in Agents)."""
    named = group.casefold().removesuffix("s")
    return f"{group}: {title}" if group and named not in title.casefold() else title


def fmt_int(n: int | None) -> str:
    """A count with the locale's digit grouping (1,234,567 / 1.234.567); English grouping in the C locale,
    which has none."""
    return number(n)


# Role numbers looked up once: a table's paint asks every cell for eight or so roles, in Python.
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
# Every role a record-backed model answers; the rest (font, colours, check state, …) are None at once.
ANSWERED_ROLES = frozenset({_DISPLAY, _TOOLTIP, _ALIGN, int(RecordRole), int(SortRole), int(KeyRole),
                            int(StateRole)})


def column_data(col: Column, record, role):
    """The roles every record-backed table answers the same way; None for the rest."""
    if role == _DISPLAY:
        return col.text(record)
    if role == _TOOLTIP:
        return col.tooltip(record) if col.tooltip else None
    if role == RecordRole:
        return record
    if role == SortRole:
        v = (col.sort_value or col.value)(record)
        return v if isinstance(v, (int, float)) else ("" if v is None else str(v))
    if role == _ALIGN and col.align_right:
        return _RIGHT
    return None


def header_title(columns: list[Column], section: int, orientation, role):
    if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
        if 0 <= section < len(columns):
            return columns[section].title
    return None
