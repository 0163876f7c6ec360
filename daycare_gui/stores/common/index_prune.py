"""Search indexes whose store is gone leave the cache, so it does not keep their text for ever.

An index holds the words of every history it was built from; once that store is deleted, nothing opens the
index again and it would stay in the user's cache folder. Each index of the shared search
(``<search dir>/sources/<key>.sqlite``) records where its store lives (``meta.location``, from
``SearchSource.location()``): an index whose recorded file or folder no longer exists is removed, with its
``-wal``/``-shm``/``-journal``. One that records no location (a server, a kind that cannot tell, an index from
before the location was recorded) is removed once nobody has touched it for ``UNRECORDED_DAYS`` (a cache:
a search rebuilds it). Deciding reads one meta row per file, so it is cheap enough to run whenever an index
is built; a file it cannot read, and the index being built, are left alone.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from daycare_gui.stores.common.fts import SIDECARS, recorded_meta
from daycare_gui.stores.common.locations import is_url

log = logging.getLogger(__name__)
UNRECORDED_DAYS = 30
LOCATION_META = "location"  # the meta key holding the store's file or folder, as SearchSource.location() said


def remove_index(index_file: Path) -> bool:
    """Delete an index file and its sidecars; False (logged) when one cannot go: in use on a platform that
    locks open files, it is tried again next time (a -wal left alone is found by its own name then)."""
    for part in (index_file, *(Path(f"{index_file}{suffix}") for suffix in SIDECARS)):
        try:
            part.unlink(missing_ok=True)
        except OSError as exc:
            log.info("could not remove the unused search index %s: %s", part, exc)
            return False
    return True


def prune_indexes(folder: str | os.PathLike, is_orphan: Callable[[Path], bool], *,
                  keep: str | os.PathLike | None = None) -> list[Path]:
    """Remove the ``*.sqlite`` indexes in ``folder`` that ``is_orphan`` says belong to no store (never
    ``keep``, the index in use); returns those removed."""
    keep_path = Path(keep).resolve() if keep is not None else None
    try:
        candidates = sorted(Path(folder).glob("*.sqlite"))
    except OSError:
        return []
    return [f for f in candidates if f.resolve() != keep_path and is_orphan(f) and remove_index(f)]


def untouched_for(index_file: Path, days: float, now: float | None = None) -> bool:
    try:
        return (time.time() if now is None else now) - index_file.stat().st_mtime > days * 86_400
    except OSError:
        return False


def store_gone(location: str) -> bool:
    """The recorded store no longer exists (a server's URL is never known gone from here)."""
    return not is_url(location) and not os.path.lexists(location)


def _orphan(now: float | None) -> Callable[[Path], bool]:
    def orphan(index_file: Path) -> bool:
        location = recorded_meta(index_file, LOCATION_META)
        return store_gone(location) if location else untouched_for(index_file, UNRECORDED_DAYS, now)

    return orphan


def prune_source_indexes(folder: str | os.PathLike, *, keep: str | os.PathLike | None = None,
                         now: float | None = None) -> list[Path]:
    """Remove the shared search's indexes in ``folder`` whose store is gone (see the module's rule)."""
    return prune_indexes(folder, _orphan(now), keep=keep)


def orphan_indexes(folder: str | os.PathLike, *, now: float | None = None) -> list[Path]:
    """The shared search's indexes in ``folder`` that :func:`prune_source_indexes` would remove (a dry run)."""
    try:
        candidates = sorted(Path(folder).glob("*.sqlite"))
    except OSError:
        return []
    orphan = _orphan(now)
    return [f for f in candidates if not f.is_symlink() and orphan(f)]
