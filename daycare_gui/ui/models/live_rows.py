"""Turn a model's rows into a newer list of rows in place, so views keep their selection and position.

A live store changes a few rows at a time. Resetting the model for that would drop the user's selection,
scroll position and current row; instead the rows that went are removed, the survivors are moved into
their new order (one ``layoutChanged``, persistent indexes follow their rows), and the new ones are
inserted — each step announced to Qt with the matching begin/end calls. Rows whose value changed are
returned so the model can send ``dataChanged`` for just those.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QAbstractItemModel, QModelIndex


def merge_rows(model: QAbstractItemModel, items: list, new_items: list, key: Callable[[Any], Any],
               *, same: Callable[[Any, Any], bool] | None = None) -> list[int] | None:
    """Make ``items`` (the model's own list) equal ``new_items``; returns the rows whose item changed
    (``same(old, new)`` false), or None when the keys are not unique (the caller resets instead)."""
    new_keys = [key(x) for x in new_items]
    if len(set(new_keys)) != len(new_keys) or len({key(x) for x in items}) != len(items):
        return None
    wanted = set(new_keys)

    row = len(items) - 1  # removals from the end, a run at a time
    while row >= 0:
        if key(items[row]) in wanted:
            row -= 1
            continue
        first = row
        while first > 0 and key(items[first - 1]) not in wanted:
            first -= 1
        model.beginRemoveRows(QModelIndex(), first, row)
        del items[first:row + 1]
        model.endRemoveRows()
        row = first - 1

    position = {k: n for n, k in enumerate(new_keys)}
    order = sorted(range(len(items)), key=lambda r: position[key(items[r])])
    if order != list(range(len(items))):  # survivors moved (a sort by "updated" after an update)
        model.layoutAboutToBeChanged.emit()
        moved_to = {old: new for new, old in enumerate(order)}
        persistent = model.persistentIndexList()
        items[:] = [items[r] for r in order]
        model.changePersistentIndexList(
            persistent, [model.index(moved_to[p.row()], p.column()) if p.row() in moved_to else QModelIndex()
                         for p in persistent])
        model.layoutChanged.emit()

    have = {key(x) for x in items}
    n = 0
    while n < len(new_keys):  # items is now a subsequence of new_items: insert what is missing, in order
        if new_keys[n] in have:
            n += 1
            continue
        end = n
        while end < len(new_keys) and new_keys[end] not in have:
            end += 1
        model.beginInsertRows(QModelIndex(), n, end - 1)
        items[n:n] = new_items[n:end]
        model.endInsertRows()
        n = end

    same = same or (lambda a, b: a == b)
    changed = []
    for row, new in enumerate(new_items):
        if items[row] is not new and not same(items[row], new):
            changed.append(row)
        items[row] = new
    return changed


def runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted rows as (first, last) runs, for one ``dataChanged`` per run."""
    out: list[tuple[int, int]] = []
    for row in sorted(rows):
        if out and out[-1][1] == row - 1:
            out[-1] = (out[-1][0], row)
        else:
            out.append((row, row))
    return out
