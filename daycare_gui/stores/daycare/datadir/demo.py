"""The files of the PGlite demo's data directory, written beside ``daycare.pglite/`` as Daycare keeps them:
skills of each source, settings.json (with a fake credential, to be seen masked), auth.json, a user's
secrets.json, an agent's SYSTEM.md and INFERENCE.md, a process's sandbox.json and process.log, a mini app's
code folder and a user's database folder. ``~/.agents/skills`` is outside the data directory and is left
alone: a demo never writes into the user's home."""

from __future__ import annotations

import json
import os
from pathlib import Path

FAKE_SECRET = "demo-fake-secret-not-real-0000"  # every credential planted below: shown masked, never in clear


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.chmod(path, mode)


def _skill(name: str, description: str, body: str) -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\n\n{body}\n"


def write_data_dir_demo(root: Path, *, owner: str, agent_id: str, process_id: str, process_env: dict) -> int:
    """Write the files into ``root`` (the demo's data and config directory); how many were written."""
    files: list[Path] = []

    def put(rel: str, text: str, mode: int = 0o644) -> None:
        _write(root / rel, text, mode)
        files.append(root / rel)

    put("settings.json", json.dumps({
        "engine": {"autoMigrate": True},
        "appServer": {"enabled": True, "host": "127.0.0.1", "port": 7332, "jwtSecret": FAKE_SECRET},
        "opensandbox": {"domain": "sandbox.example.test", "apiKey": FAKE_SECRET},
        "email": {"smtpUrl": f"smtp://mailer:{FAKE_SECRET}@mail.example.test:587", "from": "alex@example.test"},
        "plugins": [{"instanceId": "telegram", "pluginId": "telegram", "enabled": True,
                     "settings": {"botToken": FAKE_SECRET}}],
        "providers": [{"id": "anthropic", "enabled": True, "model": "claude-sonnet-4-5"}],
        "models": {"user": {"model": "anthropic/claude-sonnet-4-5"}},
    }, indent=2) + "\n", 0o600)
    put("auth.json", json.dumps({"anthropic": {"type": "apiKey", "apiKey": FAKE_SECRET},
                                 "openai-codex": {"type": "oauth", "access": FAKE_SECRET, "refresh": FAKE_SECRET}},
                                indent=2) + "\n", 0o600)
    put("skills/research/weather/SKILL.md", _skill(
        "weather", "Checks the forecast before outdoor plans", "Look up the forecast for the city the user names."))
    user = f"users/{owner}"
    put(f"{user}/skills/personal/trip-planner/SKILL.md", _skill(
        "trip-planner", "Plans a trip day by day", "Ask for dates and budget first, then plan each day."))
    put(f"{user}/skills-history/trip-planner/current.json", json.dumps({"currentVersion": 2}, indent=4))
    put(f"{user}/skills-history/trip-planner/versions/1/SKILL.md", _skill(
        "trip-planner", "Plans a trip", "Plan the trip."))
    for key, rel in (("user--trip-planner", "skills/personal/trip-planner"),
                     ("config--research--weather", "skills/research/weather")):
        source = root / (f"{user}/{rel}" if key.startswith("user") else rel) / "SKILL.md"
        put(f"{user}/skills/active/{key}/SKILL.md", source.read_text(encoding="utf-8"))
    put(f"{user}/secrets.json", json.dumps([{"name": "github", "displayName": "GitHub",
                                             "description": "Pushes the blog", "variables": {"GH_TOKEN": FAKE_SECRET}}],
                                           indent=2), 0o600)
    put(f"{user}/apps/app-groceries/2/index.html", "<!doctype html>\n<h1>Groceries</h1>\n<script src=app.js></script>\n")
    put(f"{user}/apps/app-groceries/2/app.js", "document.title = 'Groceries';\n")
    put(f"{user}/databases/db-budget/PG_VERSION", "17\n")
    put(f"{user}/databases/db-budget/base/1/1259", "\0" * 8192)
    put(f"agents/{agent_id}/SYSTEM.md", "# System\n\nYou are Alex's travel helper. Answer briefly.\n")
    put(f"agents/{agent_id}/INFERENCE.md", "# Inference Snapshot\n\n- iteration: 3\n- messageCount: 12\n")
    put(f"processes/{process_id}/sandbox.json", json.dumps({
        "backend": "sandbox", "processUserId": f"process-{process_id}", "controlPath": "/process/control.fifo",
        "mounts": [{"hostPath": "/home/alex/blog", "mappedPath": "/home/alex/blog", "readOnly": False}]}, indent=4))
    echoed = next((v for v in process_env.values() if isinstance(v, str)), "")
    put(f"processes/{process_id}/process.log",
        "> blog@1.0.0 dev\n> vite\n" + f"using token {echoed}\n" + "  VITE ready in 412 ms\n")
    return len(files)
