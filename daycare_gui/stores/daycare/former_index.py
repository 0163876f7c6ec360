"""Daycare's former search index files: one SQLite file per store in the search cache folder, named by
:func:`store_key`. The shared index replaced them; its first build for a store removes the store's former
file (``SearchSource.former_index_files``), and only that one.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from daycare_gui.stores.common.fts import recorded_meta

STORE_META = "store"  # the meta key holding the indexed database's resolved path


def store_key(db_path: str | os.PathLike) -> str:
    """The name the former index of one database file (or legacy agents folder) had: its resolved path and
    the file's identity, so a store replaced by another at the same path had another index."""
    path = Path(db_path).resolve()
    try:
        st = path.stat()
        identity = f"{st.st_dev}:{st.st_ino}:{getattr(st, 'st_birthtime', '')}"
    except OSError:
        identity = "missing"
    return hashlib.sha256(f"{path}\n{identity}".encode()).hexdigest()[:24]


def former_index_file(cache_dir: str | os.PathLike, store_path: str | os.PathLike) -> Path:
    return Path(cache_dir) / f"{store_key(store_path)}.sqlite"


def recorded_store(index_file: Path) -> str | None:
    """The store path a former index file says it was built from, or None when it does not say (or cannot be
    read)."""
    return recorded_meta(index_file, STORE_META)
