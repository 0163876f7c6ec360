"""Session history, paged by key.

Nothing here reads a whole session. Pages are fetched by ``id`` (the primary key, in the order Daycare
reads history) through the ``idx_session_history_session`` index. Large payloads (``rlm_tool_call``
snapshots, an encoded VM image) are left out of pages and fetched only when the raw view asks.
"""

from __future__ import annotations

import json

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.records.history import HistoryRecord, history_record_from, parse_history_row
from daycare_gui.stores.records.activity import whole_ms

# Page rows carry the payload minus the snapshot; the last column says how big the stored value really is
# where the snapshot was cut (NULL elsewhere: the payload itself is the stored value, measured in Python).
_PAYLOAD = "CASE WHEN type = 'rlm_tool_call' AND json_valid(data) THEN json_remove(data, '$.snapshot') ELSE data END"
_STORED_SIZE = "CASE WHEN type = 'rlm_tool_call' THEN length(data) END"
_PAGE_SELECT = f"SELECT id, session_id, type, at, {_PAYLOAD}, {_STORED_SIZE} FROM session_history"


# A lazy page's rows as one row SQLite builds (its columns each one text, a separator between the rows'
# values), checked before it is taken: every value of the kind Daycare writes (an integer id and time, a
# text type and payload) and no separator inside one. Python's sqlite3 lets go of the interpreter lock around
# every row it steps; a page read while the GUI thread paints (the lock's holder through Qt's drawing) waited
# for it again at each of its 200 rows, and came after the scroll step that wanted it (the step painted
# "…", then the rows). One row costs the same CPU (0.35 ms a page, alone on a thread) and takes the lock
# once. Anything else — a BLOB, a REAL time, a separator in a payload, text that is not UTF-8 — is read row
# by row as before. (The texts come as bytes, decoded here: a page holding text that is not UTF-8 then
# fails as its row-by-row read does, not with the whole page's payloads in sqlite3's error message.)
_ROW_SEP, _DATA_SEP = "\x1f", "\x1e"  # (the unit and record separators: never in Daycare's JSON text)
_PAGE_VALUES = f"SELECT id, type, at, {_PAYLOAD} AS d, {_STORED_SIZE} AS size FROM session_history"
_ONE_ROW = (
    "SELECT count(*), "
    "total(typeof(id) = 'integer' AND typeof(at) = 'integer' AND typeof(type) = 'text' AND typeof(d) = 'text' "
    "AND instr(type, char(31)) = 0 AND instr(d, char(30)) = 0 AND instr(d, char(0)) = 0), "
    "group_concat(id, char(31)), CAST(group_concat(type, char(31)) AS BLOB), group_concat(at, char(31)), "
    "group_concat(ifnull(size, ''), char(31)), CAST(group_concat(d, char(30)) AS BLOB) FROM ({page})"
)


def _page_rows(db: ReadOnlyDatabase, session_id: str, where: str, order: str, params: dict) -> list[tuple]:
    """The page's rows (as ``_PAGE_SELECT`` gives them), in ``order`` of id, read as one row where they allow
    it (see ``_ONE_ROW``)."""
    page = f"{_PAGE_VALUES} WHERE session_id = :s{where} ORDER BY id {order} LIMIT :n"
    found = db.fetch(_ONE_ROW.format(page=page), params)
    n, plain, ids, types, ats, sizes, data = found[0] if found else (0, 0, None, None, None, None, None)
    if not n:
        return []
    if plain == n:
        try:
            types, data = types.decode("utf-8").split(_ROW_SEP), data.decode("utf-8").split(_DATA_SEP)
        except UnicodeDecodeError:
            types = data = ()
        ids = [int(i) for i in ids.split(_ROW_SEP)]
        ats, sizes = ats.split(_ROW_SEP), sizes.split(_ROW_SEP)
        step = -1 if order == "DESC" else 1
        # (the rows must have come in the page's order: SQLite concatenates a subquery's rows as it steps
        # them, which its documentation does not promise)
        if (len(ids) == len(types) == len(ats) == len(sizes) == len(data) == n
                and all((b - a) * step > 0 for a, b in zip(ids, ids[1:]))):
            return [(i, session_id, t, int(a), d, int(z) if z else None)
                    for i, t, a, d, z in zip(ids, types, ats, data, sizes)]
    return db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s{where} ORDER BY id {order} LIMIT :n", params)


# A payload longer than this is decoded on the worker even for a lazy page: decoding it where it is shown
# (the GUI thread) could take longer than a frame.
LAZY_MAX_CHARS = 16_384


class PendingRecord:
    """A page row read but not decoded yet: its key, and what :meth:`decode` needs.

    A list shows a few dozen rows of a 200-row page; decoding a record (JSON and the typed record) costs
    about 17 µs, ten times reading it, and the worker that reads pages holds the interpreter lock while it
    decodes — the GUI thread painting meanwhile waits for it. Pages for a list (``lazy=True``) therefore
    carry these, and the view decodes the rows it shows, once each."""

    __slots__ = ("id", "_row")

    def __init__(self, row) -> None:
        self.id = row[0]
        self._row = row

    def decode(self) -> tuple[HistoryRecord, str | None, int]:
        return _record(self._row)

    def decode_line(self) -> tuple[HistoryRecord, str | None, int]:
        """:meth:`decode` with a lean record: only what its summary reads (see ``history_record_from``)."""
        return _record(self._row, lean=True)


# json.loads is this plus two Python calls around it (a tenth of a page's decoding): decode straight away,
# and send anything it would not take as it is (space around the object, extra data) the careful way.
_decode = json.JSONDecoder().raw_decode


def _record(r, lean: bool = False) -> tuple[HistoryRecord, str | None, int]:
    if type(r[3]) is not int:  # (SQLite keeps what it is given: a time as text or a REAL, in another tool's row)
        return _record_with_odd_time(r, lean)
    return _typed(r, r[3], lean)


def _typed(r, at: int | None, lean: bool) -> tuple[HistoryRecord, str | None, int]:
    raw = r[4]
    obj = None
    if isinstance(raw, str):  # the usual row, decoded here; anything odd takes the careful path
        try:
            obj, end = _decode(raw)
        except ValueError:
            obj = None
        else:
            if end != len(raw):
                obj = None
    if isinstance(obj, dict):
        rec, problem = history_record_from(r[2], at, obj, id=r[0], session_id=r[1], lean=lean), None
    else:
        rec, problem = parse_history_row(r[0], r[1], r[2], at, raw)
    return rec, problem, r[5] if r[5] is not None else len(raw or "")


def _record_with_odd_time(r, lean: bool) -> tuple[HistoryRecord, str | None, int]:
    """:func:`_record` of a row whose time is not an integer: a finite REAL is its milliseconds (whole);
    anything else is no time (the list says "time unknown"), and the record says why, without quoting it."""
    at = whole_ms(r[3])
    if at is not None:
        return _typed(r, at, lean)
    rec, problem, size = _typed(r, None, lean)
    odd = f"its time is stored as {_STORED_KIND.get(type(r[3]), 'something else')}, not as milliseconds"
    return rec, f"{odd}; {problem}" if problem else odd, size


_STORED_KIND = {str: "text", bytes: "bytes", float: "a number out of range"}


def _records(rows, lazy: bool = False) -> list:
    """(record, parse problem or None, stored size: SQLite's length(), characters for text) per row; with
    ``lazy``, a :class:`PendingRecord` for each row of ordinary size (see there)."""
    if lazy:
        return [PendingRecord(r) if isinstance(r[4], str) and len(r[4]) <= LAZY_MAX_CHARS else _record(r)
                for r in rows]
    return [_record(r) for r in rows]


def entry_id(entry) -> int | None:
    """The record id of a page entry, decoded or not."""
    return entry.id if type(entry) is PendingRecord else entry[0].id


def count_history(db: ReadOnlyDatabase, session_id: str) -> int:
    return int(db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s", {"s": session_id}) or 0)


def page_after(db: ReadOnlyDatabase, session_id: str, after_id: int = -1, limit: int = 200, *, lazy: bool = False):
    """The first ``limit`` records with id > ``after_id`` (``lazy``: see :class:`PendingRecord`)."""
    params = {"s": session_id, "a": after_id, "n": limit}
    if lazy:
        return _records(_page_rows(db, session_id, " AND id > :a", "", params), lazy)
    rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s AND id > :a ORDER BY id LIMIT :n", params)
    return _records(rows, lazy)


def page_before(db: ReadOnlyDatabase, session_id: str, before_id: int | None = None, limit: int = 200, *,
                lazy: bool = False):
    """The last ``limit`` records with id < ``before_id`` (or the session's last page), in id order."""
    if lazy:
        where, params = ("", {"s": session_id, "n": limit}) if before_id is None else (
            " AND id < :b", {"s": session_id, "b": before_id, "n": limit})
        return _records(reversed(_page_rows(db, session_id, where, "DESC", params)), lazy)
    if before_id is None:
        rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s ORDER BY id DESC LIMIT :n",
                        {"s": session_id, "n": limit})
    else:
        rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s AND id < :b ORDER BY id DESC LIMIT :n",
                        {"s": session_id, "b": before_id, "n": limit})
    return _records(reversed(rows), lazy)


def session_end(db: ReadOnlyDatabase, session_id: str, after_id: int = -1) -> tuple[int, int | None]:
    """How many records follow ``after_id`` and the last one's id (index only: nothing is read).

    One statement, so both come from one snapshot of a store a writer is adding to; two subqueries in it,
    because SQLite answers ``count(*), max(id)`` by stepping every row of the range twice as slowly as a
    bare count (9.6 against 4.9 ms for 120,000 records), while ``max(id)`` on its own is one index seek."""
    row = db.fetch("SELECT (SELECT count(*) FROM session_history WHERE session_id = :s AND id > :a), "
                   "(SELECT max(id) FROM session_history WHERE session_id = :s AND id > :a)",
                   {"s": session_id, "a": after_id})
    return (int(row[0][0] or 0), row[0][1]) if row else (0, None)


def session_growth(db: ReadOnlyDatabase, session_id: str, after_id: int, limit: int = 200):
    """What a live writer appended after ``after_id``: (how many, the last id, the newest ``limit`` of
    them in id order). The rows are read up to that last id, so they agree with the count even when the
    writer commits again between the two statements."""
    added, last = session_end(db, session_id, after_id)
    if not added:
        return 0, after_id, []
    rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s AND id > :a AND id <= :b ORDER BY id DESC LIMIT :n",
                    {"s": session_id, "a": after_id, "b": last, "n": limit})
    return added, int(last), _records(reversed(rows))


def full_data(db: ReadOnlyDatabase, record_id: int) -> str | None:
    """The stored ``data`` text of one record, snapshot included (for the raw JSON view)."""
    return db.scalar("SELECT data FROM session_history WHERE id = :i", {"i": record_id})


def locate(db: ReadOnlyDatabase, session_id: str, record_id: int) -> int:
    """Row number of ``record_id`` within its session (for "open search result at this record")."""
    return int(db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s AND id < :i",
                         {"s": session_id, "i": record_id}) or 0)


def activity_per_day(db: ReadOnlyDatabase) -> list[tuple[int, int]]:
    """(day start in ms, records that day) across every session — computed in SQL."""
    rows = db.rows("SELECT (at / 86400000) * 86400000 AS day, count(*) FROM session_history GROUP BY day ORDER BY day")
    return [(int(r[0]), int(r[1])) for r in rows]
