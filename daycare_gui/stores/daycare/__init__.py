"""Daycare as a store kind: its legacy files, its SQLite store, and (soon) PGlite and PostgreSQL.

Daycare's readers, writers and migrations live in ``daycare_gui.core`` (they predate the other kinds);
this package is the kind's face to the registry: probing, opening, and the capabilities the shared
panes use. Daycare's own sections (users, agents, inbox, apps, ...) are its panes in ``ui.panes``.
"""

from daycare_gui.stores.daycare.kind import KIND, DaycareKind, DaycareStore

__all__ = ["KIND", "DaycareKind", "DaycareStore"]
