"""The history's total and a few sessions' record ids, in one scan that groups nothing: what ``inspect`` needs.

Every session's ids (:mod:`~daycare_gui.stores.daycare.pg.history_keys`) come from a scan that groups a million
records by session in PGlite, 3 to 5 times the time of a bare ``count(*)`` of the same table (4.5x measured on
the 1M demo, 8.2 s against 1.8 s under a load of 5). ``inspect`` wants less: the history's count, and the
record ids of the sessions of the task agents, whose runs its automations' summary tells. Both come from one
pass in slices of the table's pages (each slice a statement well inside the statement timeout): a count of
every row, and the ids of the rows of those sessions only, each as ``<session's position>:<id>``.
"""

from __future__ import annotations

from array import array

SLICE_PAGES = 8192  # 64 MB of the table a statement: nothing waits between two slices here, so fewer, larger


def task_sessions(db, tables: set[str]) -> list[str]:
    """The sessions of every agent a task runs in: one its cron or webhook trigger names, or one at a task's
    path (``/<user>/task/<task>``), as :mod:`~daycare_gui.stores.daycare.pg.automations` finds them."""
    named = [f"SELECT agent_id FROM {t} WHERE agent_id IS NOT NULL" for t in ("tasks_cron", "tasks_webhook")
             if t in tables and "agent_id" in db.columns(t)]
    if "agents" in tables and "path" in db.columns("agents"):
        named.append("SELECT id FROM agents WHERE path LIKE '/%/task/%'")
    if not named or "sessions" not in tables:
        return []
    return [r[0] for r in db.rows(f"SELECT id FROM sessions WHERE agent_id IN ({' UNION '.join(named)})")]


def total_and_ids(db, sessions: list[str]) -> tuple[int, dict[str, array]]:
    """The history's count of records, and ``sessions``' record ids ascending (every one of them, also those
    with none), read in one pass."""
    pages = int(db.scalar("SELECT pg_relation_size('session_history') / current_setting('block_size')::bigint")
                or 0)
    total = 0
    found: list[list[int]] = [[] for _ in sessions]
    for lo in range(0, max(pages, 1), SLICE_PAGES):
        hi = lo + SLICE_PAGES
        where = f"ctid >= '({lo},0)'::tid" + (f" AND ctid < '({hi},0)'::tid" if hi < pages else "")
        count, pairs = db.rows(
            "SELECT count(*), string_agg(array_position(CAST(:s AS text[]), session_id) || ':' || id, ',') "
            f"FILTER (WHERE session_id = ANY(CAST(:s AS text[]))) FROM session_history WHERE {where}",
            {"s": sessions})[0]
        total += int(count or 0)
        for pair in (pairs or "").split(","):
            if pair:
                at, _, key = pair.partition(":")
                found[int(at) - 1].append(int(key))
    return total, {sid: array("q", sorted(got)) for sid, got in zip(sessions, found)}
