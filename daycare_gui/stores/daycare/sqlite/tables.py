"""Daycare's SQLite tables through ``api.Tables``: counts and columns, pages keyed by rowid, JSON parsed
and secrets masked (the core's ``page_shown_rows``, which the old Storage page read)."""

from __future__ import annotations

import json

from daycare_gui.stores.api import Tables
from daycare_gui.stores.records import Row, TableRef


def _mask_column(table: str, column: str, value):
    """Process environments and endpoint auth hold credentials: the positional rows show them masked too."""
    from daycare_gui.stores.common.secrets import MASK, mask_secrets
    from daycare_gui.stores.daycare.sqlite.queries.tables import SENSITIVE_COLUMNS

    if (table, column) not in SENSITIVE_COLUMNS or value in (None, ""):
        return value
    try:
        parsed = json.loads(value)
    except (TypeError, ValueError):
        return MASK
    return json.dumps(mask_secrets(parsed, all_strings=(table, column) == ("processes", "env")))


class DaycareTables(Tables):
    def __init__(self, core) -> None:
        self.core = core

    def tables(self) -> list[TableRef]:
        from daycare_gui.stores.daycare.sqlite.queries.overview import table_infos

        return [TableRef(t.name, t.rows, columns=t.columns) for t in table_infos(self.core.db, self.core.cols)]

    def columns(self, table: str) -> list[str]:
        return self.core.db.columns(table)

    def rows(self, table: str, offset: int, limit: int) -> list[tuple]:
        if table not in self.core.db.tables():
            return []
        columns = self.core.db.columns(table)
        return [tuple(_mask_column(table, c, v) for c, v in zip(columns, r))
                for r in self.core.db.rows(f'SELECT * FROM "{table}" LIMIT :n OFFSET :o',
                                           {"n": int(limit), "o": int(offset)})]

    def rows_after(self, table: str, key: str | None, n: int) -> list[Row]:
        """By rowid (``WHERE rowid > key``): the thousandth page costs what the first does."""
        from daycare_gui.stores.daycare.sqlite.queries.subsystems import page_shown_rows

        after = int(key) if key is not None else None
        out = []
        for shown in page_shown_rows(self.core.db, table, after_rowid=after, limit=n, cols=self.core.cols):
            out.append(Row(str(shown.key), tuple(shown.values.values()), raw=dict(shown.values),
                           problem="; ".join(shown.problems) or None))
        return out

    def count(self) -> int | None:
        return len(self.core.db.tables())
