"""Legacy cron (``cron/<dir>/TASK.md``) and heartbeat (``heartbeat/*.md``) task files.

Parsed the way Daycare's ``20260220_import_tasks`` migration reads them (reference §6.3), including when it
would silently skip a file: those are still listed, flagged ``importable=False`` with the reason, because
a skipped task is exactly what the user needs to see.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, iso_to_ms, loaded, nonblank, split_known
from daycare_gui.stores.common.files.frontmatter import read_markdown
from daycare_gui.stores.common.files.jsonfile import read_json
from daycare_gui.stores.common.files.read import Root, list_dir
from daycare_gui.stores.daycare.files.legacy_dirs import legacy_folders, legacy_subfolders
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem

TASK_ID_RE = re.compile(r"^[a-z0-9]{24,32}$")  # cuid2 shape, required by the importer

CRON_KEYS = {
    "schedule": ("schedule", "cron"),
    "agent_id": ("agentId", "agent_id"),
    "user_id": ("userId", "user_id", "userID", "userid"),
    "delete_after_run": ("deleteAfterRun", "delete_after_run", "oneOff", "one_off", "once"),
}
_CRON_KNOWN = {"taskId", "name", "description", "enabled", *(k for keys in CRON_KEYS.values() for k in keys)}
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def _first(meta: dict, keys) -> tuple[Any, str | None]:
    for key in keys:
        if key in meta:
            return meta[key], key
    return None, None


def _state_last_run(path: Path, root: Root, problems: list[Problem]) -> tuple[str | None, int | None]:
    state, more = read_json(path, root=root, expect=dict)
    problems.extend(more)
    if not state:
        return None, None
    value = state.get("lastRunAt")
    if value is None:
        return None, None
    ms = iso_to_ms(value)
    if ms is None:
        problems.append(
            Problem(str(path), None, f"lastRunAt {value!r} is not an ISO timestamp; ignored", "warning")
        )
    return (value if isinstance(value, str) else None), ms


@dataclass(frozen=True)
class CronTask(RecordMixin):
    id: str  # folder name: the tasks_cron row id Daycare would give it
    path: str  # TASK.md
    folder: str
    task_uid: str | None  # frontmatter taskId (trimmed)
    name: str | None
    description: str | None
    schedule: str | None
    code: str  # trimmed body
    agent_id: str | None
    user_id: str | None
    enabled: bool
    delete_after_run: bool
    last_run_at: str | None  # STATE.json lastRunAt as written
    last_run_at_ms: int | None
    memory_path: str | None  # MEMORY.md, when present (not imported by Daycare)
    files_dir: str | None  # files/ task workspace, when present
    next_to_db: bool  # in the folder Daycare's importer reads (legacy_dirs[0])
    importable: bool
    skip_reason: str | None
    aliases: dict = field(default_factory=dict)  # field -> the frontmatter key it came from
    raw: dict = field(default_factory=dict)  # the whole frontmatter mapping
    extra: dict = field(default_factory=dict)  # frontmatter keys Daycare does not read


def parse_cron_task(
    folder: Path, *, root: Root = None, next_to_db: bool = True
) -> tuple[CronTask | None, list[Problem]]:
    """One ``cron/<dir>/`` folder; None only when it has no readable TASK.md."""
    task_path = folder / "TASK.md"
    doc, problems = read_markdown(task_path, root=root)
    if doc is None:
        if not problems:
            problems.append(
                Problem(str(folder), None, "cron folder without TASK.md; Daycare skips it", "warning")
            )
        return None, problems
    meta = doc.meta
    aliases: dict[str, str] = {}
    reasons: list[str] = []
    if not doc.frontmatter_ok or not doc.has_frontmatter:
        reasons.append("no readable frontmatter")

    raw_uid = meta.get("taskId")
    task_uid = raw_uid.strip() if isinstance(raw_uid, str) else None
    if not task_uid:
        reasons.append("taskId missing")
    elif not TASK_ID_RE.match(task_uid):
        reasons.append(f"taskId {task_uid!r} is not 24-32 characters of a-z0-9")
    name = nonblank(meta.get("name"))
    if name is None:
        reasons.append("name missing")
    schedule_value, key = _first(meta, CRON_KEYS["schedule"])
    schedule = nonblank(schedule_value)
    if key:
        aliases["schedule"] = key
    if schedule is None:
        reasons.append("schedule missing")
    code = doc.body.strip()
    if not code:
        reasons.append("body (code) is empty")

    agent_value, key = _first(meta, CRON_KEYS["agent_id"])
    if key:
        aliases["agent_id"] = key
    user_value, key = _first(meta, CRON_KEYS["user_id"])
    if key:
        aliases["user_id"] = key
    delete_after_run = False
    for k in CRON_KEYS["delete_after_run"]:
        # Daycare counts an alias only when it is literally the boolean true.
        if meta.get(k) is True:
            delete_after_run = True
            aliases["delete_after_run"] = k
            break

    state_path = folder / "STATE.json"
    last_run_at, last_run_ms = _state_last_run(state_path, root, problems)
    memory = folder / "MEMORY.md"
    files = folder / "files"
    task = CronTask(
        id=folder.name,
        path=str(task_path),
        folder=str(folder),
        task_uid=task_uid or None,
        name=name.strip() if name else None,
        description=nonblank(meta.get("description")),
        schedule=schedule.strip() if schedule else None,
        code=code,
        agent_id=nonblank(agent_value),
        user_id=nonblank(user_value),
        enabled=meta.get("enabled") is not False,
        delete_after_run=delete_after_run,
        last_run_at=last_run_at,
        last_run_at_ms=last_run_ms,
        memory_path=str(memory) if memory.is_file() else None,
        files_dir=str(files) if files.is_dir() else None,
        next_to_db=next_to_db,
        importable=not reasons,
        skip_reason="; ".join(reasons) or None,
        aliases=aliases,
        raw=dict(meta),
        extra=split_known(meta, _CRON_KNOWN),
    )
    if reasons:
        problems.append(
            Problem(str(task_path), None, f"Daycare's import skips this task: {task.skip_reason}", "warning")
        )
    return task, problems


def read_cron_tasks(paths: DaycarePaths) -> Loaded[CronTask]:
    items: list[CronTask] = []
    problems: list[Problem] = []
    for folder, next_to_db in legacy_subfolders(paths, "cron", problems):
        task, more = parse_cron_task(folder, root=paths, next_to_db=next_to_db)
        problems.extend(more)
        if task is not None:
            items.append(task)
    return loaded(items, problems)


# --- heartbeat -------------------------------------------------------------------------------------


def heartbeat_slug(base_name: str) -> str:
    """Daycare's heartbeat id: lowercase, runs of non-[a-z0-9] → '-', trimmed; raw name if that is empty."""
    slug = re.sub(r"[^a-z0-9]+", "-", base_name.lower()).strip("-")
    return slug or base_name


@dataclass(frozen=True)
class HeartbeatTask(RecordMixin):
    id: str  # slugified base name: the tasks_heartbeat row id
    path: str
    title: str
    title_source: str  # "title", "name", "heading" or "file"
    code: str
    last_run_at: str | None  # shared heartbeat/.heartbeat-state.json value
    last_run_at_ms: int | None
    next_to_db: bool
    importable: bool
    skip_reason: str | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def parse_heartbeat(
    path: Path,
    *,
    root: Root = None,
    last_run: tuple[str | None, int | None] = (None, None),
    next_to_db: bool = True,
) -> tuple[HeartbeatTask | None, list[Problem]]:
    doc, problems = read_markdown(path, root=root)
    if doc is None:
        return None, problems
    base = path.name[: -len(path.suffix)] if path.suffix else path.name
    meta = doc.meta
    code = doc.body.strip()
    title_value, key = _first(meta, ("title", "name"))
    if isinstance(title_value, str):
        title = title_value.strip() or base
        source = key if title_value.strip() else "file"
    else:
        first, _, rest = code.partition("\n")
        match = _HEADING.match(first.strip())
        if match and match.group(1):
            # Daycare takes a leading heading as the title and removes it from the code.
            title, source, code = match.group(1), "heading", rest.strip()
        else:
            title, source = base, "file"
    reason = None if code else "body (code) is empty"
    if not doc.frontmatter_ok:
        reason = "frontmatter is broken" if reason is None else f"frontmatter is broken; {reason}"
    task = HeartbeatTask(
        id=heartbeat_slug(base),
        path=str(path),
        title=title,
        title_source=source,
        code=code,
        last_run_at=last_run[0],
        last_run_at_ms=last_run[1],
        next_to_db=next_to_db,
        importable=reason is None,
        skip_reason=reason,
        raw=dict(meta),
        extra=split_known(meta, {"title", "name"}),
    )
    if reason:
        problems.append(
            Problem(str(path), None, f"Daycare's import skips this heartbeat: {reason}", "warning")
        )
    return task, problems


def read_heartbeat_tasks(paths: DaycarePaths) -> Loaded[HeartbeatTask]:
    items: list[HeartbeatTask] = []
    problems: list[Problem] = []
    for folder, next_to_db in legacy_folders(paths, "heartbeat"):
        last_run = _state_last_run(folder / ".heartbeat-state.json", paths, problems)
        entries, more = list_dir(folder, root=paths)
        problems.extend(more)
        for entry in entries:
            if not entry.is_file or not entry.name.lower().endswith(".md"):
                continue
            task, more = parse_heartbeat(entry.path, root=paths, last_run=last_run, next_to_db=next_to_db)
            problems.extend(more)
            if task is not None:
                items.append(task)
    return loaded(items, problems)
