"""The small demo's database rows, built in memory (a few hundred rows) as ``table → list of dicts``.

The same :class:`DemoModel` feeds :mod:`.files`, so files and rows agree where Daycare would have imported
one from the other (cron tasks, heartbeats, channels, legacy agents, …). The users, agents, their sessions
and history are built here; the inbox, tasks and signals in :mod:`.db_rows_scheduling`, the subsystems'
tables (channels, expose, processes, system prompts) in :mod:`.db_rows_subsystems`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.daycare.demo import conversations
from daycare_gui.stores.daycare.demo.db_rows_scheduling import add_inbox, add_signals, add_tasks
from daycare_gui.stores.daycare.demo.db_rows_subsystems import (
    add_channels,
    add_expose,
    add_processes,
    add_system_prompts,
)
from daycare_gui.stores.daycare.demo.history import MODELS, Chat, file_ref
from daycare_gui.stores.daycare.demo.ids import (
    DAY,
    FAKE_ROOT,
    HOUR,
    MINUTE,
    NOW_MS,
    cuid,
    dumps,
    new_rng,
    token,
)

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


# (role, name, is_owner, parent role, nametag, connector keys)
USERS = (
    ("owner", "Alex Rivera", True, None, "calm-heron-417", ("telegram:42", "whatsapp:+15550104477")),
    ("sam", "Sam Okafor", False, None, "brave-lynx-208", ("telegram:7781",)),
    ("mia", "Mia Rivera", False, "owner", "tiny-sparrow-903", ("whatsapp:+15550109921",)),
    ("jordan", "Jordan Lee", False, None, "quiet-maple-551", ("discord:338811902244",)),
)

# role, user role, lifecycle, provider, scripts (one per session; the last session is the active one)
AGENTS = (
    ("alex_telegram", "owner", "active", "anthropic", ("trip", "photos", "expenses", "trip")),
    ("alex_whatsapp", "owner", "sleeping", "openai", ("notes", "recipes")),
    ("sam_telegram", "sam", "active", "anthropic", ("recipes", "recipes", "library")),
    ("mia_whatsapp", "mia", "active", "openai", ("homework", "homework")),
    ("jordan_discord", "jordan", "sleeping", "openrouter", ("library",)),
    ("cron_digest", "owner", "active", "anthropic", ("digest", "digest", "digest")),
    ("cron_review", "owner", "sleeping", "openai", ("digest",)),
    ("sys_heartbeat", "owner", "active", "anthropic", ("heartbeat", "heartbeat", "heartbeat", "heartbeat")),
    ("sys_memory", "owner", "active", "anthropic", ("memory", "memory")),
    ("sub_flights", "owner", "dead", "anthropic", ("flights",)),
    ("sub_pdf", "sam", "sleeping", "openai", ("library",)),
    ("app_deploy", "owner", "active", "anthropic", ("deploy", "deploy")),
    ("app_recipes", "sam", "sleeping", "openai", ("recipes",)),
    ("perm_ops", "owner", "active", "anthropic", ("ops", "ops")),
    ("perm_librarian", "owner", "dead", "openrouter", ("library", "notes")),
)

# Legacy-imported agents (their agents/<id>/ folders are written too, with reduced permissions).
LEGACY_AGENTS = ("alex_whatsapp", "cron_review")


def _permissions(rng, role: str, kind: str, user_id: str) -> dict:
    if role in LEGACY_AGENTS:
        # Imported agents may hold the reduced two-key form (as-built §4).
        return {"workingDir": f"{FAKE_ROOT}/workspace", "writeDirs": []}
    home = f"{FAKE_ROOT}/users/{user_id}/home"
    perms = {"workspaceDir": f"{home}/desktop", "workingDir": f"{home}/desktop",
             "writeDirs": [f"{home}/desktop", f"{home}/documents"], "readDirs": [f"{home}/knowledge", f"{home}/downloads"],
             "network": kind not in ("cron", "app"), "events": kind in ("system", "permanent", "cron")}
    if kind == "subagent":
        perms.pop("workspaceDir")
        perms["writeDirs"] = []
    return perms


def build_small(rng_salt: int = 0, now_ms: int | None = None) -> DemoModel:
    """Build the small demo; every timestamp is relative to ``now_ms`` (default: the fixed ``NOW_MS``)."""
    rng = new_rng(rng_salt)
    m = DemoModel(now=NOW_MS if now_ms is None else now_ms)
    _users(m, rng)
    _agents_and_sessions(m, rng)
    add_inbox(m, rng)
    add_tasks(m, rng)
    add_signals(m, rng)
    add_channels(m, rng)
    add_expose(m, rng)
    add_processes(m, rng)
    add_system_prompts(m, rng)
    return m


def _users(m: DemoModel, rng) -> None:
    for role, *_ in USERS:
        m.users[role] = cuid(rng)
    for i, (role, name, is_owner, parent, nametag, keys) in enumerate(USERS):
        created = m.now - (40 - i * 6) * DAY
        m.add("users", id=m.users[role], is_owner=int(is_owner), created_at=created, updated_at=created + 3 * HOUR,
              parent_user_id=m.users[parent] if parent else None, name=name, nametag=nametag)
        for key in keys:
            m.add("user_connector_keys", id=len(m.rows["user_connector_keys"]) + 1, user_id=m.users[role],
                  connector_key=key)
    a, b = sorted((m.users["owner"], m.users["sam"]))
    m.add("connections", user_a_id=a, user_b_id=b, requested_a=1, requested_b=1,
          requested_a_at=m.now - 30 * DAY, requested_b_at=m.now - 29 * DAY)
    a, b = sorted((m.users["owner"], m.users["jordan"]))
    # Half-open request: only the owner asked (CHECK(user_a_id < user_b_id) decides which column that is).
    requested_a, requested_b = (1, 0) if a == m.users["owner"] else (0, 1)
    m.add("connections", user_a_id=a, user_b_id=b, requested_a=requested_a, requested_b=requested_b,
          requested_a_at=m.now - 2 * DAY if requested_a else None, requested_b_at=m.now - 2 * DAY if requested_b else None)


def _descriptor(m: DemoModel, rng, role: str) -> dict:
    ids = m.agents
    if role == "alex_telegram":
        return {"type": "user", "connector": "telegram", "userId": "42", "channelId": "42"}
    if role == "alex_whatsapp":
        return {"type": "user", "connector": "whatsapp", "userId": "+15550104477", "channelId": "+15550104477"}
    if role == "sam_telegram":
        return {"type": "user", "connector": "telegram", "userId": "7781", "channelId": "7781"}
    if role == "mia_whatsapp":
        return {"type": "user", "connector": "whatsapp", "userId": "+15550109921", "channelId": "+15550109921"}
    if role == "jordan_discord":
        return {"type": "user", "connector": "discord", "userId": "338811902244", "channelId": "1120094471188"}
    if role == "cron_digest":
        return {"type": "cron", "id": m.cron_ids["daily-digest"], "name": "Daily digest"}
    if role == "cron_review":
        return {"type": "cron", "id": m.cron_ids["weekly-review"]}
    if role == "sys_heartbeat":
        return {"type": "system", "tag": "heartbeat"}
    if role == "sys_memory":
        return {"type": "system", "tag": "memory-worker"}
    if role == "sub_flights":
        return {"type": "subagent", "id": ids[role], "parentAgentId": ids["alex_telegram"], "name": "Flight research"}
    if role == "sub_pdf":
        return {"type": "subagent", "id": ids[role], "parentAgentId": ids["sam_telegram"], "name": "Summarize lease PDF"}
    if role == "app_deploy":
        return {"type": "app", "id": ids[role], "parentAgentId": ids["alex_telegram"], "name": "Deploy Check",
                "systemPrompt": "You are a deploy assistant focused on safety checks. Never push; only report.",
                "appId": "deploy-check"}
    if role == "app_recipes":
        return {"type": "app", "id": ids[role], "parentAgentId": ids["sam_telegram"], "name": "Recipe Planner",
                "systemPrompt": "Plan vegetarian dinners from what is in the fridge. Keep recipes under 30 minutes.",
                "appId": "recipe-planner"}
    if role == "perm_ops":
        return {"type": "permanent", "id": ids[role], "name": "Ops Helper", "username": "ops",
                "description": "Looks after the home server: disks, backups, containers.",
                "systemPrompt": "You maintain Alex's home server. Explain commands before running destructive ones.",
                "workspaceDir": f"{FAKE_ROOT}/users/{m.users['owner']}/home/developer"}
    if role == "perm_librarian":
        return {"type": "permanent", "id": ids[role], "name": "Librarian",
                "description": "Answers questions about the books and notes in the knowledge folder.",
                "systemPrompt": "Search the knowledge folder before answering; cite file names."}
    raise KeyError(role)


def _agents_and_sessions(m: DemoModel, rng) -> None:
    m.cron_ids = {"daily-digest": "k7x2mq9v4t1b8n3c6d5f0gh2", "weekly-review": "p3r8w1z6y4u9i2o5a7s0dfq1"}
    for role, *_ in AGENTS:
        m.agents[role] = cuid(rng)
    m.file_refs = {
        "file_photos": file_ref(cuid(rng), "photo-export-list.txt", "text/plain", 18342, m.users["owner"], FAKE_ROOT),
        "file_csv": file_ref(cuid(rng), "dkb-2026-02.csv", "text/csv", 24711, m.users["owner"], FAKE_ROOT),
    }
    history_id = 0
    for index, (role, user_role, lifecycle, provider, scripts) in enumerate(AGENTS):
        agent_id = m.agents[role]
        kind = _descriptor(m, rng, role)["type"]
        created = m.now - (35 - index) * DAY + index * 7 * MINUTE
        stats: dict = {}
        session_entries = []
        t = created
        model = MODELS[provider][0]
        for s_index, script in enumerate(scripts):
            t += rng.randint(1, 3) * DAY + rng.randint(0, 8) * HOUR
            is_last = s_index == len(scripts) - 1
            session_id = cuid(rng)
            if s_index and rng.random() < 0.3:
                model = MODELS[provider][-1]  # switch model now and then so stats have several entries
            chat = Chat(rng, t, provider, model)
            ctx = {"first": s_index == 0, "csv_path": m.file_refs["file_csv"]["path"], **m.file_refs,
                   **_scheduled_run(m, role, s_index)}
            conversations.SCRIPTS[script](chat, ctx)
            records = chat.records
            if "run_text" in ctx:  # the run starts at its system message: the session's first record
                m.scheduled_runs[-1].update(started_at=records[0][1], session_id=session_id)
            first_id = history_id + 1
            history_id += len(records)
            for r_kind, _at, data in records:
                if r_kind == "assistant_message" and data["tokens"]:
                    size = data["tokens"]["size"]
                    acc = stats.setdefault(data["tokens"]["provider"], {}).setdefault(data["tokens"]["model"], {
                        "input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0})
                    for k in acc:
                        acc[k] += size[k]
            last_at = records[-1][1] if records else t
            ended = (not is_last) or lifecycle == "dead"
            reset_message = None
            if s_index:
                reset_message = rng.choice(("Session compacted: context reached 82% of the window",
                                            "manual reset", None, "User asked to start over"))
            session = {
                "id": session_id, "agent_id": agent_id,
                "inference_session_id": ("inf_" + token(rng, 20).lower()) if (is_last or rng.random() < 0.5) else None,
                "created_at": t, "reset_message": reset_message,
                # invalidated_at/processed_until hold session_history ids (as-built §4), not times.
                "invalidated_at": first_id + 1 if (is_last and role in ("alex_telegram", "sam_telegram")) else None,
                "processed_until": history_id if ended else (first_id if len(records) > 2 else None),
                "ended_at": last_at + 5 * MINUTE if ended else None,
            }
            session_entries.append((session, records))
            t = last_at
        m.sessions_by_agent[role] = session_entries
        last_session = session_entries[-1][0]
        last_tokens = next((d["tokens"] for _k, _a, d in reversed(session_entries[-1][1])
                            if _k == "assistant_message" and d["tokens"]), None)
        row = {
            "id": agent_id, "type": kind, "descriptor": dumps(_descriptor(m, rng, role)),
            "active_session_id": last_session["id"],
            "permissions": dumps(_permissions(rng, role, kind, m.users[user_role])),
            "tokens": dumps(last_tokens) if last_tokens else None, "stats": dumps(stats), "lifecycle": lifecycle,
            "created_at": created, "updated_at": t, "user_id": m.users[user_role],
        }
        m.agent_rows[role] = row
        m.rows["agents"].append(row)
    # Sessions and history are inserted after all agents; ids are assigned in agent order.
    hid = 0
    for role, *_ in AGENTS:
        for session, records in m.sessions_by_agent[role]:
            m.rows["sessions"].append(session)
            for r_kind, at, data in records:
                hid += 1
                m.add("session_history", id=hid, session_id=session["id"], type=r_kind, at=at, data=dumps(data))
            if len(records) > m.largest_session_records:
                m.largest_session_id, m.largest_session_records = session["id"], len(records)


def cron_run_text(task_id: str, task_uid: str, name: str, error: str | None = None) -> str:
    """The system message Daycare's cron scheduler posts (``[cron]`` lines, then the code's outputs)."""
    body = f"[cron]\ntaskId: {task_id}\ntaskUid: {task_uid}\ntaskName: {name}"
    if error:
        body += f"\n\n<exec_error>{error}</exec_error>"
    return f'<system_message origin="cron">{body}</system_message>'


HEARTBEAT_BATCH_TEXT = ('<system_message origin="heartbeat"># Heartbeat run\n\nRun all 2 heartbeat tasks together.\n\n'
                        "1. Check inbox (id: check-inbox)\n2. Plant care (id: plant-care)</system_message>")
DIGEST_ERROR = "ToolError: gmail_search failed: 401 token expired"


def _scheduled_run(m: DemoModel, role: str, s_index: int) -> dict:
    """The run a task agent's session starts with: Daily digest worked, failed (its code's error), worked;
    Weekly review worked; every heartbeat session is one batch run of the owner's heartbeats."""
    if role == "cron_digest":
        error = DIGEST_ERROR if s_index == 1 else None
        key, text = "daily-digest", cron_run_text("daily-digest", m.cron_ids["daily-digest"], "Daily digest", error)
    elif role == "cron_review":
        key, error = "weekly-review", None
        text = cron_run_text("weekly-review", m.cron_ids["weekly-review"], "Weekly review")
    elif role == "sys_heartbeat":
        key, error, text = "heartbeat", None, HEARTBEAT_BATCH_TEXT
    else:
        return {}
    m.scheduled_runs.append({"task": key, "outcome": "failed" if error else "worked", "error": error or "",
                             "agent": role, "session_index": s_index})
    return {"run_text": text}
