"""20260220_import_tasks: ``cron/<dir>/TASK.md`` → tasks_cron, ``heartbeat/*.md`` → tasks_heartbeat."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, MigrationContext, MigrationError
from daycare_gui.stores.daycare.sqlite.migrations.ids import is_cuid2
from daycare_gui.stores.daycare.sqlite.migrations.legacy import (
    FrontmatterError,
    file_times_ms,
    js_trim,
    last_run_at,
    read_text,
    split_frontmatter,
    string_or_none,
)
from daycare_gui.stores.problems import Problem

USER_ID_KEYS = ("userId", "user_id", "userID", "userid")
AGENT_ID_KEYS = ("agentId", "agent_id")
DELETE_AFTER_RUN_KEYS = ("deleteAfterRun", "delete_after_run", "oneOff", "one_off", "once")
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


@dataclass
class CronTask:
    id: str
    task_uid: str
    user_id: str | None  # None: the owner's id is filled in at insert time
    name: str
    description: str | None
    schedule: str
    code: str
    agent_id: str | None
    enabled: bool
    delete_after_run: bool
    last_run_at: int | None
    created_at: int
    updated_at: int


@dataclass
class HeartbeatTask:
    id: str
    title: str
    code: str
    last_run_at: int | None
    created_at: int
    updated_at: int


def _first_present(frontmatter: dict, keys: tuple[str, ...]):
    """JavaScript's ``a ?? b ?? c``: the first value that is neither missing nor null."""
    for key in keys:
        if frontmatter.get(key) is not None:
            return frontmatter[key]
    return None


def _frontmatter(path: Path) -> tuple[dict, str] | None:
    try:
        raw = read_text(path)
    except OSError:
        return None
    try:
        return split_frontmatter(raw)
    except FrontmatterError as exc:
        # gray-matter throws outside Daycare's try/catch: the whole migration fails.
        raise MigrationError(f"{path}: {exc}") from exc


def _sorted_entries(folder: Path) -> list[os.DirEntry]:
    with os.scandir(folder) as it:
        return sorted(it, key=lambda e: e.name)


def read_cron(cron_dir: Path, now: int, skipped: list[Problem]) -> list[CronTask]:
    tasks: list[CronTask] = []
    if not cron_dir.is_dir():
        return tasks
    for entry in _sorted_entries(cron_dir):
        if not entry.is_dir(follow_symlinks=False):
            continue
        task_path = Path(entry.path) / "TASK.md"
        if not task_path.exists():
            continue
        parsed = _frontmatter(task_path)
        if parsed is None:
            skipped.append(Problem(str(task_path), None, "unreadable; task skipped", "warning"))
            continue
        fm, body = parsed
        raw_uid = fm.get("taskId")
        task_uid = js_trim(raw_uid) if isinstance(raw_uid, str) else ""
        name = string_or_none(fm.get("name"))
        schedule = string_or_none(_first_present(fm, ("schedule", "cron")))
        code = js_trim(body)
        if not task_uid or not is_cuid2(task_uid):
            skipped.append(Problem(str(task_path), None, "taskId missing or not cuid2-shaped; task skipped", "warning"))
            continue
        if not name or not schedule:
            skipped.append(Problem(str(task_path), None, "name or schedule missing; task skipped", "warning"))
            continue
        if not code:
            skipped.append(Problem(str(task_path), None, "empty body; task skipped", "warning"))
            continue
        created, updated = file_times_ms(task_path, now)
        tasks.append(
            CronTask(
                id=entry.name,
                task_uid=task_uid,
                user_id=string_or_none(_first_present(fm, USER_ID_KEYS)),
                name=name,
                description=string_or_none(fm.get("description")),
                schedule=schedule,
                code=code,
                agent_id=string_or_none(_first_present(fm, AGENT_ID_KEYS)),
                enabled=fm.get("enabled") is not False,
                delete_after_run=any(fm.get(key) is True for key in DELETE_AFTER_RUN_KEYS),
                last_run_at=last_run_at(Path(entry.path) / "STATE.json"),
                created_at=created,
                updated_at=updated,
            )
        )
    return tasks


def slugify(value: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-")


def heartbeat_title_and_code(body: str, fm: dict, fallback: str) -> tuple[str, str]:
    """Title from frontmatter ``title``/``name``, else a leading Markdown heading (removed from the code)."""
    trimmed = js_trim(body)
    title = _first_present(fm, ("title", "name"))
    if isinstance(title, str):
        return (js_trim(title) or fallback), trimmed
    if trimmed:
        lines = re.split(r"\r?\n", trimmed)
        match = _HEADING.match(js_trim(lines[0]))
        if match and match.group(1):
            return (js_trim(match.group(1)) or fallback), js_trim("\n".join(lines[1:]))
    return fallback, trimmed


def read_heartbeats(heartbeat_dir: Path, now: int, skipped: list[Problem]) -> list[HeartbeatTask]:
    tasks: list[HeartbeatTask] = []
    if not heartbeat_dir.is_dir():
        return tasks
    shared_last_run = last_run_at(heartbeat_dir / ".heartbeat-state.json")
    for entry in _sorted_entries(heartbeat_dir):
        if not entry.is_file(follow_symlinks=False) or not entry.name.lower().endswith(".md"):
            continue
        path = Path(entry.path)
        parsed = _frontmatter(path)
        if parsed is None:
            skipped.append(Problem(str(path), None, "unreadable; heartbeat skipped", "warning"))
            continue
        fm, body = parsed
        base_name = os.path.splitext(entry.name)[0]
        title, code = heartbeat_title_and_code(body, fm, base_name)
        if not code:
            skipped.append(Problem(str(path), None, "empty body; heartbeat skipped", "warning"))
            continue
        created, updated = file_times_ms(path, now)
        tasks.append(HeartbeatTask(slugify(base_name) or base_name, title, code, shared_last_run, created, updated))
    return tasks


def scan_tasks(legacy_dir: Path, now: int = 0) -> LegacyScan:
    scan = LegacyScan()
    try:
        cron = read_cron(legacy_dir / "cron", now, scan.skipped)
        heartbeats = read_heartbeats(legacy_dir / "heartbeat", now, scan.skipped)
    except MigrationError as exc:
        scan.failure = str(exc)
        return scan
    scan.add("cron tasks", len(cron))
    scan.add("heartbeat tasks", len(heartbeats))
    return scan


def import_tasks(ctx: MigrationContext) -> None:
    if ctx.legacy_dir is None:
        return
    now = ctx.now_ms()
    owner = ctx.owner_id()
    for task in read_cron(ctx.legacy_dir / "cron", now, []):
        ctx.conn.execute(
            """INSERT OR IGNORE INTO tasks_cron (id, task_uid, user_id, name, description, schedule, prompt,
                   agent_id, enabled, delete_after_run, last_run_at, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (task.id, task.task_uid, task.user_id or owner, task.name, task.description, task.schedule, task.code,
             task.agent_id, int(task.enabled), int(task.delete_after_run), task.last_run_at, task.created_at,
             task.updated_at),
        )
    for beat in read_heartbeats(ctx.legacy_dir / "heartbeat", now, []):
        ctx.conn.execute(
            """INSERT OR IGNORE INTO tasks_heartbeat (id, title, prompt, last_run_at, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?)""",
            (beat.id, beat.title, beat.code, beat.last_run_at, beat.created_at, beat.updated_at),
        )
