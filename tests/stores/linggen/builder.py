"""Builds Linggen homes in tmp_path from the documented formats (seed 002 and the as-built reference §1).

Files are written the way Linggen writes them: pretty JSON (two spaces, no final newline) for records,
compact JSON lines for messages, YAML for sessions, Markdown with frontmatter for agents, skills and flat
missions. Hazards are written on purpose by the tests (truncations, collisions, a live pid).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

T0 = 1_700_000_000


def pretty(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def line(sender: str, to: str, content, ts: int | None = T0, *, agent: str = "ling", obs: bool = False) -> str:
    obj = {"agent_id": agent, "from_id": sender, "to_id": to, "content": content, "is_observation": obs}
    if ts is not None:
        obj["timestamp"] = ts
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n"


class Home:
    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def write(self, rel: str, text: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    # -- per-project layout ----------------------------------------------------------------------------

    def project(self, path: str, name: str = "", *, folder: str | None = None, info: bool = True) -> str:
        folder = folder or path.replace("/", "-")
        (self.root / "projects" / folder).mkdir(parents=True, exist_ok=True)
        if info:
            self.write(f"projects/{folder}/project.json",
                       pretty({"path": path, "name": name or Path(path).name, "added_at": T0}))
        return folder

    def session(self, folder: str, sid: str, title: str = "A session", created: int = T0, lines: str = "",
                *, yaml_text: str | None = None) -> Path:
        base = f"projects/{folder}/sessions/{sid}"
        self.write(f"{base}/session.yaml",
                   yaml_text if yaml_text is not None else f'id: {sid}\ntitle: "{title}"\ncreated_at: {created}\n')
        return self.write(f"{base}/messages.jsonl", lines)

    def run(self, folder: str, run_id: str, *, status: str = "completed", parent: str | None = None,
            started: int = T0, ended: int | None = T0 + 60, repo_path: str = "", session: str = "s1",
            agent: str = "ling") -> Path:
        return self.write(f"projects/{folder}/runs/{run_id}.json", pretty({
            "run_id": run_id, "repo_path": repo_path, "session_id": session, "agent_id": agent,
            "agent_kind": "main" if parent is None else "subagent", "parent_run_id": parent, "status": status,
            "detail": "chat:structured-loop", "started_at": started, "ended_at": ended}))

    def mission(self, folder: str, created: int, text: str, active: bool, *, name: str | None = None) -> Path:
        return self.write(f"projects/{folder}/missions/{name or created}.json", pretty({
            "text": text, "created_at": created, "active": active,
            "agents": [{"id": "ling", "idle_prompt": "Check status", "idle_interval_secs": 60}]}))

    def override(self, folder: str, agent: str, prompt: str = "Custom prompt", secs: int = 120) -> Path:
        return self.write(f"projects/{folder}/agent_overrides/{agent}.json",
                          pretty({"agent_id": agent, "idle_prompt": prompt, "idle_interval_secs": secs}))

    # -- flat layout -----------------------------------------------------------------------------------

    def flat_session(self, sid: str, title: str = "Flat session", created: int = T0, lines: str = "",
                     **extra) -> Path:
        yaml_text = f'id: {sid}\ntitle: "{title}"\ncreated_at: {created}\n'
        yaml_text += "".join(f"{k}: {v}\n" for k, v in extra.items())
        self.write(f"sessions/{sid}/session.yaml", yaml_text)
        return self.write(f"sessions/{sid}/messages.jsonl", lines)

    def flat_mission(self, mid: str, prompt: str = "Review the commits.", *, schedule: str = "0 9 * * *",
                     enabled: bool = True, runs: str | None = None, frontmatter: str | None = None) -> Path:
        fm = frontmatter if frontmatter is not None else (
            f"name: {mid}\nschedule: {schedule}\nenabled: {str(enabled).lower()}\ncreated_at: {T0}\n")
        path = self.write(f"missions/{mid}/mission.md", f"---\n{fm}---\n\n{prompt}\n")
        if runs is not None:
            self.write(f"missions/{mid}/runs.jsonl", runs)
        return path

    # -- global files ------------------------------------------------------------------------------------

    def agent(self, name: str, body: str = "You are helpful.", description: str = "An agent") -> Path:
        return self.write(f"agents/{name}.md", f"---\nname: {name}\ndescription: {description}\n---\n\n{body}\n")

    def skill(self, name: str, *, nested: bool = False) -> Path:
        text = f"---\nname: {name}\ndescription: A skill\n---\n\nDo {name}.\n"
        return self.write(f"skills/{name}/SKILL.md" if nested else f"skills/{name}.md", text)

    def plan(self, slug: str, text: str) -> Path:
        return self.write(f"plans/{slug}.md", text)

    def credentials(self, value: dict | str) -> Path:
        return self.write("credentials.json", value if isinstance(value, str) else pretty(value))

    def pid(self, pid: int | None = None) -> Path:
        return self.write("ling.pid", f"{pid if pid is not None else os.getpid()}\n")


def permissions_file(workspace: Path, text: str) -> Path:
    path = workspace / ".linggen" / "permissions.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


SAMPLE_PLAN = """# Plan: Refactor auth module

**Status:** approved
**Origin:** model_managed

- [x] Read existing auth code
  src/auth.rs — understand current session handling
- [~] Implement JWT validation
- [ ] Add tests
- [-] Skipped: migration script
"""


def standard_home(root: Path, workspace: Path | None = None) -> Home:
    """A per-project home with one project of two sessions, runs in a tree, missions, plans and docs."""
    h = Home(root)
    ws = str(workspace) if workspace else "/work/app"
    folder = h.project(ws, "app")
    h.session(folder, "sess-1700000000-aaaa0001", "Fix login bug", T0, "".join([
        line("user", "ling", "Fix the login bug", T0 + 1),
        line("ling", "coder", "Please patch auth.rs", T0 + 2),
        line("ling", "ling", "Tool Read: src/auth.rs (120 lines)", T0 + 3, obs=True),
        line("coder", "ling", "Patched.", T0 + 4, agent="coder"),
    ]))
    h.session(folder, "sess-1700000100-aaaa0002", "Empty one", T0 + 100, "")
    h.run(folder, "run-ling-1", repo_path=ws, session="sess-1700000000-aaaa0001")
    h.run(folder, "run-coder-1", parent="run-ling-1", status="failed", started=T0 + 2, ended=T0 + 3,
          repo_path=ws, session="sess-1700000000-aaaa0001", agent="coder")
    h.run(folder, "run-ling-2", status="cancelled", started=T0 + 10, ended=T0 + 11, repo_path=ws)
    h.mission(folder, T0, "Old mission", False)
    h.mission(folder, T0 + 500, "Monitor production", True)
    h.override(folder, "ling")
    h.agent("ling")
    h.skill("commit")
    h.skill("review", nested=True)
    h.plan("refactor-auth", SAMPLE_PLAN)
    h.credentials({"gemini-flash": {"api_key": "AIzaSyA1234567890abcdef"}, "groq": {"api_key": "gsk_1234567890abcdef"}})
    return h
