"""The small demo's rows as they are built: the tables in insert order and the model every builder adds to
(:mod:`.db_rows` and the modules it calls, and :mod:`.files`, read and fill the same :class:`DemoModel`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.daycare.demo.ids import NOW_MS

# Tables in insert order (parents before children so foreign keys hold at every step).
TABLES = (
    "users", "user_connector_keys", "connections", "agents", "sessions", "session_history", "inbox",
    "tasks_cron", "tasks_heartbeat", "signals_events", "signals_subscriptions", "signals_delayed",
    "channels", "channel_members", "channel_messages", "expose_endpoints", "processes", "system_prompts",
)


@dataclass
class DemoModel:
    rows: dict[str, list[dict]] = field(default_factory=lambda: {t: [] for t in TABLES})
    users: dict[str, str] = field(default_factory=dict)  # role → user id
    agents: dict[str, str] = field(default_factory=dict)  # role → agent id
    # agent role → [(session row, [(type, at, data), …])] for the legacy history.jsonl of imported agents
    sessions_by_agent: dict[str, list[tuple[dict, list[tuple[str, int, dict]]]]] = field(default_factory=dict)
    agent_rows: dict[str, dict] = field(default_factory=dict)  # role → agents row
    cron: list[dict] = field(default_factory=list)  # task specs shared with files.py
    heartbeats: list[dict] = field(default_factory=list)
    file_refs: dict[str, dict] = field(default_factory=dict)
    apps: list[dict] = field(default_factory=list)
    largest_session_id: str | None = None
    largest_session_records: int = 0
    # Source objects for the legacy files, kept in their file shapes (files.py writes them as-is).
    cron_ids: dict[str, str] = field(default_factory=dict)  # cron dir → taskId
    heartbeat_last_run: int | None = None
    # The scheduled runs the demo wrote (task key, start ms, outcome, error): what the automations page must list
    scheduled_runs: list[dict] = field(default_factory=list)
    signal_events: list[tuple] = field(default_factory=list)
    delayed: list[tuple] = field(default_factory=list)
    channels: list[dict] = field(default_factory=list)
    endpoints: list[dict] = field(default_factory=list)
    processes: list[dict] = field(default_factory=list)
    now: int = NOW_MS  # "now" for this run: every timestamp is an offset from it

    def add(self, table: str, **row) -> dict:
        self.rows[table].append(row)
        return row
