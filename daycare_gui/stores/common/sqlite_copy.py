"""Private copies of a SQLite file for reading, with what a writer left beside it.

A database in rollback-journal mode whose writer was killed mid-transaction keeps a *hot* journal beside
it: the file already holds some of the transaction's pages, the journal the pages they replaced. SQLite
rolls the journal back on the next read-write open. A reader that must not write cannot: an ``immutable``
open ignores the journal and shows half a transaction, and a ``mode=ro`` open fails. So such a store is
read from a private copy with the journal rolled back there; the user's files are not touched.

The copy takes regular files only and stops at a size the file could have (:mod:`daycare_gui.stores.common.regular_copy`):
a ``-wal`` that is a link to ``/dev/zero`` or a named pipe makes a clear error, not a full disk or a hang.
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from pathlib import Path

from daycare_gui.stores.common.regular_copy import copy_regular
from daycare_gui.stores.common.regular_files import NotRegularFile, open_regular


def check_regular(db: Path) -> None:
    """Raise NotRegularFile (an OSError) unless ``db`` is a regular file: SQLite opens its file blocking,
    so a named pipe in its place would hang the open for ever. (SQLite opens the path itself after this
    check; a pipe swapped in between is a race this cannot close, a folder left as it was found is not.)
    Anything else (missing, a folder, unreadable) is left to SQLite's open, which says it as before."""
    try:
        open_regular(db).close()
    except NotRegularFile:
        raise
    except OSError:
        pass


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


def copy_for_reading(db: Path, folder: Path) -> Path:
    """Copy ``db`` with its ``-wal`` and ``-journal`` into ``folder``; a hot journal is rolled back in the
    copy (a read-write open of the copy does that). Returns the copy's path. Raises OSError or
    sqlite3.Error; the caller removes ``folder`` then. The copies are readable by this user only, as their
    private folder is: they hold the user's data."""
    target = folder / db.name
    copy_regular(db, target)
    for suffix in ("-wal", "-journal"):
        extra = Path(str(db) + suffix)
        if extra.exists():
            copy_regular(extra, str(target) + suffix)
    if Path(str(target) + "-journal").exists():
        uri = f"file:{urllib.parse.quote(str(target.resolve()))}?mode=rw"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
        finally:
            conn.close()
    return target
