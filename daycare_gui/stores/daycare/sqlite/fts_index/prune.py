"""Remove search indexes whose store is gone, so the cache does not keep them for ever.

Each index records the database it was built from (``meta.store``). An index is an orphan when that database
no longer has the index's key: deleted, or replaced by another file at the same path (whose index has a new
key). An index from before the store was recorded is an orphan once it has not been touched for
``UNRECORDED_DAYS``. Pruning reads one meta row per index file, so it is cheap enough to run whenever indexing
starts; files it cannot read are left alone.
"""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.common.fts import recorded_meta
from daycare_gui.stores.common.index_prune import UNRECORDED_DAYS, untouched_for
from daycare_gui.stores.common.index_prune import prune_indexes as _prune
from daycare_gui.stores.daycare.sqlite.fts_index.index import store_key

STORE_META = "store"  # the meta key holding the indexed database's resolved path

__all__ = ["STORE_META", "UNRECORDED_DAYS", "prune_indexes", "recorded_store"]


def recorded_store(index_file: Path) -> str | None:
    """The database path an index file was built from, or None when it does not say (or cannot be read)."""
    return recorded_meta(index_file, STORE_META)


def prune_indexes(cache_dir: str | os.PathLike, *, keep: str | os.PathLike | None = None,
                  now: float | None = None) -> list[Path]:
    """Delete the orphaned ``*.sqlite`` indexes in ``cache_dir`` (with their sidecars); returns them."""

    def orphan(index_file: Path) -> bool:
        store = recorded_store(index_file)
        if store is not None:
            return store_key(store) != index_file.stem
        return untouched_for(index_file, UNRECORDED_DAYS, now)

    return _prune(cache_dir, orphan, keep=keep)
