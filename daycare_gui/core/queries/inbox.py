"""The durable inbox: items waiting for an agent, oldest first. Old items are stuck."""

from __future__ import annotations

from daycare_gui.core.db import ReadOnlyDatabase
from daycare_gui.core.queries.columns import TableColumns
from daycare_gui.core.records import InboxItem, parse_json_text

# An item the engine has not handled within this long is most likely stuck (the engine deletes items
# right after handling them, so anything old is waiting on something).
STUCK_AFTER_MS = 15 * 60 * 1000


def list_inbox(db: ReadOnlyDatabase, agent_id: str | None = None, *, limit: int = 5000,
               cols: TableColumns | None = None) -> list[InboxItem]:
    cols = cols or TableColumns(db)
    if not cols.has_table("inbox"):
        return []
    where, params = ("WHERE agent_id = :a", {"a": agent_id}) if agent_id else ("", {})
    params["n"] = limit
    rows = db.rows(f"SELECT id, agent_id, posted_at, type, data FROM inbox {where} "
                   "ORDER BY posted_at, id LIMIT :n", params)
    return [InboxItem(r[0], r[1], r[2], r[3], parse_json_text(r[4])) for r in rows]


def inbox_counts(db: ReadOnlyDatabase, now_ms: int, cols: TableColumns | None = None) -> dict[str, tuple[int, int]]:
    """agent id → (items, stuck items)."""
    cols = cols or TableColumns(db)
    if not cols.has_table("inbox"):
        return {}
    rows = db.rows("SELECT agent_id, count(*), sum(posted_at < :cut) FROM inbox GROUP BY agent_id",
                   {"cut": now_ms - STUCK_AFTER_MS})
    return {r[0]: (int(r[1]), int(r[2] or 0)) for r in rows}


def is_stuck(item: InboxItem, now_ms: int) -> bool:
    return item.posted_at < now_ms - STUCK_AFTER_MS
