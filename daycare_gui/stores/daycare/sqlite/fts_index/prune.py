"""Remove search indexes whose store is gone, so the cache does not keep them for ever.

Each index records the database it was built from (``meta.store``). An index is an orphan when that database
no longer has the index's key: deleted, or replaced by another file at the same path (whose index has a new
key). An index from before the store was recorded is an orphan once it has not been touched for
``UNRECORDED_DAYS``. Pruning reads one meta row per index file, so it is cheap enough to run whenever indexing
starts; files it cannot read are left alone.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path

from daycare_gui.stores.common.fts import recorded_meta
from daycare_gui.stores.daycare.sqlite.fts_index.index import store_key

log = logging.getLogger(__name__)
UNRECORDED_DAYS = 30
STORE_META = "store"  # the meta key holding the indexed database's resolved path


def recorded_store(index_file: Path) -> str | None:
    """The database path an index file was built from, or None when it does not say (or cannot be read)."""
    return recorded_meta(index_file, STORE_META)


def _is_orphan(index_file: Path, now: float) -> bool:
    store = recorded_store(index_file)
    if store is not None:
        return store_key(store) != index_file.stem
    try:
        return now - index_file.stat().st_mtime > UNRECORDED_DAYS * 86_400
    except OSError:
        return False


def prune_indexes(cache_dir: str | os.PathLike, *, keep: str | os.PathLike | None = None,
                  now: float | None = None) -> list[Path]:
    """Delete the orphaned ``*.sqlite`` indexes in ``cache_dir`` (with their -wal/-shm); returns them."""
    folder = Path(cache_dir)
    keep_path = Path(keep).resolve() if keep is not None else None
    now = time.time() if now is None else now
    removed = []
    try:
        candidates = sorted(folder.glob("*.sqlite"))
    except OSError:
        return removed
    for index_file in candidates:
        if index_file.resolve() == keep_path or not _is_orphan(index_file, now):
            continue
        for part in (index_file, Path(f"{index_file}-wal"), Path(f"{index_file}-shm")):
            try:
                part.unlink(missing_ok=True)
            except OSError as exc:  # in use on a platform that locks open files: next time
                log.info("could not remove the unused search index %s: %s", part, exc)
                break
        else:
            removed.append(index_file)
    return removed
