"""A list the store filters and sorts itself: :class:`Listing`, keys only and rows on demand, with the
defaults that answer from every row (filtered and sorted here)."""

from __future__ import annotations

from typing import Any

from daycare_gui.stores.records import FilterSpec, Query, Row


class Listing:
    """Keys only, rows on demand: a list the store filters and sorts itself (in SQL where it has SQL).

    A mixin for :class:`Collections` (``list_id`` = a collection's id) and :class:`Conversations`
    (``list_id`` = ``"threads"``). The window asks ``keys(list_id, query)`` on its worker — an ordered list
    of narrow keys, cheap even for 100,000 rows — then ``fetch`` for the rows it shows. The defaults answer
    from ``list_rows`` (every row, filtered here), so a kind with small lists offers nothing more; a kind
    with big ones overrides ``keys``/``fetch`` with its own queries.
    """

    def filters(self, list_id: str) -> tuple[FilterSpec, ...]:
        """The filters the list offers, beyond the words in ``Query.text`` (always offered)."""
        return ()

    def sorts(self, list_id: str) -> tuple[str, ...]:
        """Column titles the store can sort by ("" not among them: the list's own order)."""
        return ()

    def list_columns(self, list_id: str) -> tuple[str, ...]:
        """The column titles of the list's rows (for the default sort); a collection's own columns."""
        for c in getattr(self, "collections", lambda: [])():
            if c.id == list_id:
                return c.columns
        return ()

    def list_rows(self, list_id: str) -> list[Row]:
        """Every row of the list, for the defaults below. Kinds overriding keys/fetch need not fill it."""
        return []

    def totals(self, list_id: str, query: Query) -> dict[str, int]:
        """Labelled totals for the line above the list ("stuck": 3); the default counts flags."""
        out: dict[str, int] = {}
        for row in self.list_rows(list_id):
            if row.flag:
                out[row.flag] = out.get(row.flag, 0) + 1
        return out

    def keys(self, list_id: str, query: Query) -> list[str]:
        rows = [r for r in self.list_rows(list_id) if row_matches(r, query)]
        if query.sort:
            index = _sort_index(self, list_id, query.sort)
            if index is not None:
                rows.sort(key=lambda r: _sort_value(r.values[index] if index < len(r.values) else None),
                          reverse=query.descending)
        elif query.descending:
            rows.reverse()
        return [r.key for r in rows]

    def fetch(self, list_id: str, keys: list[str]) -> list[Row]:
        """The rows of ``keys``, in that order; a key gone meanwhile is left out."""
        wanted = set(keys)
        by_key = {r.key: r for r in self.list_rows(list_id) if r.key in wanted}
        return [by_key[k] for k in keys if k in by_key]


def row_matches(row: Row, query: Query) -> bool:
    """Whether ``row`` passes ``query``'s flags, parent and words, as :meth:`Listing.query` filters: for a
    kind that lists rows of its own and filters them alike."""
    if query.flags and row.flag not in query.flags:
        return False
    if query.parent is not None and row.parent != query.parent:
        return False
    if query.text:
        words = query.text.casefold().split()
        hay = " ".join("" if v is None else str(v) for v in row.values).casefold()
        if not all(w in hay for w in words):
            return False
    return True


def _sort_index(listing: Listing, list_id: str, sort: str) -> int | None:
    columns = listing.list_columns(list_id)
    return columns.index(sort) if sort in columns else None


def _sort_value(value: Any) -> tuple:
    # None last, numbers before text, text without case: a sort never raises on mixed columns.
    if value is None:
        return (2, 0, "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value).casefold())
