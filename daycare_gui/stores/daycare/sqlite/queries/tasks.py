"""Cron and heartbeat tasks as rows (after Daycare imported them), any schema generation."""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.sqlite.queries.columns import TableColumns

CRON_COLUMNS = ["id", "task_uid", "task_id", "user_id", "name", "description", "schedule", "code", "prompt",
                "agent_id", "enabled", "delete_after_run", "last_run_at", "created_at", "updated_at"]
HEARTBEAT_COLUMNS = ["id", "task_id", "title", "code", "prompt", "last_run_at", "created_at", "updated_at", "user_id"]


@dataclass(frozen=True)
class CronRow:
    id: str
    task_uid: str | None
    task_id: str | None
    user_id: str | None
    name: str
    description: str | None
    schedule: str
    code: str | None  # None once a later Daycare moved code to the `tasks` table
    agent_id: str | None
    enabled: bool
    delete_after_run: bool
    last_run_at: int | None
    created_at: int | None
    updated_at: int | None
    raw: dict = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class HeartbeatRow:
    id: str
    task_id: str | None
    title: str
    code: str | None
    last_run_at: int | None
    created_at: int | None
    updated_at: int | None
    user_id: str | None
    raw: dict = field(default_factory=dict, repr=False)


def list_cron_rows(db: ReadOnlyDatabase, cols: TableColumns | None = None) -> list[CronRow]:
    cols = cols or TableColumns(db)
    if not cols.has_table("tasks_cron"):
        return []
    out = []
    for row in db.rows(f"SELECT {cols.select_list('tasks_cron', CRON_COLUMNS)} FROM tasks_cron ORDER BY id"):
        m = dict(row._mapping)
        out.append(CronRow(
            id=m["id"], task_uid=m.get("task_uid"), task_id=m.get("task_id"), user_id=m.get("user_id"),
            name=m.get("name") or "", description=m.get("description"), schedule=m.get("schedule") or "",
            code=m.get("code") if m.get("code") is not None else m.get("prompt"), agent_id=m.get("agent_id"),
            enabled=bool(m.get("enabled", 1)), delete_after_run=bool(m.get("delete_after_run")),
            last_run_at=m.get("last_run_at"), created_at=m.get("created_at"), updated_at=m.get("updated_at"),
            raw=m,
        ))
    return out


def list_heartbeat_rows(db: ReadOnlyDatabase, cols: TableColumns | None = None) -> list[HeartbeatRow]:
    cols = cols or TableColumns(db)
    if not cols.has_table("tasks_heartbeat"):
        return []
    out = []
    for row in db.rows(f"SELECT {cols.select_list('tasks_heartbeat', HEARTBEAT_COLUMNS)} FROM tasks_heartbeat ORDER BY id"):
        m = dict(row._mapping)
        out.append(HeartbeatRow(
            id=m["id"], task_id=m.get("task_id"), title=m.get("title") or "",
            code=m.get("code") if m.get("code") is not None else m.get("prompt"),
            last_run_at=m.get("last_run_at"), created_at=m.get("created_at"), updated_at=m.get("updated_at"),
            user_id=m.get("user_id"), raw=m,
        ))
    return out
