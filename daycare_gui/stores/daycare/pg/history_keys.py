"""Every session's record ids, in order, read once from a PGlite copy: sessions counted and paged by key.

Daycare's schema has no index on ``session_history.session_id``, so on PGlite (PostgreSQL compiled to
WebAssembly, one core) every count of a session, every page of it and an agent's session list each read
the whole history: 1 to 4 s apiece on a million records, and an OFFSET near the end of a large session
as much. Indexing the private copy would fix the pages but costs 10 s and more on a million records
(the whole table read, sorted and written to the WAL), more than the open itself.

The copy is a snapshot that never changes, so one pass answers all of it: read every session's record
ids once (on first need: a session list, a page, or the history's count in ``inspect``, which a
``count(*)`` would scan a second time), keep each as a sorted array (8 bytes a record), and from then on a
session's count is a length, a position is an index, and a page is its ids fetched through the primary
key. A server's history changes under us: it keeps the SQL of :mod:`~daycare_gui.stores.daycare.pg.capabilities`.

That one pass is a scan of the whole history in PGlite (1.5 to 3 s on a million records, whatever it
computes: a bare ``count(*)`` costs the same), so it is also kept between runs (:mod:`~daycare_gui.stores.
common.kept`, private, keyed by the store's real path): when the ``.pglite`` folder's fingerprint was the
same before and after the copy was made and no file in it is racy, the ids read from that copy are kept
for that fingerprint, and the next open of the store as it was loads them (beside PGlite's start, on a
thread of its own) instead of scanning. A fingerprint that differs is a store that changed: scanned again.
"""

from __future__ import annotations

import base64
import hashlib
import operator
import sys
import threading
from array import array
from bisect import bisect_left, bisect_right
from itertools import islice
from pathlib import Path

EMPTY = array("q")


def history_keys(store) -> HistoryKeys | None:
    """The store's HistoryKeys when it reads a PGlite copy (one per copy: an edit serves a fresh one); None
    on a server, whose history changes under us."""
    if store.generation != "pglite":
        return None
    keys = store.__dict__.get("_history_keys")
    if keys is None or keys.db is not store.db:
        keys = store.__dict__["_history_keys"] = HistoryKeys(store.db, getattr(store, "copy_state", None))
    return keys


KEPT_NAME = "history-keys"


class CopyState:
    """A PGlite copy known to hold the store as it was at ``fingerprint`` (a
    :class:`~daycare_gui.stores.common.tree_fingerprint.Fingerprint` of the ``.pglite`` folder, the same
    before and after the copy, nothing racy): what kept record its keys may come from and go to. Made
    before the copy (:func:`before_copy`), so the record loads while the copy is made and PGlite starts;
    used only once :func:`after_copy` has confirmed the folder did not change meanwhile."""

    def __init__(self, store: str, fingerprint, folder: Path | None = None) -> None:
        self.store = store  # the .pglite folder's real path
        self.fingerprint = fingerprint
        self.folder = folder  # the kept folder (None: the user's cache)
        self._loaded: dict[str, array] | None = None
        self._loader = threading.Thread(target=self._load, name="pglite-kept-keys", daemon=True)
        self._loader.start()  # (while the copy is made and PGlite starts: it needs no database)

    def _load(self) -> None:
        from daycare_gui.stores.common import kept

        data = kept.load(self.store, KEPT_NAME, self.fingerprint, self.folder)
        try:
            self._loaded = _decoded(data) if data is not None else None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # not a record of ours
            self._loaded = None  # (the copy is read instead)

    def kept_ids(self) -> dict[str, array] | None:
        self._loader.join()
        return self._loaded

    def keep(self, ids: dict[str, array]) -> None:
        """Record ``ids`` for this fingerprint (on a thread: the session list does not wait for the write)."""
        from daycare_gui.stores.common import kept

        if sum(len(got) for got in ids.values()) * 11 > kept.MAX_BYTES:  # (base64: ~11 bytes an id at most)
            return  # a record that large would not be read back: no use writing it at every open

        def write() -> None:
            kept.save(self.store, KEPT_NAME, self.fingerprint, _encoded(ids), self.folder)

        self._writer = threading.Thread(target=write, name="pglite-keep-keys")
        self._writer.start()

    _writer: threading.Thread | None = None

    def wait_kept(self) -> None:
        """Until the record being written (if any) is whole: the store waits for it as it closes."""
        if self._writer is not None:
            self._writer.join()


def before_copy(folder: Path, before, kept_folder: Path | None = None) -> CopyState | None:
    """A CopyState for a copy of ``folder`` about to be made at fingerprint ``before`` (it starts loading
    what an earlier open kept); None when the folder could not be fingerprinted or holds a file too fresh
    to trust its stat."""
    import os

    if before is None or before.racy:
        return None
    return CopyState(os.path.realpath(folder), before, kept_folder)


def after_copy(state: CopyState | None, after) -> CopyState | None:
    """``state`` when the folder's fingerprint ``after`` the copy is the one it had before; else None (the
    folder changed while it was copied: the copy is read, nothing is kept)."""
    if state is None or after is None or after.racy or after.digest != state.fingerprint.digest:
        return None
    return state


def _encoded(ids: dict[str, array]) -> dict:
    """Every session's ids: a run of consecutive ids (a session written at once) as ``"lo-hi"``, the others
    as a count of ids taken in turn from one blob of 8-byte little-endian integers (base64), with a SHA-256
    of both: one decode for a million ids, no Python loop over them, and a damaged record is noticed."""
    sessions: list = []
    blob = array("q")
    for session_id, got in ids.items():
        if got and got[-1] - got[0] + 1 == len(got):
            sessions.append([session_id, f"{got[0]}-{got[-1]}"])
        else:
            sessions.append([session_id, len(got)])
            blob.extend(got)
    if sys.byteorder != "little":
        blob.byteswap()
    raw = blob.tobytes()
    return {"sessions": sessions, "blob": base64.b64encode(raw).decode("ascii"), "sha256": _digest(sessions, raw)}


def _digest(sessions: list, raw: bytes) -> str:
    """SHA-256 of the sessions' list (as JSON) and the blob: what a damaged record fails."""
    import json

    head = json.dumps(sessions, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")
    return hashlib.sha256(head + b"\0" + raw).hexdigest()


def _decoded(data: dict) -> dict[str, array]:
    """What :func:`_encoded` wrote; ValueError (or another error of shape) for anything else."""
    raw = base64.b64decode(data["blob"], validate=True)
    if _digest(data["sessions"], raw) != data["sha256"]:
        raise ValueError("the record's ids are damaged")
    blob = array("q")
    blob.frombytes(raw)  # (a length not of 8 bytes: ValueError)
    if sys.byteorder != "little":
        blob.byteswap()
    ids: dict[str, array] = {}
    at = 0
    for session_id, what in data["sessions"]:
        if not isinstance(session_id, str):
            raise ValueError("not a session id")
        if isinstance(what, int) and not isinstance(what, bool) and 0 <= what <= len(blob) - at:
            ids[session_id] = blob[at:at + what]
            at += what
            continue
        lo, dash, hi = what.partition("-")  # (an int out of bounds: AttributeError)
        if not (dash and lo.isdigit() and hi.isdigit()) or int(hi) < int(lo):
            raise ValueError("not a run of ids")
        ids[session_id] = array("q", range(int(lo), int(hi) + 1))
    if at != len(blob):
        raise ValueError("ids left over")
    return ids


def _ascending(got: array) -> bool:
    """Strictly ascending, checked in C (``map`` over two views), not by a Python loop over each id."""
    return all(map(operator.lt, got, islice(got, 1, None)))


class HistoryKeys:
    """``session_id`` → its record ids ascending, for the PGlite copy ``db`` (read on first use, or taken
    from what an earlier open of the same unchanged store kept: ``state``)."""

    def __init__(self, db, state: CopyState | None = None) -> None:
        self.db = db
        self.state = state
        self._ids: dict[str, array] | None = None
        self._lock = threading.Lock()

    def _map(self) -> dict[str, array]:
        if self._ids is None:
            with self._lock:
                if self._ids is None:
                    kept = self.state.kept_ids() if self.state is not None else None
                    if kept is not None:
                        self._ids = kept
                    else:
                        self._ids = self._read()
                        if self.state is not None:
                            self.state.keep(self._ids)
        return self._ids

    def _read(self) -> dict[str, array]:
        # One aggregate, each session's ids as one string: PGlite hands back a row at ~30 µs (a million
        # rows of (session_id, id) take 30 s and grow its memory by a gigabyte; COPY is worse), twenty
        # thousand rows of a string each cost nothing. Hashed (16 MB of work memory for this statement only:
        # the 1M demo's hash spills either way, 48 MB kept 13 MB more of PGlite's memory for no speed) rather
        # than sorted on disk.
        rows = self.db.rows_with({"work_mem": "16MB", "enable_sort": "off"},
                                 "SELECT session_id, string_agg(id::text, ',') FROM session_history GROUP BY session_id")
        ids: dict[str, array] = {}
        for session_id, text in rows:
            got = array("q", map(int, text.split(",")))
            if not _ascending(got):  # heap order is id order unless rows were updated
                got = array("q", sorted(got))
            ids[session_id] = got
        return ids

    def ids(self, session_id: str) -> array:
        return self._map().get(session_id, EMPTY)

    def count(self, session_id: str) -> int:
        return len(self.ids(session_id))

    def total(self) -> int:
        """Every record of the history (each has a session: ``session_id`` is NOT NULL)."""
        return sum(len(ids) for ids in self._map().values())

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
