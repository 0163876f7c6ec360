"""A data directory as today's Daycare keeps it beside its store, written by a test (never from ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

# Planted secrets: none may appear in any output.
SECRETS = {
    "db": "pgpass-PLANTED-1", "jwt": "jwt-PLANTED-2", "sandbox": "osb-PLANTED-3", "smtp": "smtppw-PLANTED-4",
    "plugin": "tg-PLANTED-5", "auth_key": "sk-ant-PLANTEDauthkey0000000006", "auth_token": "oauth-PLANTED-7",
    "user_secret": "ghp_PLANTEDusersecret00000000000008", "user_secret2": "plain-PLANTED-9",
    "log": "logpw-PLANTED-10",
}


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def skill(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n{body}\n"


def plant_data_dir(root: Path, home: Path, *, db_url: bool = False) -> None:
    """Skills of every source, settings, auth, a user's secrets, agents' prompt files, a process, an app's
    code folder and a user's database, in ``root`` (the data dir and config dir) and ``home``."""
    s = SECRETS
    _write(root / "settings.json", json.dumps({
        # engine.db.url would send the open to that server: the PGlite tests plant it only where asked.
        "engine": {"db": {"url": f"postgres://daycare:{s['db']}@db.example/daycare"}} if db_url else {},
        "appServer": {"enabled": True, "port": 7332, "jwtSecret": s["jwt"]},
        "opensandbox": {"domain": "sandbox.example", "apiKey": s["sandbox"]},
        "email": {"smtpUrl": f"smtp://mailer:{s['smtp']}@mail.example:587", "from": "bot@example.org"},
        "plugins": [{"instanceId": "telegram", "pluginId": "telegram", "enabled": True,
                     "settings": {"botToken": s["plugin"], "chat": "family"}}],
        "providers": [{"id": "anthropic", "enabled": True, "model": "claude"}],
    }, indent=2))
    _write(root / "auth.json", json.dumps({
        "anthropic": {"type": "apiKey", "apiKey": s["auth_key"]},
        "openai-codex": {"type": "oauth", "access": s["auth_token"], "refresh": s["auth_token"]},
    }, indent=2))
    _write(root / "skills" / "research" / "weather" / "SKILL.md",
           skill("weather", "Forecasts", "Ask the almanac about zephyrwind."))
    user = root / "users" / "user%2F1"  # Daycare names the folder encodeURIComponent(uid)
    _write(user / "skills" / "personal" / "trip-planner" / "SKILL.md",
           skill("trip-planner", "Plans trips", "Pack the quillfeather checklist."))
    _write(user / "skills" / "active" / "user--trip-planner" / "SKILL.md",
           skill("trip-planner", "Plans trips", "Pack the quillfeather checklist."))
    _write(user / "skills" / "active" / "config--research--weather" / "SKILL.md",
           skill("weather", "Forecasts", "Ask the almanac about zephyrwind."))
    _write(user / "skills-history" / "trip-planner" / "current.json", '{\n    "currentVersion": 2\n}')
    _write(user / "skills-history" / "trip-planner" / "versions" / "1" / "SKILL.md",
           skill("trip-planner", "Plans trips", "An older checklist."))
    _write(user / "secrets.json", json.dumps([
        {"name": "github", "displayName": "GitHub", "description": "for the repo",
         "variables": {"GH_TOKEN": s["user_secret"], "GH_USER": s["user_secret2"]}},
    ]))
    _write(user / "apps" / "app-1" / "3" / "index.html", "<h1>Groceries</h1>")
    _write(user / "apps" / "app-1" / "3" / "app.js", "console.log(1)")
    _write(user / "databases" / "db-1" / "PG_VERSION", "17\n")
    _write(user / "databases" / "db-1" / "base" / "1" / "1259", "x" * 4096)
    agent = root / "agents" / "agent-1"
    _write(agent / "SYSTEM.md", "# System\n\nYou speak of marmalogy.\n")
    _write(agent / "INFERENCE.md", "# Inference Snapshot\n\n- iteration: 3\n")
    _write(agent / "compaction_20261117.md", "## 2026-11-17T10:00:00Z\n\n- summary\n")
    proc = root / "processes" / "proc-1"
    _write(proc / "sandbox.json", json.dumps({
        "backend": "sandbox", "processUserId": "process-proc-1", "controlPath": "/process/control.fifo",
        "mounts": [{"hostPath": "/srv/shared", "mappedPath": "/data", "readOnly": True}],
        "env": {"DATABASE_URL": f"postgres://u:{s['log']}@h/db"}}, indent=4))
    _write(proc / "process.log", "".join(f"line {i}\n" for i in range(20000))
           + f"export PASSWORD={s['log']}\nserver listening\n")
    _write(home / ".agents" / "skills" / "notes" / "SKILL.md",
           skill("notes", "Takes notes", "Write to the vellumkeep."))
