"""How a keyed list's cells read: moments as times, the stored value behind a label, the totals line."""

from __future__ import annotations

from daycare_gui.stores.records import Row
from daycare_gui.ui.models.columns import Column, fmt_time, heading
from daycare_gui.ui.panes.generic.collection import _text


def _is_time(column: str, value) -> bool:
    """Milliseconds since 1970 in a column named for a moment ("posted", "created_at", "deliver at")."""
    name = column.lower()
    return (isinstance(value, int) and not isinstance(value, bool) and 10**11 < value < 10**14
            and (name in ("posted", "at", "when") or name.endswith(("_at", " at"))))


def cell_text(column: str, value, *, seconds: bool = True) -> str:
    return fmt_time(value, seconds=seconds) if _is_time(column, value) else _text(value)


def stored_behind(row: Row, column: str, value):
    """The stored value behind a label the store put in the cell (a user's id behind their name), or None."""
    raw = row.raw.get(column) if isinstance(row.raw, dict) else None
    if isinstance(raw, (str, int)) and not isinstance(raw, bool) and isinstance(value, str) and raw != value:
        return raw
    return None


def _tooltip(row: Row, i: int, title: str) -> str:
    value = row.values[i] if i < len(row.values) else None
    behind = stored_behind(row, title, value)
    return (row.problem or row.flag) or (str(behind) if behind is not None else cell_text(title, value))


def list_columns(titles: tuple[str, ...]) -> list[Column]:
    """The columns of a kind's list, headed in words; each cell is formatted by its stored name."""
    return [Column(heading(t), (lambda r, i=i: r.values[i] if i < len(r.values) else None),
                   (lambda v, t=t: cell_text(t, v, seconds=False)),  # (to the second in the tooltip)
                   tooltip=(lambda r, i=i, t=t: _tooltip(r, i, t))) for i, t in enumerate(titles)]


def totals_text(count: int, totals: dict[str, int], narrowed: bool) -> str:
    """"9 items, 5 stuck": the store's totals, after the number of rows unless one of them says it."""
    parts = [f"{v:,} {k[:-1] if v == 1 and k.endswith('s') else k}" for k, v in totals.items()]  # 1 item
    if count not in totals.values():
        parts.insert(0, f"{count:,} {'row' if count == 1 else 'rows'}")
    return ", ".join(parts) + (" (filtered)" if narrowed else "")
