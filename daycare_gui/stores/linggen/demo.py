"""A small, realistic Linggen home for screenshots, demos and the benchmark (deterministic).

It has both layouts side by side (an upgraded home), two projects with sessions, runs with a delegated
child run, missions (one active), plans, agents, skills, masked-looking credentials and a workspace
with ``.linggen/permissions.json``. Workspaces live in ``<dest>/demo-workspaces`` so nothing is written
outside ``dest``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from daycare_gui.stores.linggen.layout import encode_project_path

T0 = 1_767_261_600  # 2026-01-01 10:00 UTC, in seconds as Linggen stores time
# how long before "now" the demo starts: its last mission run is a day before it (t0 + 33 days)
SPAN = 34 * 86400


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _pretty(value) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)  # serde_json's pretty layout, no final newline


def _line(sender: str, to: str, content: str, ts: int, *, agent: str = "ling", obs: bool = False) -> str:
    return json.dumps({"agent_id": agent, "from_id": sender, "to_id": to, "content": content, "timestamp": ts,
                       "is_observation": obs}, separators=(",", ":"), ensure_ascii=False) + "\n"


def write_demo(dest: str | Path, *, t0: int = T0, now_ms: int | None = None) -> Path:
    """Write the demo home into ``dest`` (created; must be empty or absent). Returns ``dest``.

    ``now_ms`` dates the demo relative to that moment (``daycare-gui demo --kind linggen --now``): it
    starts :data:`SPAN` before it, so its newest session and mission runs are recent."""
    if now_ms is not None:
        t0 = now_ms // 1000 - SPAN
    day = time.strftime("%Y-%m-%d", time.gmtime(t0))
    home = Path(dest)
    home.mkdir(parents=True, exist_ok=True)
    if any(home.iterdir()):
        raise FileExistsError(f"{home} is not empty")
    ws = home / "demo-workspaces"
    _write(home / "config" / "linggen.runtime.toml", '[routing]\ndefault_models = ["gemini-flash"]\n')
    _write(home / "logs" / f"linggen.{day}",
           time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0)) + " INFO linggen: server started\n")
    _write(home / "credentials.json", _pretty({"gemini-flash": {"api_key": "AIzaDemoDemoDemoDemoDemo"},
                                               "groq-llama": {"api_key": "gsk_demo_demo_demo_demo"}}))
    _write(home / "agents" / "ling.md", "---\nname: ling\ndescription: The main agent\ntools: [Read, Write, "
                                        "Edit, Bash]\n---\n\nYou are Ling, a careful software engineer.\n")
    _write(home / "agents" / "coder.md", "---\nname: coder\ndescription: Writes code for delegated tasks\n---\n\n"
                                         "Implement exactly what the lead asks; run the tests.\n")
    _write(home / "skills" / "commit.md", "---\nname: commit\ndescription: Write a commit message\n---\n\n"
                                          "Summarise the staged diff in one line, then explain why.\n")
    _write(home / "skills" / "review" / "SKILL.md", "---\nname: review\ndescription: Review a pull request\n---"
                                                    "\n\n1. Read the diff\n2. Run the tests\n3. Comment\n")
    _write(home / "plans" / "refactor-auth.md", "# Plan: Refactor auth module\n\n**Status:** executing\n"
                                                "**Origin:** model_managed\n\n- [x] Read existing auth code\n"
                                                "  src/auth.rs — understand current session handling\n"
                                                "- [~] Implement JWT validation\n- [ ] Add tests\n"
                                                "- [-] Skipped: migration script\n")
    for i, (name, sessions) in enumerate((("shop", 3), ("blog", 1))):
        workspace = ws / name
        workspace.mkdir(parents=True, exist_ok=True)
        project = home / "projects" / encode_project_path(str(workspace))
        _write(project / "project.json", _pretty({"path": str(workspace), "name": name, "added_at": t0 + i}))
        for s in range(sessions):
            start = t0 + 3600 * (24 * s + i)
            sid = f"sess-{start}-{(s * 7919 + i):08x}"
            _write(project / "sessions" / sid / "session.yaml",
                   f'id: {sid}\ntitle: "{name.title()} task {s + 1}"\ncreated_at: {start}\n')
            lines = [
                _line("user", "ling", f"Please fix the failing checkout test in {name}.", start + 5),
                _line("ling", "user", "Looking at the test output first.", start + 20),
                _line("ling", "ling", "Tool Bash: cargo test checkout\n1 failed", start + 40, obs=True),
                _line("ling", "coder", "Fix the rounding in cart totals.", start + 60),
                _line("coder", "ling", "Done: totals are rounded once, at the end.", start + 300, agent="coder"),
                _line("ling", "user", "Fixed; all tests pass now.", start + 320),
            ]
            _write(project / "sessions" / sid / "messages.jsonl", "".join(lines))
            main_id = f"run-ling-{start + 5}-{123456 + s}"
            _write(project / "runs" / f"{main_id}.json", _pretty({
                "run_id": main_id, "repo_path": str(workspace), "session_id": sid, "agent_id": "ling",
                "agent_kind": "main", "parent_run_id": None, "status": "completed",
                "detail": "chat:structured-loop", "started_at": start + 5, "ended_at": start + 320}))
            child = f"run-coder-{start + 60}-{654321 + s}"
            _write(project / "runs" / f"{child}.json", _pretty({
                "run_id": child, "repo_path": str(workspace), "session_id": sid, "agent_id": "coder",
                "agent_kind": "subagent", "parent_run_id": main_id, "status": "failed" if s == 1 else "completed",
                "detail": None, "started_at": start + 60, "ended_at": start + 300}))
        _write(project / "missions" / f"{t0 + 100}.json", _pretty({
            "text": "Keep the test suite green", "created_at": t0 + 100, "active": False, "agents": []}))
        _write(project / "missions" / f"{t0 + 900}.json", _pretty({
            "text": "Monitor production and fix issues", "created_at": t0 + 900, "active": True,
            "agents": [{"id": "ling", "idle_prompt": "Check status", "idle_interval_secs": 60}]}))
        _write(project / "agent_overrides" / "ling.json", _pretty({
            "agent_id": "ling", "idle_prompt": "Look for new issues", "idle_interval_secs": 120}))
    _write(ws / "shop" / ".linggen" / "permissions.json", _pretty({"tool_allows": ["Write", "Edit"]}))
    shop = str(ws / "shop")
    flat_start = t0 + 86400 * 30
    sid = f"sess-{flat_start}-0badcafe"
    _write(home / "sessions" / sid / "session.yaml",
           f'id: {sid}\ntitle: "Plan the payment page"\ncreated_at: {flat_start}\ncreator: user\n'
           f"project: {shop}\nproject_name: shop\nmodel_id: gemini-flash\n")
    plan = {"type": "plan", "plan": {"summary": "Payment page", "status": "approved", "items": [
        {"title": "Sketch the form", "status": "done"},
        {"title": "Validate card numbers", "status": "in_progress", "description": "Luhn check on the client"},
        {"title": "Write tests", "status": "pending"}]}}
    _write(home / "sessions" / sid / "messages.jsonl", "".join([
        _line("user", "ling", "Plan a payment page for the shop.", flat_start + 3),
        _line("ling", "user", json.dumps(plan), flat_start + 40),
        _line("user", "ling", "Approved, go ahead.", flat_start + 90),
    ]))
    mission = home / "missions" / "daily-review"
    _write(mission / "mission.md", f"---\nname: Daily review\nschedule: 0 9 * * 1-5\nenabled: true\n"
                                   f"project: {shop}\ncreated_at: {flat_start}\n---\n\n"
                                   "Review yesterday's commits and open issues; summarise risks.\n")
    _write(mission / "runs.jsonl", "".join(
        json.dumps({"run_id": f"mrun-{k}", "session_id": sid if k == 0 else None,
                    "triggered_at": flat_start + 86400 * k, "status": "completed" if k != 2 else "failed",
                    "skipped": False}) + "\n" for k in range(4)))
    _nightly_tests(home, shop, flat_start)
    return home


# The nightly mission's runs as Linggen 1.7 leaves them: (status, what its session holds); the last one is
# still "running" though no Linggen runs (the demo has no ling.pid), so it is shown as cut off.
_NIGHTLY_RUNS = (
    ("completed", "All 212 tests pass."),
    ("failed", "Error: the model provider refused the request (429 Too Many Requests)"),
    ("skipped", None),
    ("completed", "All 214 tests pass; one is slow (checkout, 9 s)."),
    ("running", "Running the test suite…"),
)


def _nightly_tests(home: Path, shop: str, flat_start: int) -> None:
    """A second flat mission whose runs worked, failed, were skipped and one that is still running, each
    with the session Linggen made for it (``creator: mission``, ``mission_id``)."""
    mission = home / "missions" / "nightly-tests"
    _write(mission / "mission.md", f"---\nname: Nightly tests\nschedule: 0 2 * * *\nenabled: true\n"
                                   f"project: {shop}\ncreated_at: {flat_start}\n---\n\n"
                                   "Run the whole test suite and report what fails.\n")
    rows = []
    for k, (status, said) in enumerate(_NIGHTLY_RUNS):
        start = flat_start + 86400 * k - 8 * 3600  # 02:00 when the demo's day starts at 10:00
        row = {"run_id": f"mission-run-{start}-{k + 0xA0:08x}"}
        if said is not None:
            sid = f"sess-{start}-{k + 0xB0:08x}"
            row["session_id"] = sid
            _write(home / "sessions" / sid / "session.yaml",
                   f'id: {sid}\ntitle: "Nightly tests"\ncreated_at: {start}\ncreator: mission\n'
                   f"project: {shop}\nproject_name: shop\nmission_id: nightly-tests\n")
            _write(home / "sessions" / sid / "messages.jsonl", "".join([
                _line("user", "ling", "Run the whole test suite and report what fails.", start + 1),
                _line("ling", "ling", "Tool Bash: cargo test", start + 30, obs=True),
                _line("ling", "user", said, start + 240)]))
        row.update({"triggered_at": start, "status": status, "skipped": status == "skipped"})
        rows.append(json.dumps(row, separators=(",", ":")) + "\n")
    _write(mission / "runs.jsonl", "".join(rows))
