"""Every non-database file of the demo store: settings, auth, legacy folders, Markdown documents, plugins.

Layout follows seed 000 as corrected by the as-built reference: the demo root is configDir = dataDir, so the
database's folder (where Daycare's imports look for legacy files) is the root too; users live in
``<root>/users``; the workspace is ``<root>/workspace``. Secrets in ``auth.json`` are obviously fake.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.daycare.demo import content
from daycare_gui.stores.daycare.demo.db_model import DemoModel
from daycare_gui.stores.daycare.demo.db_rows import LEGACY_AGENTS
from daycare_gui.stores.daycare.demo.ids import DAY, FAKE_ROOT, HOUR, dumps, iso, pretty


class FileWriter:
    """Writes text files under ``root`` and remembers how many it wrote."""

    def __init__(self, root: Path):
        self.root = root
        self.count = 0

    def text(self, rel: str, body: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        # newline="" keeps "\n" on every platform: the same bytes everywhere.
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(body)
        self.count += 1
        return path

    def json(self, rel: str, value) -> Path:
        return self.text(rel, pretty(value))

    def jsonl(self, rel: str, values) -> Path:
        return self.text(rel, "".join(dumps(v) + "\n" for v in values))

    def mkdir(self, rel: str) -> None:
        (self.root / rel).mkdir(parents=True, exist_ok=True)


def write_config(w: FileWriter, m: DemoModel) -> None:
    w.json("settings.json", {
        "features": {"say": True, "rlm": True, "noTools": False},
        "engine": {"socketPath": f"{FAKE_ROOT}/daycare.sock"},
        "assistant": {"workspaceDir": "workspace",
                      "systemPrompt": "You are Daycare, Alex's personal assistant. Be brief and concrete."},
        "agents": {"emergencyContextLimit": 180000},
        "security": {"appReviewerEnabled": True},
        "plugins": [
            {"instanceId": "telegram", "pluginId": "telegram", "enabled": True,
             "settings": {"polling": True, "allowedUserIds": ["42", "7781"]}},
            {"instanceId": "whatsapp", "pluginId": "whatsapp", "enabled": True, "settings": {"phoneNumberId": "1098765"}},
            {"instanceId": "memory", "pluginId": "memory", "enabled": True, "settings": {"maxEntities": 200}},
            {"instanceId": "database", "pluginId": "database", "enabled": True, "settings": {}},
            {"instanceId": "upgrade", "pluginId": "upgrade", "enabled": True},
            {"instanceId": "brave-search", "pluginId": "brave-search", "enabled": False},
        ],
        "providers": [
            {"id": "anthropic", "enabled": True, "model": "claude-sonnet-4-5"},
            {"id": "openai", "enabled": True, "model": "gpt-5",
             "image": {"enabled": True, "model": "gpt-image-1", "size": "1024x1024", "quality": "standard"}},
            {"id": "openrouter", "enabled": False, "model": "google/gemini-2.5-pro",
             "options": {"baseUrl": "https://openrouter.ai/api/v1"}},
        ],
        "memory": {"enabled": True, "maxEntries": 500},
        # Unknown to Daycare 808af509: kept as-is by Daycare, and shown as such by the GUI.
        "experimentalVoice": {"enabled": False, "voice": "alloy"},
    })
    w.json("auth.json", {
        "anthropic": {"type": "apiKey", "apiKey": "sk-ant-demo-0000000000000000000000000000000000000000demo"},
        "openai": {"type": "apiKey", "apiKey": "sk-demo-proj-00000000000000000000000000000000000000000000fake"},
        "openrouter": {"type": "apiKey", "apiKey": "sk-or-demo-v1-0000000000000000000000000000000000000000fake"},
        "github-copilot": {"type": "oauth", "accessToken": "gho_demoDEMOdemoDEMOdemoDEMOdemoDEMOdemo",
                           "refreshToken": "ghr_demo-refresh-token-not-real-0000000000", "expires": m.now + 8 * HOUR},
        "telegram": {"type": "token", "token": "123456789:AAdemo-not-a-real-bot-token_00000000"},
    })


def write_cron(w: FileWriter, m: DemoModel) -> None:
    for spec in m.cron:
        if spec["style"] is None:
            continue  # row-only task
        w.text(f"cron/{spec['dir']}/TASK.md", _task_md(spec))
        if spec["last_run_at"]:
            w.json(f"cron/{spec['dir']}/STATE.json", {"lastRunAt": iso(spec["last_run_at"])})
        w.text(f"cron/{spec['dir']}/MEMORY.md", content.cron_memory(spec["name"]))
    w.mkdir("cron/daily-digest/files")


def _task_md(spec: dict) -> str:
    style = spec["style"]
    if style == "legacy":
        # Old aliases Daycare still accepts: cron, agent_id, user_id, delete_after_run.
        front = [f"name: {spec['name']}", f"cron: \"{spec['schedule']}\"", f"taskId: {spec['task_uid']}",
                 f"agent_id: {spec['agent_id']}", f"user_id: {spec['user_id']}", "delete_after_run: false"]
    elif style == "commented":
        front = ["# one-off reminder, created from chat", f"name: \"{spec['name']}\"",
                 f"description: '{spec['description']}'", f"schedule: '{spec['schedule']}'  # 4 March, 08:30",
                 f"taskId: \"{spec['task_uid']}\"", f"userId: {spec['user_id']}", "once: true  # delete after it fires"]
    else:
        front = [f"name: {spec['name']}"]
        if spec["description"]:
            front.append(f"description: {spec['description']}")
        front += [f"schedule: \"{spec['schedule']}\"", f"enabled: {'true' if spec['enabled'] else 'false'}",
                  f"taskId: {spec['task_uid']}"]
        if spec["agent_id"]:
            front.append(f"agentId: {spec['agent_id']}")
        front += [f"userId: {spec['user_id']}", "deleteAfterRun: false"]
    return "---\n" + "\n".join(front) + "\n---\n" + spec["code"] + "\n"


def write_heartbeats(w: FileWriter, m: DemoModel) -> None:
    for spec in m.heartbeats:
        if spec["style"] == "heading":
            body = f"# {spec['title']}\n\n{spec['code']}\n"  # the heading becomes the title and leaves the code
        else:
            body = f"---\ntitle: {spec['title']}\n---\n{spec['code']}\n"
        w.text(f"heartbeat/{spec['file']}", body)
    w.json("heartbeat/.heartbeat-state.json", {"lastRunAt": iso(m.heartbeat_last_run)})


def write_legacy_agents(w: FileWriter, m: DemoModel) -> None:
    """Pre-SQLite folders of agents the import already moved into the database (left behind, as Daycare does)."""
    for role in LEGACY_AGENTS:
        row = m.agent_rows[role]
        base = f"agents/{row['id']}"
        w.text(f"{base}/descriptor.json", pretty(_loads(row["descriptor"])))
        sessions = m.sessions_by_agent[role]
        state = {"context": {"messages": []}, "permissions": _loads(row["permissions"]),
                 "tokens": _loads(row["tokens"]) if row["tokens"] else None, "stats": _loads(row["stats"]),
                 "createdAt": row["created_at"], "updatedAt": row["updated_at"]}
        if sessions[-1][0]["inference_session_id"]:
            state["inferenceSessionId"] = sessions[-1][0]["inference_session_id"]
        if role == "cron_review":
            state["sleeping"] = True  # older files used a boolean instead of "state"
        else:
            state["state"] = row["lifecycle"]
        w.json(f"{base}/state.json", state)
        lines = []
        for index, (session, records) in enumerate(sessions):
            marker = {"type": "start", "at": session["created_at"]} if index == 0 else {"type": "reset", "at": session["created_at"]}
            if index and session["reset_message"]:
                marker["message"] = session["reset_message"]
            lines.append(marker)
            lines.extend({"type": kind, "at": at, **data} for kind, at, data in records)
        w.jsonl(f"{base}/history.jsonl", lines)


def _loads(text: str):
    import json

    return json.loads(text)


def write_channels_signals_expose_processes(w: FileWriter, m: DemoModel) -> None:
    ch = next(c for c in m.channels if c["name"] == "ops")
    w.text(f"channels/{ch['name']}/channel.json", dumps({k: ch[k] for k in ("id", "name", "leader", "members",
                                                                            "createdAt", "updatedAt")}) + "\n")
    w.jsonl(f"channels/{ch['name']}/history.jsonl", ch["messages"])
    events = [{"id": sid, "type": typ, "source": source, "data": data, "createdAt": created}
              for sid, _user, typ, source, data, created in m.signal_events
              if sid == "sig_legacy1" or typ == "internal.heartbeat.tick"]
    w.jsonl("signals/events.jsonl", events)
    delayed = []
    for sid, _user, typ, deliver, source, data, repeat, created in m.delayed:
        event = {"id": sid, "type": typ, "deliverAt": deliver, "source": source}
        if data is not None:
            event["data"] = data
        if repeat:
            event["repeatKey"] = repeat
        event.update(createdAt=created, updatedAt=created)
        delayed.append(event)
    w.json("signals/delayed.json", {"version": 1, "events": delayed})
    for ep in m.endpoints[:2]:
        w.json(f"expose/endpoints/{ep['id']}.json", ep)
    for record in m.processes:
        base = f"processes/{record['id']}"
        w.json(f"{base}/record.json", record)
        w.json(f"{base}/sandbox.json", {"filesystem": {"allowWrite": record["permissions"]["writeDirs"],
                                                       "denyRead": ["~/.ssh", "~/.aws"]},
                                        "network": {"allowedDomains": record["allowedDomains"],
                                                    "allowLocalBinding": record["allowLocalBinding"]}})
        w.text(f"{base}/process.log", content.process_log(record))


def write_workspace_and_users(w: FileWriter, m: DemoModel) -> None:
    owner, sam = m.users["owner"], m.users["sam"]
    for app in content.APPS:
        base = f"workspace/apps/{app['id']}"
        w.text(f"{base}/APP.md", content.app_md(app))
        w.text(f"{base}/PERMISSIONS.md", content.permissions_md(app, owner))
        w.json(f"{base}/state.json", {"permissions": content.app_granted(app, owner), "updatedAt": m.now - 4 * DAY})
    for user_role, user_id in m.users.items():
        home = f"users/{user_id}/home"
        for folder in ("desktop", "documents", "developer", "downloads", "knowledge"):
            w.mkdir(f"{home}/{folder}")
        for name, body in content.knowledge_files(user_role).items():
            w.text(f"{home}/knowledge/{name}", body)
    for name, body in content.OWNER_DOCUMENTS.items():
        w.text(f"users/{owner}/home/{name}", body)
    for ref_key, body in (("file_photos", content.PHOTO_LIST), ("file_csv", content.BANK_CSV)):
        ref = m.file_refs[ref_key]
        w.text(f"users/{owner}/home/downloads/{ref['id']}__{ref['name']}", body)
    for name, skill in content.USER_SKILLS.items():
        w.text(f"users/{owner}/skills/{name}/SKILL.md", skill)
    w.text(f"users/{sam}/skills/meal-planner/SKILL.md", content.SAM_SKILL)
    user_app = content.APPS[1]
    w.text(f"users/{sam}/apps/{user_app['id']}/APP.md", content.app_md(user_app))
    w.text(f"users/{sam}/apps/{user_app['id']}/PERMISSIONS.md", content.permissions_md(user_app, sam))
    for name, skill in content.CONFIG_SKILLS.items():
        w.text(f"skills/{name}/SKILL.md", skill)


def write_plugins(w: FileWriter, m: DemoModel) -> None:
    w.text("plugins/memory/INDEX.md", content.MEMORY_INDEX)
    for name, body in content.MEMORY_ENTITIES.items():
        w.text(f"plugins/memory/{name}.md", body)
    w.text("plugins/database/db.md", content.DB_MD)
    w.json("plugins/upgrade/restart-pending.json", {
        "descriptor": _loads(m.agent_rows["alex_telegram"]["descriptor"]),
        "context": {"messageId": "4098", "permissionTags": ["@write:" + FAKE_ROOT]},
        "requestedAtMs": m.now - 26 * HOUR, "requesterPid": 41877, "previousVersion": "2026.2.19"})


def write_all(w: FileWriter, m: DemoModel) -> None:
    write_config(w, m)
    write_cron(w, m)
    write_heartbeats(w, m)
    write_legacy_agents(w, m)
    write_channels_signals_expose_processes(w, m)
    write_workspace_and_users(w, m)
    write_plugins(w, m)
