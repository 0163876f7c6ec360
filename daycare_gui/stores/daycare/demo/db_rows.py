"""The small demo's database rows, built in memory (a few hundred rows) as ``table → list of dicts``.

The same :class:`DemoModel` feeds :mod:`.files`, so files and rows agree where Daycare would have imported
one from the other (cron tasks, heartbeats, channels, legacy agents, …).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from daycare_gui.stores.daycare.demo import conversations
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
    _inbox(m, rng)
    _tasks(m, rng)
    _signals(m, rng)
    _channels(m, rng)
    _expose(m, rng)
    _processes(m, rng)
    _system_prompts(m, rng)
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


def _inbox(m: DemoModel, rng) -> None:
    a = m.agents
    ctx = {"messageId": "4107", "permissionTags": ["@read:/home/demo/.daycare/users"]}
    items = [
        # fresh: posted minutes ago, still being handled
        (a["alex_telegram"], m.now - 2 * MINUTE, {"type": "message", "message": {
            "text": "Also book a table for Saturday lunch in Belém?", "files": []}, "context": {"messageId": "4112"}}),
        (a["sam_telegram"], m.now - 40_000, {"type": "message", "message": {
            "text": "what can I make with leftover rice", "files": []}, "context": ctx}),
        (a["perm_ops"], m.now - 5 * MINUTE, {"type": "system_message", "text": "Backup job finished: 14.2 GB, 0 errors",
                                              "origin": a["sys_heartbeat"], "silent": True}),
        (a["sys_memory"], m.now - MINUTE, {"type": "compact", "context": {"messageId": "cmp-77"}}),
        # stuck: posted days ago and never handled (the engine died or the agent is wedged)
        (a["jordan_discord"], m.now - 4 * DAY, {"type": "message", "message": {
            "text": "are you there? the bot stopped answering", "files": []}, "context": {"messageId": "99120"}}),
        (a["app_recipes"], m.now - 6 * DAY - 3 * HOUR, {"type": "signal", "signal": {
            "id": "sig_" + token(rng, 12).lower(), "type": "user.shopping.updated",
            "source": {"type": "agent", "id": a["sam_telegram"], "userId": m.users["sam"]},
            "data": {"items": ["feta"]}, "createdAt": m.now - 6 * DAY - 3 * HOUR}, "subscriptionPattern": "user.shopping.*"}),
        (a["alex_whatsapp"], m.now - 9 * DAY, {"type": "reset", "message": "Start fresh please",
                                                "context": {"messageId": "wamid.HBgL"}}),
        (a["sub_pdf"], m.now - 3 * DAY, {"type": "restore"}),
        # a cron run queued days ago and never handled: the automations page shows it still running
        (a["cron_review"], m.now - 2 * DAY - 7 * HOUR, {"type": "system_message", "text": "[cron]\ntaskId: weekly-review\n"
                                                         f"taskUid: {m.cron_ids['weekly-review']}\ntaskName: Weekly review",
                                                         "origin": "cron", "execute": True,
                                                         "code": ["print(open('~/documents/week.md').read())"]}),
    ]
    for agent_id, posted, item in items:
        m.add("inbox", id=cuid(rng), agent_id=agent_id, posted_at=posted, type=item["type"], data=dumps(item))


def _tasks(m: DemoModel, rng) -> None:
    owner, sam = m.users["owner"], m.users["sam"]
    # Specs shared with files.py: "file" = how TASK.md spells it, "row" = whether a tasks_cron row exists.
    m.cron = [
        {"dir": "daily-digest", "task_uid": m.cron_ids["daily-digest"], "name": "Daily digest",
         "description": "Morning summary of mail, calendar and deadlines", "schedule": "0 7 * * *",
         "code": "Summarise unread email, today's calendar and anything due this week. Keep it under 150 words.",
         "agent_id": m.agents["cron_digest"], "user_id": owner, "enabled": 1, "delete_after_run": 0,
         "last_run_at": m.now - 5 * HOUR, "style": "modern", "row": True},
        {"dir": "weekly-review", "task_uid": m.cron_ids["weekly-review"], "name": "Weekly review",
         "description": None, "schedule": "0 18 * * 0",
         "code": "Review the week: what got done, what slipped, and the top three priorities for next week.",
         "agent_id": m.agents["cron_review"], "user_id": owner, "enabled": 1, "delete_after_run": 0,
         "last_run_at": m.now - 7 * DAY + 6 * HOUR, "style": "legacy", "row": True},
        {"dir": "dentist-reminder", "task_uid": "x1c9v8b7n6m5a4s3d2f1g0hj", "name": "Dentist reminder",
         "description": "One-off: remind me on the morning of the appointment", "schedule": "30 8 4 3 *",
         "code": "Remind Alex: dentist at 17:00 today, bring the insurance card.", "agent_id": None,
         "user_id": owner, "enabled": 1, "delete_after_run": 1, "last_run_at": None, "style": "commented", "row": True},
        {"dir": "backup-photos", "task_uid": "b4ck9p7h0t0s2s5y6n7c8q1w", "name": "Back up photos",
         "description": "Disabled while the NAS is being replaced", "schedule": "15 3 * * *",
         "code": "Copy new photos from ~/downloads to the NAS and report how many were copied.", "agent_id": None,
         "user_id": owner, "enabled": 0, "delete_after_run": 0, "last_run_at": m.now - 20 * DAY, "style": "disabled",
         "row": True},
        {"dir": "plant-photos", "task_uid": "q9w8e7r6t5y4u3i2o1p0lkjh", "name": "Plant photo diary",
         "description": None, "schedule": "0 12 * * 6", "code": "Ask Sam for a photo of the balcony plants.",
         "agent_id": None, "user_id": sam, "enabled": 1, "delete_after_run": 0, "last_run_at": None,
         "style": "modern", "row": False},  # written after the import ran: file only
        {"dir": "standup-notes", "task_uid": "s7t6a5n4d3u2p1n0o9t8e7sz", "name": "Stand-up notes",
         "description": "Created by the engine directly in the database", "schedule": "25 9 * * 1-5",
         "code": "Draft stand-up notes from yesterday's commits.", "agent_id": None, "user_id": owner, "enabled": 1,
         "delete_after_run": 0, "last_run_at": m.now - 3 * HOUR, "style": None, "row": True},  # row only
    ]
    for i, spec in enumerate(m.cron):
        if not spec["row"]:
            continue
        created = m.now - (30 - i) * DAY
        m.add("tasks_cron", id=spec["dir"], task_uid=spec["task_uid"], user_id=spec["user_id"], name=spec["name"],
              description=spec["description"], schedule=spec["schedule"], code=spec["code"], agent_id=spec["agent_id"],
              enabled=spec["enabled"], delete_after_run=spec["delete_after_run"], last_run_at=spec["last_run_at"],
              created_at=created, updated_at=created + 2 * DAY)
    m.heartbeat_last_run = m.now - 25 * MINUTE
    m.heartbeats = [
        {"file": "check-inbox.md", "id": "check-inbox", "title": "Check inbox", "style": "frontmatter",
         "code": "Look at unread email and messages. Anything that needs a reply today goes to Alex.", "row": True},
        {"file": "Plant Care.md", "id": "plant-care", "title": "Plant care", "style": "heading",
         "code": "If the monstera has not been watered for 7 days, remind Alex.\nFertilise on the first Sunday of the month.",
         "row": True},
        {"file": "budget-watch.md", "id": "budget-watch", "title": "Budget watch", "style": "frontmatter",
         "code": "Warn if grocery spending this month is more than 20% above last month.", "row": False},
    ]
    for i, spec in enumerate(m.heartbeats):
        if spec["row"]:
            created = m.now - (28 - i) * DAY
            m.add("tasks_heartbeat", id=spec["id"], title=spec["title"], code=spec["code"],
                  last_run_at=m.heartbeat_last_run, created_at=created, updated_at=created + DAY, user_id=owner)
    m.add("tasks_heartbeat", id="weekly-budget", title="Weekly budget", code="Summarise spending by category.",
          last_run_at=None, created_at=m.now - 3 * DAY, updated_at=m.now - 3 * DAY, user_id=sam)


def _signals(m: DemoModel, rng) -> None:
    owner, sam = m.users["owner"], m.users["sam"]
    a = m.agents
    m.signal_events = [
        ("sig_" + token(rng, 16).lower(), owner, "internal.heartbeat.tick", {"type": "system", "userId": owner},
         {"tasks": [{"id": "check-inbox"}, {"id": "plant-care"}]}, m.now - 25 * MINUTE),
        ("sig_" + token(rng, 16).lower(), owner, "github.push", {"type": "webhook", "id": "wh_github", "userId": owner},
         {"repo": "alex/blog", "ref": "refs/heads/main", "commits": 3}, m.now - 3 * HOUR),
        ("sig_" + token(rng, 16).lower(), sam, "user.shopping.updated", {"type": "agent", "id": a["sam_telegram"], "userId": sam},
         {"items": ["feta"]}, m.now - 6 * DAY - 3 * HOUR),
        ("sig_" + token(rng, 16).lower(), owner, "process.exited", {"type": "process", "id": "proc-photo-sync"},
         {"exitCode": 1}, m.now - 2 * DAY),
        ("sig_" + token(rng, 16).lower(), owner, "channel.message", {"type": "agent", "id": a["perm_ops"], "userId": owner},
         {"channelName": "ops", "text": "@alex backups are green"}, m.now - 5 * HOUR),
        ("sig_legacy1", "usr_x", "internal.heartbeat.tick", {"type": "system", "userId": "usr_x"},
         {"tasks": [{"id": "daily"}]}, m.now - 20 * DAY),  # imported from events.jsonl; names a user that never existed
    ]
    for sid, user, typ, source, data, created in m.signal_events:
        m.add("signals_events", id=sid, user_id=user, type=typ, source=dumps(source),
              data=dumps(data) if data is not None else None, created_at=created)
    subs = [(owner, a["perm_ops"], "github.*", 0), (sam, a["app_recipes"], "user.shopping.*", 0),
            (owner, a["sys_heartbeat"], "internal.heartbeat.*", 1), (owner, a["alex_telegram"], "process.exited", 0)]
    for i, (user, agent, pattern, silent) in enumerate(subs):
        created = m.now - (20 - i) * DAY
        m.add("signals_subscriptions", id=cuid(rng), user_id=user, agent_id=agent, pattern=pattern, silent=silent,
              created_at=created, updated_at=created)
    m.delayed = [
        ("sig_delay_" + token(rng, 8).lower(), owner, "internal.reminder", m.now + 2 * HOUR, {"type": "system"},
         {"text": "Call the landlord about the heating"}, None, m.now - HOUR),
        ("sig_delay_" + token(rng, 8).lower(), owner, "cron.tick", m.now + 19 * HOUR,
         {"type": "agent", "id": a["cron_digest"]}, None, "daily-digest", m.now - 5 * HOUR),
        ("sig_delay_" + token(rng, 8).lower(), sam, "webhook.retry", m.now - 2 * DAY, {"type": "webhook", "id": "wh_strava"},
         {"attempt": 3}, None, m.now - 3 * DAY),  # overdue: deliver_at in the past
    ]
    for sid, user, typ, deliver, source, data, repeat, created in m.delayed:
        m.add("signals_delayed", id=sid, user_id=user, type=typ, deliver_at=deliver, source=dumps(source),
              data=dumps(data) if data is not None else None, repeat_key=repeat, created_at=created, updated_at=created)


def _channels(m: DemoModel, rng) -> None:
    a, owner, sam = m.agents, m.users["owner"], m.users["sam"]
    specs = [
        ("ops", owner, a["perm_ops"], [(a["perm_ops"], owner, "ops"), (a["alex_telegram"], owner, "alex"),
                                         (a["app_deploy"], owner, "deploy")],
         [("ops", "Nightly backup finished: 14.2 GB in 11 min.", []),
          ("deploy", "@alex blog build fails: missing `sass`. Details in my session.", ["alex"]),
          ("alex", "thanks — I'll fix it tonight", []),
          ("ops", "@deploy ping me when the build is green and I'll restart the container", ["deploy"])]),
        ("family", sam, a["sam_telegram"], [(a["sam_telegram"], sam, "sam"), (a["alex_telegram"], owner, "alex"),
                                            (a["mia_whatsapp"], m.users["mia"], "mia")],
         [("sam", "Dinner tonight: chickpea skillet 🍋", []), ("mia", "can we have pasta instead", []),
          ("alex", "@mia pasta tomorrow, promise", ["mia"])]),
    ]
    for c_index, (name, user, leader, members, messages) in enumerate(specs):
        cid = "ch_" + token(rng, 10).lower()
        created = m.now - (18 - c_index) * DAY
        m.add("channels", id=cid, user_id=user, name=name, leader=leader, created_at=created, updated_at=created + DAY)
        member_list = []
        for j, (agent, member_user, username) in enumerate(members):
            joined = created + j * HOUR
            m.add("channel_members", id=len(m.rows["channel_members"]) + 1, channel_id=cid, user_id=member_user,
                  agent_id=agent, username=username, joined_at=joined)
            member_list.append({"agentId": agent, "username": username, "joinedAt": joined})
        msg_list = []
        for k, (sender, text, mentions) in enumerate(messages):
            at = m.now - (10 - c_index) * DAY + k * 17 * MINUTE
            mid = "msg_" + token(rng, 12).lower()
            m.add("channel_messages", id=mid, channel_id=cid, user_id=user, sender_username=sender, text=text,
                  mentions=dumps(mentions), created_at=at)
            msg_list.append({"id": mid, "channelName": name, "senderUsername": sender, "text": text,
                             "mentions": mentions, "createdAt": at})
        m.channels.append({"id": cid, "name": name, "leader": leader, "members": member_list,
                           "createdAt": created, "updatedAt": created + DAY, "messages": msg_list})


def _expose(m: DemoModel, rng) -> None:
    owner = m.users["owner"]
    m.endpoints = [
        {"id": "ep_" + token(rng, 8).lower(), "target": {"type": "port", "port": 8080}, "provider": "tailscale",
         "domain": "blog-preview.tail3f9c2.ts.net", "mode": "local-network", "auth": None},
        {"id": "ep_" + token(rng, 8).lower(), "target": {"type": "port", "port": 5173}, "provider": "cloudflare",
         "domain": "recipes-demo.trycloudflare.com", "mode": "public",
         "auth": {"enabled": True, "passwordHash": "$argon2id$v=19$m=65536,t=3,p=4$ZGVtby1zYWx0$" + token(rng, 43)}},
        {"id": "ep_" + token(rng, 8).lower(), "target": {"type": "unix", "path": f"{FAKE_ROOT}/run/grafana.sock"},
         "provider": "tailscale", "domain": "grafana.tail3f9c2.ts.net", "mode": "public",
         "auth": {"enabled": True, "passwordHash": "$argon2id$v=19$m=65536,t=3,p=4$b3BzLXNhbHQ$" + token(rng, 43)}},
    ]
    for i, ep in enumerate(m.endpoints):
        ep["createdAt"] = ep["updatedAt"] = m.now - (12 - i) * DAY
        m.add("expose_endpoints", id=ep["id"], user_id=owner, target=dumps(ep["target"]), provider=ep["provider"],
              domain=ep["domain"], mode=ep["mode"], auth=dumps(ep["auth"]) if ep["auth"] else None,
              created_at=ep["createdAt"], updated_at=ep["updatedAt"])


def _processes(m: DemoModel, rng) -> None:
    owner = m.users["owner"]
    home = f"{FAKE_ROOT}/users/{owner}/home"
    specs = [
        ("proc-blog-preview", "blog-preview", "npm run dev -- --host 127.0.0.1 --port 8080", f"{home}/developer/blog",
         {"NODE_ENV": "development"}, ["npm"], ["registry.npmjs.org"], True, None, True, "running", "running", 48213, 0),
        ("proc-photo-sync", "photo-sync", "python sync_photos.py --dest /mnt/nas/photos", f"{home}/developer/scripts",
         {"PYTHONUNBUFFERED": "1"}, ["pip"], [], False, {"type": "plugin", "id": "nas-sync"}, True, "running", "exited",
         None, 3),
        ("proc-grafana", "grafana", "grafana-server --homepath /usr/share/grafana", f"{home}/developer",
         {}, [], ["grafana.com"], True, None, False, "stopped", "stopped", None, 0),
    ]
    for i, (pid_name, name, command, cwd, env, pms, domains, local, owner_obj, keep, desired, status, pid, restarts) in enumerate(specs):
        created = m.now - (9 - i) * DAY
        started = m.now - (2 - i) * HOUR if status != "stopped" else m.now - 4 * DAY
        exited = None if status == "running" else started + 42 * MINUTE
        perms = {"workingDir": cwd, "writeDirs": [cwd], "readDirs": [], "network": bool(domains), "events": False}
        record = {
            "version": 2, "id": pid_name, "name": name, "command": command, "cwd": cwd, "home": home if i != 2 else None,
            "env": env, "packageManagers": pms, "allowedDomains": domains, "allowLocalBinding": local,
            "permissions": perms, "owner": owner_obj, "keepAlive": keep, "desiredState": desired, "status": status,
            "pid": pid, "bootTimeMs": m.now - DAY if pid else None, "restartCount": restarts,
            "restartFailureCount": 1 if status == "exited" else 0,
            "nextRestartAt": m.now + 30_000 if status == "exited" and keep else None,
            "createdAt": created, "updatedAt": exited or started, "lastStartedAt": started, "lastExitedAt": exited,
            "settingsPath": f"{FAKE_ROOT}/processes/{pid_name}/sandbox.json",
            "logPath": f"{FAKE_ROOT}/processes/{pid_name}/process.log",
        }
        m.processes.append(record)
        m.add("processes", id=pid_name, user_id=owner, name=name, command=command, cwd=cwd, home=record["home"],
              env=dumps(env), package_managers=dumps(pms), allowed_domains=dumps(domains),
              allow_local_binding=int(local), permissions=dumps(perms), owner=dumps(owner_obj) if owner_obj else None,
              keep_alive=int(keep), desired_state=desired, status=status, pid=pid, boot_time_ms=record["bootTimeMs"],
              restart_count=restarts, restart_failure_count=record["restartFailureCount"],
              next_restart_at=record["nextRestartAt"], settings_path=record["settingsPath"], log_path=record["logPath"],
              created_at=created, updated_at=record["updatedAt"], last_started_at=started, last_exited_at=exited)


def _system_prompts(m: DemoModel, rng) -> None:
    prompts = [
        ("global", None, "system", None, "Be concise. Prefer lists and tables for anything with more than three items.", 1),
        ("global", None, "first_message", "new_user",
         "Introduce yourself in one sentence and say what you can help with.", 1),
        ("global", None, "first_message", "returning_user", "Welcome back! Mention anything left open last time.", 0),
        ("user", m.users["sam"], "system", None, "Sam is vegetarian. Never suggest meat or fish.", 1),
        ("user", m.users["mia"], "system", None,
         "Mia is 11. Explain step by step, never just give the answer to homework.", 1),
    ]
    for i, (scope, user, kind, cond, text, enabled) in enumerate(prompts):
        created = m.now - (25 - i) * DAY
        m.add("system_prompts", id=cuid(rng), scope=scope, user_id=user, kind=kind, condition=cond, prompt=text,
              enabled=enabled, created_at=created, updated_at=created + i * HOUR)
