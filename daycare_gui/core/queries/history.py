"""Session history, paged by key.

Nothing here reads a whole session. Pages are fetched by ``id`` (the primary key, in the order Daycare
reads history) through the ``idx_session_history_session`` index. Large payloads (``rlm_tool_call``
snapshots, an encoded VM image) are left out of pages and fetched only when the raw view asks.
"""

from __future__ import annotations

from array import array

from daycare_gui.core.db import ReadOnlyDatabase
from daycare_gui.core.records import HistoryRecord, parse_history_row

# Page rows carry the payload minus the snapshot; `data_size` says how big the stored value really is.
_PAGE_SELECT = (
    "SELECT id, session_id, type, at, "
    "CASE WHEN type = 'rlm_tool_call' AND json_valid(data) THEN json_remove(data, '$.snapshot') ELSE data END, "
    "length(data) FROM session_history"
)


def _records(rows) -> list[tuple[HistoryRecord, str | None, int]]:
    """(record, parse problem or None, stored size in bytes)."""
    out = []
    for r in rows:
        rec, problem = parse_history_row(r[0], r[1], r[2], r[3], r[4])
        out.append((rec, problem, r[5] or 0))
    return out


def count_history(db: ReadOnlyDatabase, session_id: str) -> int:
    return int(db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s", {"s": session_id}) or 0)


def page_after(db: ReadOnlyDatabase, session_id: str, after_id: int = -1, limit: int = 200):
    """The first ``limit`` records with id > ``after_id``."""
    rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s AND id > :a ORDER BY id LIMIT :n",
                    {"s": session_id, "a": after_id, "n": limit})
    return _records(rows)


def page_before(db: ReadOnlyDatabase, session_id: str, before_id: int | None = None, limit: int = 200):
    """The last ``limit`` records with id < ``before_id`` (or the session's last page), in id order."""
    if before_id is None:
        rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s ORDER BY id DESC LIMIT :n",
                        {"s": session_id, "n": limit})
    else:
        rows = db.fetch(f"{_PAGE_SELECT} WHERE session_id = :s AND id < :b ORDER BY id DESC LIMIT :n",
                        {"s": session_id, "b": before_id, "n": limit})
    return _records(reversed(rows))


def page_by_ids(db: ReadOnlyDatabase, ids) -> list:
    ids = list(ids)
    if not ids:
        return []
    lo, hi = min(ids), max(ids)
    wanted = set(ids)
    rows = db.fetch(f"{_PAGE_SELECT} WHERE id BETWEEN :lo AND :hi ORDER BY id", {"lo": lo, "hi": hi})
    return _records(r for r in rows if r[0] in wanted)


def history_ids(db: ReadOnlyDatabase, session_id: str, cancel=None) -> array:
    """Every record id of a session, as a compact int64 array (8 bytes a record): the model's row keys.

    Reads the index only (no payloads). ``cancel()`` returning True stops early and returns None.
    """
    out = array("q")
    last = -1
    while True:
        if cancel is not None and cancel():
            return None
        rows = db.rows("SELECT id FROM session_history WHERE session_id = :s AND id > :a ORDER BY id LIMIT 50000",
                       {"s": session_id, "a": last})
        if not rows:
            return out
        out.extend(r[0] for r in rows)
        last = rows[-1][0]


def full_data(db: ReadOnlyDatabase, record_id: int) -> str | None:
    """The stored ``data`` text of one record, snapshot included (for the raw JSON view)."""
    return db.scalar("SELECT data FROM session_history WHERE id = :i", {"i": record_id})


def locate(db: ReadOnlyDatabase, session_id: str, record_id: int) -> int:
    """Row number of ``record_id`` within its session (for "open search result at this record")."""
    return int(db.scalar("SELECT count(*) FROM session_history WHERE session_id = :s AND id < :i",
                         {"s": session_id, "i": record_id}) or 0)


def tool_results_for(db: ReadOnlyDatabase, session_id: str, tool_call_ids: list[str]) -> dict[str, HistoryRecord]:
    """Pair tool calls with their results even when the result falls on another page."""
    if not tool_call_ids:
        return {}
    params = {f"t{i}": v for i, v in enumerate(tool_call_ids)}
    params["s"] = session_id
    marks = ", ".join(f":t{i}" for i in range(len(tool_call_ids)))
    rows = db.rows(
        f"{_PAGE_SELECT} WHERE session_id = :s AND type = 'tool_result' "
        f"AND json_valid(data) AND json_extract(data, '$.toolCallId') IN ({marks}) ORDER BY id", params)
    return {rec.tool_call_id: rec for rec, _p, _s in _records(rows) if rec.tool_call_id}


def activity_per_day(db: ReadOnlyDatabase) -> list[tuple[int, int]]:
    """(day start in ms, records that day) across every session — computed in SQL."""
    rows = db.rows("SELECT (at / 86400000) * 86400000 AS day, count(*) FROM session_history GROUP BY day ORDER BY day")
    return [(int(r[0]), int(r[1])) for r in rows]
