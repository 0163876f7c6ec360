"""Today's Daycare cron and webhook tasks, and its charts by day (tokens and cost per model, activity)."""

from __future__ import annotations

import datetime as _dt

from daycare_gui.stores import api
from daycare_gui.stores.daycare.pg.on_store import OnStore
from daycare_gui.stores.daycare.pg.shown_rows import plain_values
from daycare_gui.stores.records import DayCount, TaskItem


def _ms_day(ms: int) -> str:
    return _dt.datetime.fromtimestamp(ms / 1000, _dt.timezone.utc).strftime("%Y-%m-%d")


class PgTasks(OnStore, api.Tasks):
    reader = "Daycare"

    def __init__(self, store) -> None:
        self.store = store

    def groups(self) -> tuple[tuple[str, str], ...]:
        # Today's Daycare keeps no heartbeat tasks: cron rows, and webhooks that run a task when called
        return (("cron", "Cron tasks"), ("webhook", "Webhooks"))

    def count_of(self, group: str) -> int | None:
        table = {"cron": "tasks_cron", "webhook": "tasks_webhook"}.get(group)
        if table is None or not self.store.has(table):
            return 0
        return int(self.db.scalar(f"SELECT count(*) FROM {table} WHERE valid_to IS NULL") or 0)

    def tasks(self) -> list[TaskItem]:
        out = []
        if self.store.has("tasks_cron"):
            rows = self.db.mappings(
                "SELECT c.*, t.title AS t_title, t.code AS t_code, t.version AS t_version FROM tasks_cron c "
                "LEFT JOIN tasks t ON t.id = c.task_id AND t.user_id = c.user_id AND t.valid_to IS NULL "
                "WHERE c.valid_to IS NULL ORDER BY c.id")
            for r in rows:
                out.append(TaskItem(
                    id=r["id"], title=r.get("t_title") or r["id"], schedule_kind="cron",
                    schedule=r.get("schedule") or "", timezone=r.get("timezone") or "",
                    enabled=bool(r.get("enabled")), last_run_at=r.get("last_run_at"), source="tasks_cron",
                    body=r.get("t_code") or "", meta=(("Task", r.get("task_id") or ""), ("Version", str(r["version"]))),
                    raw=plain_values(r), problem=None if r.get("t_title") is not None else "its task row is missing"))
        if self.store.has("tasks_webhook"):
            for r in self.db.mappings("SELECT * FROM tasks_webhook WHERE valid_to IS NULL ORDER BY id"):
                out.append(TaskItem(id=r["id"], title=r.get("task_id") or r["id"], schedule_kind="webhook",
                                    last_run_at=r.get("last_run_at"), source="tasks_webhook", raw=plain_values(r)))
        return out

    def editable(self, task: TaskItem) -> tuple[api.EditableField, ...]:
        if task.schedule_kind != "cron":
            return ()
        return (api.EditableField("title", "Title"), api.EditableField("schedule", "Schedule (cron)", "schedule"),
                api.EditableField("timezone", "Timezone", help="An IANA name such as Europe/Berlin"),
                api.EditableField("enabled", "Enabled", "bool"), api.EditableField("body", "Code", "markdown"))

    def update(self, task: TaskItem, changes: dict, *, force: bool = False) -> TaskItem:
        from daycare_gui.stores.daycare.pg.writes import update_cron_task

        update_cron_task(self.store, task, changes, force=force)
        return next((t for t in self.tasks() if t.id == task.id), task)


class PgCharts(OnStore, api.Charts):
    def __init__(self, store) -> None:
        self.store = store

    def tokens_per_day(self) -> list[DayCount]:
        if not self.store.has("token_stats_hourly"):
            return []
        rows = self.db.rows(
            "SELECT (hour_start / 86400000) AS d, model, sum(coalesce(input_tokens, 0) + coalesce(output_tokens, 0)) "
            "FROM token_stats_hourly GROUP BY d, model ORDER BY d, model")
        return [DayCount(_ms_day(int(d) * 86400000), m or "", float(v)) for d, m, v in rows]

    def cost_per_day(self) -> list[DayCount]:
        if not self.store.has("token_stats_hourly"):
            return []
        rows = self.db.rows("SELECT (hour_start / 86400000) AS d, model, sum(coalesce(cost, 0)) "
                            "FROM token_stats_hourly GROUP BY d, model ORDER BY d, model")
        return [DayCount(_ms_day(int(d) * 86400000), m or "", float(v)) for d, m, v in rows]

    def activity_per_day(self) -> list[DayCount]:
        rows = self.db.rows("SELECT (at / 86400000) AS d, count(*) FROM session_history GROUP BY d ORDER BY d")
        return [DayCount(_ms_day(int(d) * 86400000), "", float(n)) for d, n in rows if d is not None]
