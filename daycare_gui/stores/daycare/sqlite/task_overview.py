"""Cron and heartbeat tasks as one list: each task's file and/or database row, and which copy Daycare reads.

Daycare 808af509 imported task files into ``tasks_cron``/``tasks_heartbeat`` once; after that it reads
only rows, so a file may be a stale leftover (both exist) or ignored (never imported). Before the import
it reads the files. :meth:`Store.task_sources` decides which; this module pairs each source with the
parsed file and row and picks the values the user should see — those of the copy Daycare reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from daycare_gui.stores.daycare.files.tasks import CronTask, HeartbeatTask
from daycare_gui.stores.daycare.sqlite.queries.tasks import (
    CronRow,
    HeartbeatRow,
    list_cron_rows,
    list_heartbeat_rows,
)

# Fields compared between a file and its row, so a stale file is pointed out.
_CRON_COMPARED = ("name", "schedule", "code", "agent_id", "user_id", "enabled", "delete_after_run")
_HEARTBEAT_COMPARED = ("title", "code")


@dataclass(frozen=True)
class TaskEntry:
    kind: str  # "cron" | "heartbeat"
    id: str
    presence: str  # "file", "row" or "both"
    reads: str  # "row", "file" or "nothing" (a file Daycare ignores)
    reason: str
    file: CronTask | HeartbeatTask | None
    row: CronRow | HeartbeatRow | None
    differs: tuple[str, ...] = ()  # fields where file and row disagree
    values: dict[str, Any] = field(default_factory=dict)  # shown values, from the copy Daycare reads

    def get(self, name: str, default=None):
        value = self.values.get(name)
        return default if value is None else value

    @property
    def name(self) -> str:
        return self.get("name") or self.get("title") or self.id

    @property
    def path(self) -> str | None:
        return self.file.path if self.file is not None else None

    @property
    def memory_path(self) -> str | None:
        return getattr(self.file, "memory_path", None)

    @property
    def aliases(self) -> dict:
        return dict(getattr(self.file, "aliases", {}) or {})

    @property
    def skip_reason(self) -> str | None:
        return self.file.skip_reason if self.file is not None else None

    @property
    def reads_label(self) -> str:
        return {"row": "database row", "file": "file"}.get(self.reads, "nothing (file ignored)")


def _cron_values(task: CronTask | None, row: CronRow | None) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if task is not None:
        out["file"] = {"name": task.name, "description": task.description, "schedule": task.schedule,
                       "code": task.code, "agent_id": task.agent_id, "user_id": task.user_id,
                       "enabled": task.enabled, "delete_after_run": task.delete_after_run,
                       "last_run_at": task.last_run_at_ms, "task_uid": task.task_uid}
    if row is not None:
        out["row"] = {"name": row.name, "description": row.description, "schedule": row.schedule,
                      "code": row.code, "agent_id": row.agent_id, "user_id": row.user_id,
                      "enabled": row.enabled, "delete_after_run": row.delete_after_run,
                      "last_run_at": row.last_run_at, "task_uid": row.task_uid}
    return out


def _heartbeat_values(task: HeartbeatTask | None, row: HeartbeatRow | None) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if task is not None:
        out["file"] = {"title": task.title, "code": task.code, "last_run_at": task.last_run_at_ms, "user_id": None}
    if row is not None:
        out["row"] = {"title": row.title, "code": row.code, "last_run_at": row.last_run_at, "user_id": row.user_id}
    return out


def _entries(kind: str, sources, files: dict, rows: dict, values_of, compared) -> list[TaskEntry]:
    out = []
    for src in sources:
        if src.kind != kind:
            continue
        task, row = files.get(src.id), rows.get(src.id)
        presence = "both" if task is not None and row is not None else ("row" if row is not None else "file")
        reads = src.reads if (src.reads == "file" and task is not None) or (src.reads == "row" and row) else "nothing"
        copies = values_of(task, row)
        shown = copies.get("row" if reads == "row" else "file") or copies.get("file") or copies.get("row") or {}
        differs = ()
        if "file" in copies and "row" in copies:
            differs = tuple(f for f in compared if (copies["file"].get(f) or None) != (copies["row"].get(f) or None))
        out.append(TaskEntry(kind, src.id, presence, reads, src.reason, task, row, differs, dict(shown)))
    return out


def cron_entries(store) -> list[TaskEntry]:
    """Every cron task of ``store`` (a :class:`~daycare_gui.stores.daycare.sqlite.store.Store`), file and row paired."""
    files = {t.id: t for t in store.files().items("cron_tasks")}
    rows = {r.id: r for r in list_cron_rows(store.db, store.cols)} if store.db is not None else {}
    return _entries("cron", store.task_sources(), files, rows, _cron_values, _CRON_COMPARED)


def heartbeat_entries(store) -> list[TaskEntry]:
    files = {t.id: t for t in store.files().items("heartbeat_tasks")}
    rows = {r.id: r for r in list_heartbeat_rows(store.db, store.cols)} if store.db is not None else {}
    return _entries("heartbeat", store.task_sources(), files, rows, _heartbeat_values, _HEARTBEAT_COMPARED)
