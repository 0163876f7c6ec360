"""Column introspection shared by the query modules."""

from __future__ import annotations

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase


class TableColumns:
    """Which of the wanted columns a table really has, cached per database object."""

    def __init__(self, db: ReadOnlyDatabase) -> None:
        self._db = db
        self._cache: dict[str, list[str]] = {}
        self._tables: set[str] | None = None

    def has_table(self, table: str) -> bool:
        if self._tables is None:
            self._tables = set(self._db.tables())
        return table in self._tables

    def of(self, table: str) -> list[str]:
        if table not in self._cache:
            self._cache[table] = self._db.columns(table) if self.has_table(table) else []
        return self._cache[table]

    def select_list(self, table: str, wanted: list[str], alias: str = "") -> str:
        """``a, b, NULL AS c`` — every wanted column, NULL where the table lacks it."""
        have = set(self.of(table))
        prefix = f"{alias}." if alias else ""
        return ", ".join(f"{prefix}{c}" if c in have else f"NULL AS {c}" for c in wanted)
