"""Writes a Linggen home the way Linggen 1.7.0 writes it (linggen/linggen, tag 1.7.0).

session.yaml and mission.md frontmatter as serde_yml prints them (fields in the struct's order, block
sequences not indented under their key), runs.jsonl rows as compact serde_json lines appended at a run's
start and rewritten in place at its end, and the folders 1.7 added (activity/, memory/backups/,
telemetry/, runtime/). Built from the formats alone; nothing is copied from a real home.
"""

from __future__ import annotations

import json

from tests.stores.linggen.builder import Home, line, pretty

T17 = 1_784_000_000  # 2026-07-14, after the 1.7 format change


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def run_row(run_id: str, status: str, at: int, *, session: str | None = None, skipped: bool = False,
            **older) -> str:
    """One runs.jsonl line; ``older`` adds the fields runs had before 1.7 (entry_exit_code, output_dir)."""
    row = {"run_id": run_id}
    if session is not None:
        row["session_id"] = session
    row.update({"triggered_at": at, "status": status, "skipped": skipped, **older})
    return compact(row) + "\n"


class Home17(Home):
    def session17(self, sid: str, title: str, *, creator: str = "user", project: str | None = None,
                  mission_id: str | None = None, agent_id: str | None = None,
                  compact_threshold: float | None = None, compact_focus: str | None = None,
                  title_locked: bool | None = True, lines: str = "") -> None:
        """``title_locked=None`` leaves the field out, as a session.yaml written before 1.7 does."""
        fields = [("id", sid), ("title", title), ("created_at", T17), ("creator", creator)]
        if project:
            fields += [("cwd", project), ("project", project), ("project_name", project.rsplit("/", 1)[-1])]
        fields += [("mission_id", mission_id), ("agent_id", agent_id), ("compact_threshold", compact_threshold),
                   ("compact_focus", compact_focus), ("title_locked", title_locked)]
        text = "".join(f"{k}: {_scalar(v)}\n" for k, v in fields if v is not None)
        self.write(f"sessions/{sid}/session.yaml", text)
        self.write(f"sessions/{sid}/messages.jsonl", lines)

    def mission17(self, mid: str, frontmatter: str, prompt: str = "Review the commits.",
                  runs: str | None = None) -> None:
        self.write(f"missions/{mid}/mission.md", f"---\n{frontmatter}---\n\n{prompt}\n")
        if runs is not None:
            self.write(f"missions/{mid}/runs.jsonl", runs)

    def activity(self, day: str, entries: list[dict]) -> None:
        self.write(f"activity/{day}.jsonl", "".join(compact(e) + "\n" for e in entries))

    def linggen17_extras(self) -> None:
        """trend, conditions, a memory backup and Linggen's own telemetry and runtime folders."""
        self.write("activity/trend.json", pretty([{"day": "2026-07-14", "free": 3, "total": 8}]))
        self.write("activity/conditions.json", pretty({"weather": T17}))
        self.write("memory/backups/store-2026-07-14.ndjson",
                   compact({"id": "m1", "text": "prefers tea"}) + "\n" + compact({"id": "m2", "text": "vim"}) + "\n")
        self.write("telemetry/linggen-digest.json", compact({"days": {"2026-07-14": {"chat": 3}}}))
        self.write("runtime/py/.linggen-stamp", "3.12.4\n")
        self.write("installation_id", "0f3c2a9e-1111-4222-8333-944455556666\n")


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


DAILY_REVIEW = """name: Daily review
description: Review yesterday's commits
schedule: 0 9 * * *
enabled: true
catchup_hours: 24
cwd: /work/shop
agent: reviewer
kickoff:
- Start with the open pull requests
- Then the failing tests
kickoff-stop:
- DONE
allowed-tools:
- Read
- Bash
permission:
  paths:
  - path: /work/shop
    mode: write
  - path: /tmp
    mode: read
  warning: Edits the shop repository
created_at: 1784000000
"""

NIGHTLY = """name: Nightly
schedule: 0 2 * * *
enabled: true
created_at: 1784000000
"""


def home17(root) -> Home17:
    """Two enabled missions, runs in every 1.7 status, a mission session and the new folders."""
    h = Home17(root)
    h.project("/work/shop", "shop")
    h.session17("sess-1784000000-aaaa0001", "Daily review", creator="mission", project="/work/shop",
                mission_id="daily-review", agent_id="reviewer", compact_threshold=0.8,
                compact_focus="keep the TODO list", lines=line("user", "reviewer", "check the invoices", T17 + 1))
    h.session17("sess-1784000000-aaaa0002", "Chat", title_locked=False,
                lines=line("user", "ling", "hello there", T17 + 2))
    h.mission17("daily-review", DAILY_REVIEW, runs="".join([
        run_row("mission-run-1784000000-aaaa0001", "completed", T17, session="sess-1784000000-aaaa0001"),
        run_row("mission-run-1784003600-aaaa0002", "skipped", T17 + 3600, skipped=True),
        run_row("mission-run-1784007200-aaaa0003", "interrupted", T17 + 7200, session="sess-1784000000-aaaa0001"),
        run_row("mission-run-1784010800-aaaa0004", "running", T17 + 10800, session="sess-1784000000-aaaa0001"),
    ]))
    h.mission17("nightly", NIGHTLY, runs=run_row("mission-run-1784000000-bbbb0001", "failed", T17 + 60,
                                                  session="sess-1784000000-aaaa0002"))
    h.activity("2026-07-14", [
        {"at": "2026-07-14T09:00:00Z", "by": "user", "app": "dj", "verb": "add", "object": "Blue in Green"},
        {"at": "2026-07-14T09:05:00Z", "by": "ling", "device": "laptop", "app": "photos", "verb": "clean"},
    ])
    h.linggen17_extras()
    return h
