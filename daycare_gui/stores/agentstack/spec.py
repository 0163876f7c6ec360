"""The shape every AgentStack list has: a size, pages of rows, one row by key, and (for a few) edits.

``TableSpec`` covers the common case — one table, ordered, paged by LIMIT/OFFSET — and leaves building a
:class:`Row` from a record to the list. Lists that need more (trees, groups) subclass :class:`Spec`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from daycare_gui.stores.agentstack.database import Database
from daycare_gui.stores.api import EditableField, WriteRefused
from daycare_gui.stores.records import Collection, Row

BATCH = 400  # ids per IN (...) list: well under SQLite's variable limit


class ListedStore(Protocol):
    """What a list uses of its store (kind.AgentStackStore). Named here rather than imported from the kind
    module, which builds the store's capabilities from these lists: the two imported each other."""

    db: Database

    def has(self, table: str, column: str | None = None) -> bool: ...

    def col(self, table: str, column: str, alias: str | None = None, prefix: str = "") -> str: ...

    def note_problem(self, table: str, key: str, message: str, severity: str = "error") -> None: ...


class Spec:
    id = ""
    title = ""
    columns: tuple[str, ...] = ()
    tree = False
    group = ""
    tables: tuple[str, ...] = ()  # offered only when the store has these

    def __init__(self, store: ListedStore) -> None:
        self.store = store
        self.db = store.db

    def available(self) -> bool:
        return all(self.store.has(t) for t in self.tables)

    def collection(self) -> Collection:
        return Collection(self.id, self.title, self.columns, tree=self.tree, group=self.group)

    def size(self) -> int:
        raise NotImplementedError

    def rows(self, offset: int, limit: int) -> list[Row]:
        raise NotImplementedError

    def items(self) -> int | None:
        """Its own items, where its rows hold more (see Collections.items); None: the rows are the items."""
        return None

    def row(self, key: str) -> Row | None:
        return None

    def editable(self, row: Row) -> tuple[EditableField, ...]:
        return ()

    def update(self, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
        raise WriteRefused(f"{self.title} cannot be edited")

    def forget(self) -> None:
        """Drop cached aggregates (after a write)."""


class TableSpec(Spec):
    """One table, one row per record. Subclasses name the columns to select and build rows."""

    table = ""
    key = "id"
    select: tuple[str, ...] = ()  # column names; a column the file lacks is read as NULL
    order = "created_at DESC, id"

    @property
    def tables(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.table,)

    def _select(self, where: str = "", tail: str = "") -> str:
        cols = ", ".join(self.store.col(self.table, c) for c in self.select)
        return f'SELECT {cols} FROM "{self.table}" {where} {tail}'

    def size(self) -> int:
        return int(self.db.scalar(f'SELECT count(*) FROM "{self.table}"') or 0)

    def rows(self, offset: int, limit: int) -> list[Row]:
        recs = self.db.dicts(self._select(tail=f"ORDER BY {self.order} LIMIT ? OFFSET ?"),
                             (max(0, int(limit)), max(0, int(offset))))
        return self.build_all(recs)

    def row(self, key: str) -> Row | None:
        recs = self.db.dicts(self._select(f"WHERE {self.key} = ?"), (key,))
        return self.build_all(recs)[0] if recs else None

    def build_all(self, recs: list[dict]) -> list[Row]:
        extra = self.enrich(recs) if recs else {}
        return [self.build(rec, extra) for rec in recs]

    def enrich(self, recs: list[dict]) -> dict:
        """Facts from other tables for a whole page at once (counts, links), keyed as the list likes."""
        return {}

    def build(self, rec: dict, extra: dict) -> Row:
        raise NotImplementedError


def in_batches(db, sql: str, ids: Sequence[Any], params: tuple = ()) -> list[dict]:
    """Run ``sql`` (with one ``{ids}`` placeholder list) over ``ids`` in batches; rows as dicts."""
    out: list[dict] = []
    ids = list(dict.fromkeys(i for i in ids if i is not None))
    for start in range(0, len(ids), BATCH):
        chunk = ids[start:start + BATCH]
        out.extend(db.dicts(sql.format(ids=", ".join("?" * len(chunk))), (*params, *chunk)))
    return out


def existing(store, table: str, column: str, ids) -> set:
    """Which of ``ids`` are values of ``table.column`` (links are offered only to rows that exist)."""
    if not store.has(table, column):
        return set()
    return {r["k"] for r in in_batches(store.db, f"SELECT {column} AS k FROM {table} WHERE {column} IN ({{ids}})",
                                       list(ids))}


def problems_of(*found: str | None) -> str | None:
    real = [p for p in found if p]
    return "; ".join(real) if real else None


def report(store: ListedStore, table: str, key: str, problem: str | None, severity: str = "error") -> None:
    if problem:
        for part in problem.split("; "):
            store.note_problem(table, key, part, severity)


def bullet_list(items: Iterable[str], empty: str = "none") -> str:
    lines = [f"- {i}" for i in items]
    return "\n".join(lines) if lines else f"*{empty}*"
