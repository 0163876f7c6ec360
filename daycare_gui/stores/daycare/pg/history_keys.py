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
key. A server's history changes under us: it keeps the SQL of :mod:`~daycare_gui.stores.daycare.pg.conversations`.

That one pass is a scan of the whole history in PGlite (1.5 to 3 s on a million records, whatever it
computes: a bare ``count(*)`` costs the same), so it is also kept between runs (:mod:`~daycare_gui.stores.
common.kept`, private, keyed by the store's real path): when the ``.pglite`` folder's fingerprint was the
same before and after the copy was made and no file in it is racy, the ids read from that copy are kept
for that fingerprint, and the next open of the store as it was loads them (beside PGlite's start, on a
thread of its own) instead of scanning. A fingerprint that differs is a store that changed: scanned again.

The window does not wait for that scan: it starts in the background once the agent list's first rows are
read (:meth:`HistoryKeys.start`), in slices of the table's pages (a TID range each, 0.1 to 0.2 s),
so the queries of the pages the user asks for meanwhile go between two slices, and an agent's session list
is shown at once, each count said to be pending (:meth:`HistoryKeys.known` is None) until the scan is done.
"""

from __future__ import annotations

import base64
import hashlib
import json
import operator
import sys
import threading
import time
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


# The record's ids as base64 texts of 1 MB of ids each, not one text: the record is written after the window's
# first pass, on the window's process, and one text of every id (11 MB on the 1M demo) was held there at once
# as the bytes encoded, their text, the JSON of the record and its bytes (+40 MB at the pass's end, +21 now).
PIECE_BYTES = 1 << 20  # (a multiple of 8: each piece decodes to whole ids)


def _encoded(ids: dict[str, array]) -> dict:
    """Every session's ids: a run of consecutive ids (a session written at once) as ``"lo-hi"``, the others
    as a count of ids taken in turn from one blob of 8-byte little-endian integers (base64, in pieces of
    ``PIECE_BYTES``), with a SHA-256 of both: a few decodes for a million ids, no Python loop over them, and a
    damaged record is noticed."""
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
    with memoryview(blob) as view, view.cast("B") as raw:
        pieces = [base64.b64encode(raw[at:at + PIECE_BYTES]).decode("ascii") for at in range(0, len(raw), PIECE_BYTES)]
        return {"sessions": sessions, "blob": pieces, "sha256": _digest(sessions, raw)}


def _digest(sessions: list, raw) -> str:
    """SHA-256 of the sessions' list (as JSON) and the blob's bytes: what a damaged record fails."""
    import json

    head = json.dumps(sessions, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")
    digest = hashlib.sha256(head + b"\0")
    digest.update(raw)
    return digest.hexdigest()


def _decoded(data: dict) -> dict[str, array]:
    """What :func:`_encoded` wrote (or a record of one base64 text, as versions before wrote it); ValueError
    (or another error of shape) for anything else."""
    pieces = [data["blob"]] if isinstance(data["blob"], str) else data["blob"]
    if not isinstance(pieces, list) or not all(isinstance(piece, str) for piece in pieces):
        raise ValueError("not the record's ids")
    blob = array("q")
    for piece in pieces:
        blob.frombytes(base64.b64decode(piece, validate=True))  # (a length not of 8 bytes: ValueError)
    with memoryview(blob) as view, view.cast("B") as raw:
        if _digest(data["sessions"], raw) != data["sha256"]:
            raise ValueError("the record's ids are damaged")
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


# A slice of the background scan: 2,048 pages (16 MB) of the history, at most 0.16 s on the 1M demo under a load
# of 6: what a page the user asks for meanwhile may wait for. Every slice holds nearly every session (Daycare
# interleaves them), so smaller slices cost more in all: the 1M demo's whole scan took 1.9 s in slices of
# 2,048 pages, 2.5 s in slices of 1,024 and 1.2 to 1.7 s in one query, which nothing could go between.
SLICE_PAGES = 2048


def _ids_of(*parts: str) -> array:
    """The ids of base64 texts of 8-byte big-endian integers, ascending (heap order is id order unless rows
    were updated: sorted then)."""
    got = array("q")
    for part in parts:
        _add_ids(got, part)
    return _in_order(got)


def _add_ids(got: array, part: str) -> None:
    """The ids of one base64 text of 8-byte big-endian integers appended to ``got``, still big-endian (see
    :func:`_in_order`). PostgreSQL's base64 has line breaks, which b64decode skips."""
    got.frombytes(base64.b64decode(part))


def _in_order(got: array) -> array:
    """``got`` (big-endian, as :func:`_add_ids` leaves it) as numbers, ascending."""
    if sys.byteorder != "big":
        got.byteswap()
    return got if _ascending(got) else array("q", sorted(got))


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
        self._lock = threading.Lock()  # held briefly only: never across a read of the copy
        self._read_lock = threading.Lock()  # one read in the foreground at a time (when the scan failed)
        self._scan: threading.Thread | None = None  # the background scan (start), once started
        self._stop = threading.Event()  # the store closes: the background scan ends after its slice
        # what a short read (inspect) asked for instead of every session's ids: the total, some sessions' ids
        self._total: int | None = None
        self._some: dict[str, array] = {}

    def _map(self) -> dict[str, array]:
        if self._ids is None:
            # The one scan is started (or joined) in the background rather than read here under the lock:
            # a read under the lock made every start() wait for it, the agent list's rows among them (they
            # start the scan), so a count on the background worker held up the list the user waits for.
            self.start()
            scan = self._scan
            if scan is not None and scan is not threading.current_thread():
                scan.join()  # (a scan under way is waited for, not done twice)
            if self._ids is None:  # the scan failed or was stopped: read here, so that its error is said here
                with self._read_lock:
                    if self._ids is None:
                        ids = self._read()
                        with self._lock:
                            if self._ids is None:
                                self._found(ids)
        return self._ids

    def _found(self, ids: dict[str, array]) -> None:
        self._ids = ids
        if self.state is not None:
            self.state.keep(ids)

    def known(self) -> dict[str, array] | None:
        """Every session's ids when they are known now (kept, or scanned), else None: without waiting; the
        background scan is started if it was not."""
        if self._ids is None:
            self.start()
        return self._ids

    def start(self) -> None:
        """Read every session's ids in the background (a no-op once they are known or being read)."""
        with self._lock:
            if self._ids is not None or self._scan is not None:
                return
            kept = self.state.kept_ids() if self.state is not None else None  # (loaded while the copy was made)
            if kept is not None:
                self._ids = kept
                return
            self._scan = threading.Thread(target=self._scan_in_slices, name="pglite-history-scan", daemon=True)
            self._scan.start()

    def stop(self) -> None:
        """The store closes: a background scan ends after the slice it is reading."""
        self._stop.set()

    def _scan_in_slices(self) -> None:
        from daycare_gui.stores.daycare.pg.database import PgError

        try:
            ids = self._slices(pause=True)
        except (PgError, ValueError, TypeError, AttributeError):
            return  # the first answer that needs the ids reads them itself, and says why it cannot
        if ids is None:  # (stopped: the store closes)
            return
        with self._lock:
            if self._ids is None:
                self._found(ids)

    def _slices(self, *, pause: bool) -> dict[str, array] | None:
        """Every session's ids, read slice after slice (None when stopped); ``pause``: a query waiting for
        the connection takes it between two slices."""
        pages = int(self.db.scalar("SELECT pg_relation_size('session_history') / "
                                   "current_setting('block_size')::bigint") or 0)
        # Each slice's ids decoded as it comes (8 bytes an id), not its texts kept to the end: one string per
        # session and slice (every slice holds nearly every session) raised the application's peak over the 1M
        # demo's pass by ~42 MB, ~24 MB now.
        found: dict[str, array] = {}
        for lo in range(0, max(pages, 1), SLICE_PAGES):
            if pause and self._stop.is_set():
                return None
            hi = lo + SLICE_PAGES
            where = f" WHERE ctid >= '({lo},0)'::tid" + (f" AND ctid < '({hi},0)'::tid" if hi < pages else "")
            for session_id, text in self._aggregate(where).items():
                got = found.get(session_id)
                if got is None:
                    got = found[session_id] = array("q")
                _add_ids(got, text)
            if pause:
                time.sleep(0.002)
        return {session_id: _in_order(got) for session_id, got in found.items()}

    def _aggregate(self, where: str = "") -> dict[str, str]:
        # Each session's ids as one string (8-byte big-endian integers, base64: decoded in C, where parsing a
        # million decimal ids in Python took 0.3 s more), and all of them as one JSON object in one row: PGlite
        # hands back a row at ~30 µs (a million rows of (session_id, id) take 30 s and grow its memory by a
        # gigabyte; COPY is worse), and even a row per session (20,000) cost 0.7 s more than this one row on
        # the 1M demo. Hashed (16 MB of work memory for this statement only: more kept more of PGlite's memory
        # for no speed) rather than sorted on disk.
        rows = self.db.rows_with(
            {"work_mem": "16MB", "enable_sort": "off"},
            "SELECT json_object_agg(session_id, encode(ids, 'base64'))::text FROM (SELECT session_id, "
            f"string_agg(int8send(id), ''::bytea) AS ids FROM session_history{where} GROUP BY session_id) AS per_session")
        text = rows[0][0] if rows else None
        got = json.loads(text) if text else {}
        if not isinstance(got, dict):
            raise ValueError("not an object of sessions")
        return got

    def _read(self) -> dict[str, array]:
        # In slices too: one reply of every id (11 MB on the 1M demo) was held whole in the sidecar's memory.
        ids = self._slices(pause=False)
        return ids if ids is not None else {}

    def read_total_and(self, sessions) -> None:
        """The history's total and ``sessions``' ids only, in one pass that groups nothing (pg.history_total),
        unless every session's ids are known or being read (kept from an earlier open, or the window's
        background scan): what a short read of the store asks (``inspect``: the count, the task agents' runs).
        Any other session asked for later reads every session's ids as before."""
        with self._lock:
            if self._ids is not None or self._scan is not None or self._total is not None:
                return
            kept = self.state.kept_ids() if self.state is not None else None
            if kept is not None:
                self._ids = kept
                return
        from daycare_gui.stores.daycare.pg.history_total import total_and_ids

        total, some = total_and_ids(self.db, list(sessions))  # (outside the lock: a start() never waits for it)
        with self._lock:
            if self._ids is None and self._total is None:
                self._total, self._some = total, some

    def ids(self, session_id: str) -> array:
        if self._ids is None and session_id in self._some:
            return self._some[session_id]
        return self._map().get(session_id, EMPTY)

    def count(self, session_id: str) -> int:
        return len(self.ids(session_id))

    def total(self) -> int:
        """Every record of the history (each has a session: ``session_id`` is NOT NULL)."""
        if self._ids is None and self._total is not None:
            return self._total
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
