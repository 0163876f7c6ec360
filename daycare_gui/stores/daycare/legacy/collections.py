"""The lists of a legacy Daycare store (no database): channels, delayed signals, processes and expose
endpoints from the files Daycare kept before SQLite, and apps; the same adapter as the SQLite generation,
which reads these files when the store has no database (``core.queries.subsystems``)."""

from __future__ import annotations

from daycare_gui.stores.daycare.sqlite.collections import DaycareLists


class LegacyLists(DaycareLists):
    """Filtered here, not in SQL: legacy lists are small files, read whole."""


__all__ = ["LegacyLists"]
