"""The durable inbox: items waiting for an agent, oldest first. Old items are stuck."""

from __future__ import annotations

from dataclasses import dataclass

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.records.json_values import parse_json_text
from daycare_gui.stores.daycare.records.subsystems import InboxItem
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns

# An item the engine has not handled within this long is most likely stuck (the engine deletes items
# right after handling them, so anything old is waiting on something).
STUCK_AFTER_MS = 15 * 60 * 1000


@dataclass(frozen=True)
class InboxFilter:
    """What the Inbox page narrows to, run in SQL: one agent, text in the kind, agent or item, stuck only."""

    agent_id: str | None = None
    text: str = ""
    stuck_only: bool = False

    def where(self, now_ms: int, cols: TableColumns) -> tuple[str, dict]:
        parts, params = [], {}
        if self.agent_id:
            parts.append("agent_id = :a")
            params["a"] = self.agent_id
        if self.stuck_only:
            parts.append("posted_at < :cut")
            params["cut"] = now_ms - STUCK_AFTER_MS
        needle = self.text.strip().lower()
        if needle:
            searched = ["instr(lower(type), :t) > 0", "instr(lower(agent_id), :t) > 0",
                        "instr(lower(CAST(data AS TEXT)), :t) > 0"]
            if cols.has_table("agents") and "descriptor" in cols.of("agents"):  # the agent's name
                searched.append("agent_id IN (SELECT id FROM agents WHERE instr(lower(descriptor), :t) > 0)")
            parts.append(f"({' OR '.join(searched)})")
            params["t"] = needle
        return (" WHERE " + " AND ".join(parts)) if parts else "", params


def list_inbox(db: ReadOnlyDatabase, agent_id: str | None = None, *, limit: int = 5000,
               cols: TableColumns | None = None, flt: InboxFilter | None = None, now_ms: int = 0,
               after: tuple[int, str] | None = None) -> list[InboxItem]:
    """Items oldest first; ``after`` (posted_at, id) of the last item held gives the next page by key."""
    cols = cols or TableColumns(db)
    if not cols.has_table("inbox"):
        return []
    flt = flt or InboxFilter(agent_id)
    where, params = flt.where(now_ms, cols)
    if after is not None:
        where += (" AND " if where else " WHERE ") + "(posted_at > :ap OR (posted_at = :ap AND id > :ai))"
        params.update(ap=after[0], ai=after[1])
    params["n"] = limit
    rows = db.rows(f"SELECT id, agent_id, posted_at, type, data FROM inbox{where} "
                   "ORDER BY posted_at, id LIMIT :n", params)
    return [InboxItem(r[0], r[1], r[2], r[3], parse_json_text(r[4])) for r in rows]


def inbox_totals(db: ReadOnlyDatabase, now_ms: int, flt: InboxFilter = InboxFilter(),
                 cols: TableColumns | None = None) -> tuple[int, int]:
    """(items, stuck items) matching ``flt``."""
    cols = cols or TableColumns(db)
    if not cols.has_table("inbox"):
        return 0, 0
    where, params = flt.where(now_ms, cols)
    params["stuck_cut"] = now_ms - STUCK_AFTER_MS
    row = db.rows(f"SELECT count(*), sum(posted_at < :stuck_cut) FROM inbox{where}", params)[0]
    return int(row[0]), int(row[1] or 0)


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
