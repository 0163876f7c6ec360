"""What a migration is, and what it gets to work with."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.wording import count, singular_of
from daycare_gui.stores.daycare.sqlite.migrations.ids import IdSource
from daycare_gui.stores.problems import Problem


class MigrationError(Exception):
    """A migration body refused to continue (Daycare would throw here and the transaction rolls back)."""


@dataclass
class MigrationContext:
    conn: sqlite3.Connection
    # Folder holding the database file: where Daycare's imports look for legacy files. None for in-memory DBs.
    legacy_dir: Path | None
    ids: IdSource
    clock: Callable[[], int]

    def now_ms(self) -> int:
        return self.clock()

    def columns(self, table: str) -> list[str]:
        return [row[1] for row in self.conn.execute(f"PRAGMA table_info({quote_identifier(table)})")]

    def has_column(self, table: str, column: str) -> bool:
        return column in self.columns(table)

    def owner_id(self) -> str | None:
        """The owner's id, trimmed, as Daycare's ``ownerUserIdResolve``; None when there is no owner."""
        row = self.conn.execute("SELECT id FROM users WHERE is_owner = 1 LIMIT 1").fetchone()
        if row is None or not isinstance(row[0], str):
            return None
        return row[0].strip() or None

    def agent_user_id(self, agent_id: str) -> str | None:
        row = self.conn.execute("SELECT user_id FROM agents WHERE id = ? LIMIT 1", (agent_id,)).fetchone()
        if row is None or not isinstance(row[0], str):
            return None
        return row[0].strip() or None


@dataclass
class LegacyScan:
    """What an import would read from the legacy files, without touching the database."""

    counts: dict[str, int] = field(default_factory=dict)  # e.g. {"agents": 2, "sessions": 3, "records": 3}
    skipped: list[Problem] = field(default_factory=list)  # unparseable lines, files that will be left out
    notes: list[str] = field(default_factory=list)
    # Set when the import would abort the migration (Daycare throws; the whole upgrade stops there).
    failure: str | None = None

    def add(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def summary(self) -> str:
        if not self.counts:
            return "nothing to import"
        return ", ".join(count(n, singular_of(what), what) for what, n in self.counts.items())


@dataclass(frozen=True)
class Migration:
    name: str
    description: str
    apply: Callable[[MigrationContext], None]
    # Import migrations: read the legacy folder and say what they would import.
    scan: Callable[[Path], LegacyScan] | None = None


def quote_identifier(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
