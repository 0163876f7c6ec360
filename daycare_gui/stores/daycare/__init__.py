"""Daycare as a store kind, every generation in one package: its legacy files (``files/``, ``legacy/``),
its SQLite store (``sqlite/``: the store, queries, migrations, search), PGlite and PostgreSQL (``pg/``), and
the files beside any of them (``datadir/``); its editors' documents (``edit/``) and demos (``demo/``).
``kind.py`` probes and opens; ``capabilities.py`` and ``sections.py`` are what the shared panes see.
"""

from daycare_gui.stores.daycare.kind import KIND, DaycareKind, DaycareStore

__all__ = ["KIND", "DaycareKind", "DaycareStore"]
