"""What every capability of the PG store reads through: the store's database as it is now."""

from __future__ import annotations


class OnStore:
    """Capabilities read ``store.db`` each time: after an edit a PGlite store serves a fresh copy."""

    store = None

    @property
    def db(self):
        return self.store.db
