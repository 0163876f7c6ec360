"""Today's Daycare tables as they are, for the table browser: masked like every row shown."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.on_store import OnStore
from daycare_gui.stores.daycare.pg.shown_rows import masked_row, plain_values
from daycare_gui.stores.records import Row, TableRef


class PgTables(OnStore, api.Tables):
    def __init__(self, store) -> None:
        self.store = store

    def tables(self) -> list[TableRef]:
        counts = self.store.counts()
        columns: dict[str, list[str]] = {}
        for table, column in self.db.rows(  # every table's columns in one query, for the table list
                "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
                "ORDER BY table_name, ordinal_position"):
            columns.setdefault(table, []).append(column)
        return [TableRef(t, counts.get(t), columns=tuple(columns.get(t, ()))) for t in sorted(self.store._tables)]

    def columns(self, table: str) -> list[str]:
        return self.db.columns(table)

    def rows(self, table: str, offset: int, limit: int) -> list[tuple]:
        if not self.store.has(table):
            return []
        rows = self.db.mappings(f'SELECT * FROM "{table}" LIMIT :n OFFSET :o', {"n": int(limit), "o": int(offset)})
        return [tuple(masked_row(plain_values(r), table).values()) for r in rows]

    def rows_after(self, table: str, key: str | None, n: int) -> list[Row]:
        """Keyed by each row's place in the table (its ctid, PostgreSQL's rowid): a TID range scan, so a page
        deep in session_history costs what the first does. (An update moves a row; the private copy a
        PGlite store is read from does not change, and OFFSET pages on a live server shift alike.)"""
        if not self.store.has(table):
            return []
        after = "WHERE ctid > CAST(:k AS tid) " if key is not None else ""
        rows = self.db.mappings(f'SELECT ctid::text AS "ctid  place", * FROM "{table}" {after}ORDER BY ctid LIMIT :n',
                                {"k": key, "n": int(n)})
        out = []
        for r in rows:
            place = str(r.pop("ctid  place"))
            values = masked_row(plain_values(r), table)
            out.append(Row(place, tuple(values.values()), raw=values))
        return out
