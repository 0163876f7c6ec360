"""Sessions of an agent, with record counts computed in SQL."""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns

SESSION_COLUMNS = [
    "id", "agent_id", "inference_session_id", "created_at", "reset_message",
    "invalidated_at", "processed_until", "ended_at",
]


@dataclass(frozen=True)
class Session:
    id: str
    agent_id: str
    inference_session_id: str | None
    created_at: int | None
    reset_message: str | None
    ended_at: int | None
    invalidated_at: int | None  # a session_history id, not a time
    processed_until: int | None  # a session_history id, not a time
    record_count: int | None
    is_active: bool
    raw: dict = field(default_factory=dict, repr=False)


def list_sessions(db: ReadOnlyDatabase, agent_id: str, *, with_counts: bool = True,
                  cols: TableColumns | None = None) -> list[Session]:
    cols = cols or TableColumns(db)
    if not cols.has_table("sessions"):
        return []
    active = None
    if cols.has_table("agents") and "active_session_id" in cols.of("agents"):
        active = db.scalar("SELECT active_session_id FROM agents WHERE id = :a", {"a": agent_id})
    count_sql = (
        ", (SELECT count(*) FROM session_history h WHERE h.session_id = s.id) AS record_count"
        if with_counts and cols.has_table("session_history") else ", NULL AS record_count"
    )
    sql = (f"SELECT {cols.select_list('sessions', SESSION_COLUMNS, 's')}{count_sql} "
           "FROM sessions s WHERE s.agent_id = :a ORDER BY s.created_at, s.rowid")
    out = []
    for row in db.rows(sql, {"a": agent_id}):
        m = dict(row._mapping)
        out.append(Session(
            id=m["id"], agent_id=m["agent_id"], inference_session_id=m.get("inference_session_id"),
            created_at=m.get("created_at"), reset_message=m.get("reset_message"), ended_at=m.get("ended_at"),
            invalidated_at=m.get("invalidated_at"), processed_until=m.get("processed_until"),
            record_count=m.get("record_count"), is_active=(m["id"] == active), raw=m,
        ))
    return out

