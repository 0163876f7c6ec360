"""The small demo's files: config, legacy folders, Markdown documents, plugins."""

import json
import re

import yaml


def _front(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), path
    head, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(head), body


def test_settings_and_auth(small_demo):
    dest, _ = small_demo
    settings = json.loads((dest / "settings.json").read_text())
    assert {"features", "engine", "assistant", "plugins", "providers"} <= set(settings)
    assert {p["pluginId"] for p in settings["plugins"]} >= {"memory", "database", "upgrade"}
    assert "experimentalVoice" in settings  # a key Daycare does not know
    auth = json.loads((dest / "auth.json").read_text())
    assert len(auth) >= 3
    assert any(e.get("apiKey", "").startswith("sk-") and "demo" in e["apiKey"] for e in auth.values())
    oauth = [e for e in auth.values() if e.get("type") == "oauth"]
    assert oauth and oauth[0]["accessToken"] and oauth[0]["refreshToken"]


def test_cron_files_use_aliases_and_valid_task_ids(small_demo, demo_db):
    dest, _ = small_demo
    tasks = {p.parent.name: _front(p) for p in (dest / "cron").glob("*/TASK.md")}
    assert len(tasks) >= 4
    keys = set().union(*(set(front) for front, _ in tasks.values()))
    assert {"cron", "agent_id", "user_id", "delete_after_run", "once", "schedule", "taskId"} <= keys
    assert all(re.fullmatch(r"[a-z0-9]{24,32}", str(f["taskId"])) and body.strip() for f, body in tasks.values())
    assert any(f.get("enabled") is False for f, _ in tasks.values())
    assert any("#" in (dest / "cron" / d / "TASK.md").read_text().split("---")[1] for d in tasks)  # YAML comments
    rows = {r["id"]: r for r in demo_db.execute("SELECT * FROM tasks_cron")}
    both = set(rows) & set(tasks)
    assert len(both) >= 3 and set(rows) - set(tasks) and set(tasks) - set(rows)
    for name in both:
        assert rows[name]["task_uid"] == tasks[name][0]["taskId"]
    assert (dest / "cron/daily-digest/STATE.json").is_file() and (dest / "cron/daily-digest/MEMORY.md").is_file()


def test_heartbeats(small_demo):
    dest, _ = small_demo
    files = sorted((dest / "heartbeat").glob("*.md"))
    texts = [p.read_text() for p in files]
    assert any(t.startswith("---\ntitle:") for t in texts) and any(t.startswith("# ") for t in texts)
    json.loads((dest / "heartbeat/.heartbeat-state.json").read_text())


def test_legacy_agents_match_database(small_demo, demo_db):
    dest, _ = small_demo
    folders = [p for p in (dest / "agents").iterdir() if p.is_dir()]
    assert 1 <= len(folders) <= 2
    for folder in folders:
        assert demo_db.execute("SELECT 1 FROM agents WHERE id = ?", (folder.name,)).fetchone()
        json.loads((folder / "descriptor.json").read_text())
        json.loads((folder / "state.json").read_text())
        lines = [json.loads(line) for line in (folder / "history.jsonl").read_text().splitlines()]
        assert lines[0]["type"] == "start"
        sessions = demo_db.execute("SELECT count(*) FROM sessions WHERE agent_id = ?", (folder.name,)).fetchone()[0]
        assert sum(1 for line in lines if line["type"] in ("start", "reset")) == sessions


def test_other_legacy_files(small_demo):
    dest, _ = small_demo
    for rel in ("channels/ops/channel.json", "signals/delayed.json"):
        json.loads((dest / rel).read_text())
    for rel in ("channels/ops/history.jsonl", "signals/events.jsonl"):
        assert [json.loads(line) for line in (dest / rel).read_text().splitlines()]
    assert list((dest / "expose/endpoints").glob("*.json"))
    procs = list((dest / "processes").iterdir())
    assert procs and all((p / n).is_file() for p in procs for n in ("record.json", "sandbox.json", "process.log"))
    assert all(json.loads((p / "record.json").read_text())["version"] == 2 for p in procs)


def test_apps_with_permissions(small_demo):
    dest, _ = small_demo
    apps = list((dest / "workspace/apps").iterdir())
    assert len(apps) >= 2
    for app in apps:
        front, _ = _front(app / "APP.md")
        assert {"name", "title", "description"} <= set(front)
        perms = (app / "PERMISSIONS.md").read_text()
        assert "## Source Intent" in perms and "### Allow" in perms and "### Deny" in perms
        assert re.search(r"^- @(read|write):/", perms, re.M)
        json.loads((app / "state.json").read_text())
    assert "@network" in "".join((a / "PERMISSIONS.md").read_text() for a in apps)


def test_users_skills_and_knowledge(small_demo):
    dest, summary = small_demo
    owner_home = dest / "users" / summary.owner_id / "home"
    for folder in ("desktop", "documents", "developer", "downloads", "knowledge"):
        assert (owner_home / folder).is_dir()
    for name in ("SOUL.md", "USER.md", "AGENTS.md", "TOOLS.md", "MEMORY.md"):
        assert (owner_home / "knowledge" / name).read_text().strip()
    assert len(list((owner_home / "documents").iterdir())) >= 2
    skills = list((dest / "users").glob("*/skills/*/SKILL.md")) + list((dest / "skills").glob("*/SKILL.md"))
    assert len(skills) >= 3
    fronts = [_front(p)[0] for p in skills]
    assert all({"name", "description"} <= set(f) for f in fronts)
    assert any(f.get("sandbox") is True and f.get("permissions") for f in fronts)
    assert list((dest / "users").glob("*/apps/*/APP.md"))


def test_downloads_match_history_file_references(small_demo, demo_db):
    dest, _ = small_demo
    for (data,) in demo_db.execute("SELECT data FROM session_history WHERE type = 'user_message'"):
        for ref in json.loads(data)["files"]:
            rel = ref["path"].split("/.daycare/", 1)[1]
            assert (dest / rel).is_file(), rel


def test_plugins(small_demo):
    dest, _ = small_demo
    assert (dest / "plugins/memory/INDEX.md").is_file()
    entities = [p for p in (dest / "plugins/memory").glob("*.md") if p.name != "INDEX.md"]
    assert len(entities) >= 2
    for p in entities:
        front, body = _front(p)
        assert {"name", "description"} <= set(front)
        assert body.startswith("# ") and "\n## " in body
    db_md = (dest / "plugins/database/db.md").read_text()
    for marker in ("<!-- schema:start -->", "<!-- schema:end -->", "<!-- changes:start -->", "<!-- changes:end -->"):
        assert marker in db_md
    pending = json.loads((dest / "plugins/upgrade/restart-pending.json").read_text())
    assert {"descriptor", "context", "requestedAtMs", "requesterPid"} <= set(pending)
