"""Private copies of a SQLite file for reading, with what a writer left beside it.

A database in rollback-journal mode whose writer was killed mid-transaction keeps a *hot* journal beside
it: the file already holds some of the transaction's pages, the journal the pages they replaced. SQLite
rolls the journal back on the next read-write open. A reader that must not write cannot: an ``immutable``
open ignores the journal and shows half a transaction, and a ``mode=ro`` open fails. So such a store is
read from a private copy with the journal rolled back there; the user's files are not touched.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import urllib.parse
from pathlib import Path


def _has_data(db: Path, suffix: str) -> bool:
    try:
        return Path(str(db) + suffix).stat().st_size > 0
    except OSError:
        return False


def journal_present(db: Path) -> bool:
    """A non-empty rollback journal lies beside ``db``: a write is under way or was interrupted."""
    return _has_data(db, "-journal")


def wal_has_data(db: Path) -> bool:
    """The write-ahead log beside ``db`` holds frames not yet checkpointed into the file (or at least is
    not empty): an immutable read would miss them."""
    return _has_data(db, "-wal")


def _private_copy(source: Path, target: Path) -> None:
    # made 0600 first: copyfile then writes into it (keeping the mode) with the kernel's fast copy
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
    shutil.copyfile(source, target)


def copy_for_reading(db: Path, folder: Path) -> Path:
    """Copy ``db`` with its ``-wal`` and ``-journal`` into ``folder``; a hot journal is rolled back in the
    copy (a read-write open of the copy does that). Returns the copy's path. Raises OSError or
    sqlite3.Error; the caller removes ``folder`` then. The copies are readable by this user only, as their
    private folder is: they hold the user's data."""
    target = folder / db.name
    _private_copy(db, target)
    for suffix in ("-wal", "-journal"):
        extra = Path(str(db) + suffix)
        if extra.exists():
            _private_copy(extra, Path(str(target) + suffix))
    if Path(str(target) + "-journal").exists():
        uri = f"file:{urllib.parse.quote(str(target.resolve()))}?mode=rw"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        finally:
            conn.close()
    return target
