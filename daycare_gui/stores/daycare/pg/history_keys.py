"""Every session's record ids, in order, read once from a PGlite copy: sessions counted and paged by key.

Daycare's schema has no index on ``session_history.session_id``, so on PGlite (PostgreSQL compiled to
WebAssembly, one core) every count of a session, every page of it and an agent's session list each read
the whole history: 1 to 4 s apiece on a million records, and an OFFSET near the end of a large session
as much. Indexing the private copy would fix the pages but costs 10 s and more on a million records
(the whole table read, sorted and written to the WAL), more than the open itself.

The copy is a snapshot that never changes, so one pass answers all of it: read every session's record
ids once (on first need: ``inspect`` never pays it), keep each as a sorted array (8 bytes a record), and
from then on a session's count is a length, a position is an index, and a page is its ids fetched through
the primary key. A server's history changes
under us: it keeps the SQL of :mod:`~daycare_gui.stores.daycare.pg.capabilities`.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left, bisect_right

EMPTY = array("q")


def history_keys(store) -> HistoryKeys | None:
    """The store's HistoryKeys when it reads a PGlite copy (one per copy: an edit serves a fresh one); None
    on a server, whose history changes under us."""
    if store.generation != "pglite":
        return None
    keys = store.__dict__.get("_history_keys")
    if keys is None or keys.db is not store.db:
        keys = store.__dict__["_history_keys"] = HistoryKeys(store.db)
    return keys


class HistoryKeys:
    """``session_id`` → its record ids ascending, for the PGlite copy ``db`` (read on first use)."""

    def __init__(self, db) -> None:
        self.db = db
        self._ids: dict[str, array] | None = None
        self._lock = threading.Lock()

    def _map(self) -> dict[str, array]:
        if self._ids is None:
            with self._lock:
                if self._ids is None:
                    self._ids = self._read()
        return self._ids

    def _read(self) -> dict[str, array]:
        # One aggregate, each session's ids as one string: PGlite hands back a row at ~30 µs (a million
        # rows of (session_id, id) take 30 s and grow its memory by a gigabyte; COPY is worse), twenty
        # thousand rows of a string each cost nothing. Hashed in memory (48 MB of work memory for this
        # statement only) rather than sorted on disk.
        rows = self.db.rows_with({"work_mem": "48MB", "enable_sort": "off"},
                                 "SELECT session_id, string_agg(id::text, ',') FROM session_history GROUP BY session_id")
        ids: dict[str, array] = {}
        for session_id, text in rows:
            got = array("q", map(int, text.split(",")))
            if any(got[i] > got[i + 1] for i in range(len(got) - 1)):  # heap order is id order unless updated
                got = array("q", sorted(got))
            ids[session_id] = got
        return ids

    def ids(self, session_id: str) -> array:
        return self._map().get(session_id, EMPTY)

    def count(self, session_id: str) -> int:
        return len(self.ids(session_id))

    def after(self, session_id: str, key: int | None, n: int) -> array:
        """Up to ``n`` ids after ``key`` (from the first when None)."""
        ids = self.ids(session_id)
        start = 0 if key is None else bisect_right(ids, key)
        return ids[start:start + max(0, n)]

    def before(self, session_id: str, key: int | None, n: int) -> array:
        """Up to ``n`` ids before ``key`` (the last ones when None), ascending."""
        ids = self.ids(session_id)
        end = len(ids) if key is None else bisect_left(ids, key)
        return ids[max(0, end - max(0, n)):end]

    def position(self, session_id: str, key: int) -> int | None:
        """Where record ``key`` stands in its session (0-based), None when the session has no such record."""
        ids = self.ids(session_id)
        at = bisect_left(ids, key)
        return at if at < len(ids) and ids[at] == key else None
