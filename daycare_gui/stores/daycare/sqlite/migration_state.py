"""Which of Daycare's migrations a database has applied, which are pending, which are unknown.

Applied migrations are listed in the order they ran (``applied_at``, then ``rowid``), never by name:
Daycare's list order is not name order. Pending is relative to the list this project implements
(808af509); names recorded by a later Daycare (b8a8d807) are reported as unknown *and* recognised.
"""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.sqlite.schema_sql import MIGRATIONS_808AF509, MIGRATIONS_B8A8D807


@dataclass(frozen=True)
class MigrationState:
    applied: tuple[tuple[str, int | None], ...]  # (name, applied_at ms) in applied order
    pending: tuple[str, ...]  # of the 808af509 list, in list order
    unknown: tuple[str, ...]  # recorded names not in the 808af509 list, in applied order
    later_known: tuple[str, ...]  # of the unknown ones, those a later Daycare (b8a8d807) defines
    later_pending: tuple[str, ...]  # when the store is of the b8a8d807 generation: what that list still lacks
    has_table: bool

    @property
    def applied_names(self) -> list[str]:
        return [n for n, _ in self.applied]

    @property
    def generation_label(self) -> str:
        if not self.has_table:
            return "no migrations recorded"
        if self.unknown and not set(self.unknown) - set(self.later_known):
            return "b8a8d807 (newer than this application's 808af509 pipeline)"
        if self.unknown:
            return "unknown migrations present"
        return "up to date (808af509)" if not self.pending else f"{count(len(self.pending), 'migration')} pending"

    @property
    def next_later(self) -> str | None:
        return self.later_pending[0] if self.later_pending else None

    def to_dict(self) -> dict:
        return {
            "applied": self.applied_names,
            "pending": list(self.pending),
            "unknown": list(self.unknown),
            "later_known": list(self.later_known),
            "later_pending": list(self.later_pending),
        }


def migration_state(db: ReadOnlyDatabase | None) -> MigrationState:
    if db is None or "_migrations" not in db.tables():
        return MigrationState((), tuple(MIGRATIONS_808AF509), (), (), (), False)
    rows = db.rows("SELECT name, applied_at FROM _migrations ORDER BY applied_at, rowid")
    applied = tuple((r[0], r[1]) for r in rows)
    names = {n for n, _ in applied}
    pending = tuple(n for n in MIGRATIONS_808AF509 if n not in names)
    unknown = tuple(n for n, _ in applied if n not in MIGRATIONS_808AF509)
    later_known = tuple(n for n in unknown if n in MIGRATIONS_B8A8D807)
    later_pending = tuple(n for n in MIGRATIONS_B8A8D807 if n not in names) if later_known else ()
    return MigrationState(applied, pending, unknown, later_known, later_pending, True)
