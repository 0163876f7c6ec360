"""What the History pane needs beyond :mod:`.history`: random-access pages and a conversation window.

Everything stays bounded. A page at an OFFSET serves a jump before the session's id array is known; the
row keys arrive in chunks (:func:`id_chunk`) so page fetches can run between them on the one DB worker.
:func:`conversation_window` reads the records around one record plus a bounded look-ahead and look-behind,
which is where Daycare writes the partners of a record (a tool call's result, an ``rlm_*`` run's other
steps, an ``assistant_rewrite`` of a recent message) — never the whole session.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass, field

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.records.history import HistoryRecord
from daycare_gui.stores.daycare.sqlite.queries.agents import get_agent
from daycare_gui.stores.daycare.sqlite.queries.history import (
    _PAGE_SELECT,
    _records,
    page_after,
    page_before,
    session_end,
)

# How far past the window's edges partners are looked for (records, not ids: each is an index range scan).
PARTNER_SPAN = 400
# The furthest a partner is looked for at all (a long rlm run between a call and its result).
FAR_SPAN = 5000


def page_at_offset(db: ReadOnlyDatabase, session_id: str, offset: int, limit: int = 200, *, lazy: bool = False):
    """``limit`` records starting at row ``offset`` of the session (id order), like :func:`page_after`.

    The OFFSET walks the session index only (ids, no payloads), then the page's rows are read by key.
    """
    rows = db.fetch(
        f"{_PAGE_SELECT} WHERE id IN (SELECT id FROM session_history WHERE session_id = :s "
        "ORDER BY id LIMIT :n OFFSET :o) ORDER BY id",
        {"s": session_id, "n": max(0, int(limit)), "o": max(0, int(offset))},
    )
    return _records(rows, lazy)


def id_chunk(db: ReadOnlyDatabase, session_id: str, after_id: int = -1, limit: int = 50_000) -> array:
    """The next ``limit`` record ids after ``after_id`` (index only), as a compact int64 array.

    Read as one value SQLite builds (a JSON array of the ids), not a row per id: Python's sqlite3 lets go of
    the interpreter lock around every row it steps, and a worker reading 5,000 ids while the GUI thread
    painted waited for it again at each one; one value is also half the CPU (1.2 ms a chunk against 2.1)."""
    text = db.fetch("SELECT json_group_array(id) FROM (SELECT id FROM session_history WHERE session_id = :s "
                    "AND id > :a ORDER BY id LIMIT :n)", {"s": session_id, "a": after_id, "n": limit})[0][0]
    ids = json.loads(text) if text else []
    ids.sort()  # (the order the subquery gave is the order SQLite aggregates in; not relied on)
    return array("q", ids)


@dataclass(frozen=True)
class SessionHeader:
    agent_id: str
    session_id: str
    agent_name: str
    created_at: int | None
    ended_at: int | None
    record_count: int | None  # None: not counted (``session_header(..., count=False)``)
    found: bool  # False: no such session in this store
    last_id: int | None = None  # its last record's id (-1: none yet; None: not counted); a live view grows from it


def session_header(db: ReadOnlyDatabase, agent_id: str, session_id: str, *, count: bool = True) -> SessionHeader:
    """Who and when, and how many records (counting walks the session's index: leave it for later with
    ``count=False`` when the first page can be shown before it)."""
    agent = get_agent(db, agent_id) if agent_id else None
    row = db.rows("SELECT created_at, ended_at FROM sessions WHERE id = :s", {"s": session_id})
    created, ended = (row[0][0], row[0][1]) if row else (None, None)
    records, last = session_end(db, session_id) if count else (None, None)
    last_id = None if not count else -1 if last is None else int(last)
    return SessionHeader(agent_id, session_id, agent.name if agent is not None else (agent_id or "?"),
                         created, ended, records, bool(row), last_id)


@dataclass
class ConversationWindow:
    """The records around ``focus_id`` and the partners needed to show them as a conversation."""

    session_id: str
    focus_id: int | None
    records: list[HistoryRecord]  # in id order
    problems: dict[int, str] = field(default_factory=dict)  # record id → why its data did not parse
    results: dict[str, HistoryRecord] = field(default_factory=dict)  # toolCallId → tool_result
    rlm_runs: dict[str, list[HistoryRecord]] = field(default_factory=dict)  # toolCallId → rlm_* in id order
    rewrites: dict[int, HistoryRecord] = field(default_factory=dict)  # assistant message `at` → its rewrite
    rewritten: dict[int, HistoryRecord] = field(default_factory=dict)  # rewrite id → the message it rewrote
    more_before: bool = False
    more_after: bool = False


def _range(db, session_id: str, lo: int, hi: int | None, limit: int):
    """Records with lo < id (< hi), at most ``limit``, in id order (nearest to ``lo`` first)."""
    if hi is None:
        return page_after(db, session_id, lo, limit)
    rows = db.rows(f"{_PAGE_SELECT} WHERE session_id = :s AND id > :a AND id < :b ORDER BY id LIMIT :n",
                   {"s": session_id, "a": lo, "b": hi, "n": limit})
    return _records(rows)


def conversation_window(db: ReadOnlyDatabase, session_id: str, focus_id: int | None, *, before: int = 30,
                        after: int = 30, span: int = PARTNER_SPAN) -> ConversationWindow:
    """Records around ``focus_id`` (the session's end when None), with tool results, rlm runs and rewrites
    paired even when the partner lies just outside the window (up to ``span`` records away)."""
    if focus_id is None:
        head = page_before(db, session_id, None, before + after + 1)
        tail = []
    else:
        head = page_before(db, session_id, focus_id + 1, before + 1)
        tail = page_after(db, session_id, focus_id, after)
    window = head + tail
    win = ConversationWindow(session_id, focus_id, [r for r, _p, _s in window],
                             {r.id: p for r, p, _s in window if p})
    if not window:
        return win
    first_id, last_id = window[0][0].id, window[-1][0].id
    behind = page_before(db, session_id, first_id, span)
    ahead = page_after(db, session_id, last_id, span)
    win.more_before = bool(behind or page_before(db, session_id, first_id, 1))
    win.more_after = bool(ahead or page_after(db, session_id, last_id, 1))
    nearby = [r for r, _p, _s in behind] + win.records + [r for r, _p, _s in ahead]

    call_ids = pair_partners(win, nearby)
    # A result further away than the look-ahead (a long rlm run) is looked for by toolCallId, still bounded.
    missing = sorted(c for c in call_ids if c not in win.results)
    if missing and win.more_after:
        start = ahead[-1][0].id if ahead else last_id
        win.results.update(_results_after(db, session_id, start, missing, FAR_SPAN))

    for rec in win.records:  # rewrites of messages older than the look-behind
        if rec.type == "assistant_rewrite" and rec.id not in win.rewritten and rec.assistant_at is not None:
            original = _assistant_at(db, session_id, rec.assistant_at, rec.id)
            if original is not None:
                win.rewritten[rec.id] = original
    return win


def pair_partners(win: ConversationWindow, nearby: list[HistoryRecord]) -> set[str]:
    """Pair the window's tool calls with their results and rlm steps, and rewrites with the messages they
    rewrote, looking only at ``nearby`` records (in id order). Returns the tool call ids wanted."""
    call_ids = {c.id for r in win.records for c in r.tool_calls if c.id}
    call_ids |= {r.tool_call_id for r in win.records if r.tool_call_id}
    for rec in nearby:
        if rec.tool_call_id in call_ids:
            if rec.type == "tool_result":
                win.results.setdefault(rec.tool_call_id, rec)
            elif rec.is_rlm:
                win.rlm_runs.setdefault(rec.tool_call_id, []).append(rec)
    messages_by_at = {r.at: r for r in nearby if r.type == "assistant_message"}
    for rec in nearby:
        if rec.type == "assistant_rewrite" and rec.assistant_at is not None:
            original = messages_by_at.get(rec.assistant_at)
            if original is not None:
                win.rewritten[rec.id] = original
                win.rewrites.setdefault(original.at, rec)
    return call_ids


def _results_after(db: ReadOnlyDatabase, session_id: str, after_id: int, call_ids: list[str],
                   limit: int) -> dict[str, HistoryRecord]:
    """tool_result records for ``call_ids`` among the next ``limit`` records after ``after_id``."""
    params = {f"t{i}": v for i, v in enumerate(call_ids)}
    params.update(s=session_id, a=after_id, n=limit)
    marks = ", ".join(f":t{i}" for i in range(len(call_ids)))
    rows = db.rows(
        f"{_PAGE_SELECT} WHERE id IN (SELECT id FROM session_history WHERE session_id = :s AND id > :a "
        "ORDER BY id LIMIT :n) AND type = 'tool_result' AND json_valid(data) "
        f"AND json_extract(data, '$.toolCallId') IN ({marks}) ORDER BY id", params)
    return {rec.tool_call_id: rec for rec, _p, _s in _records(rows) if rec.tool_call_id}


def _assistant_at(db: ReadOnlyDatabase, session_id: str, at: int, before_id: int) -> HistoryRecord | None:
    rows = db.rows(
        f"{_PAGE_SELECT} WHERE id IN (SELECT id FROM session_history WHERE session_id = :s AND id < :b "
        "ORDER BY id DESC LIMIT :n) AND type = 'assistant_message' AND at = :t ORDER BY id DESC LIMIT 1",
        {"s": session_id, "b": before_id, "t": at, "n": FAR_SPAN})
    recs = _records(rows)
    return recs[0][0] if recs else None
