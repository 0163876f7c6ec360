"""20260222_import_processes: ``processes/<dir>/record.json`` (version 2 only) → processes."""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.imports.common import (
    number_or_none,
    number_or_now,
    owner_or_fallback,
    sorted_subdirs,
)
from daycare_gui.stores.daycare.sqlite.migrations.legacy import (
    JsonError,
    is_number,
    js_floor,
    read_json_file,
    string_or_none,
    to_json,
)
from daycare_gui.stores.problems import Problem

REQUIRED = ("id", "name", "command", "cwd", "settingsPath", "logPath")
STATUSES = ("running", "stopped", "exited")


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def normalize_permissions(value: object) -> dict:
    """The five core keys only (``workspaceDir`` and anything else is dropped)."""
    value = value if isinstance(value, dict) else {}
    return {
        "workingDir": string_or_none(value.get("workingDir")) or "/",
        "writeDirs": _strings(value.get("writeDirs")),
        "readDirs": _strings(value.get("readDirs")),
        "network": value.get("network") is True,
        "events": value.get("events") is True,
    }


def _count(value: object) -> int:
    return js_floor(value) if is_number(value) else 0


def _owner(value: object) -> dict | None:
    if not isinstance(value, dict) or value.get("type") != "plugin":
        return None
    owner_id = string_or_none(value.get("id"))
    return {"type": "plugin", "id": owner_id} if owner_id else None


def read_process(path: Path, now: int) -> tuple[dict | None, str | None]:
    """(process row fields, None) or (None, why it is skipped)."""
    try:
        parsed = read_json_file(path)
    except (OSError, JsonError):
        return None, "not valid JSON"
    if not isinstance(parsed, dict) or parsed.get("version") != 2:
        return None, "not a version 2 record"
    required = {k: string_or_none(parsed.get(k)) for k in REQUIRED}
    if not all(required.values()):
        return None, "id, name, command, cwd, settingsPath or logPath missing"
    env = parsed.get("env")
    env = {k: v for k, v in env.items() if isinstance(v, str)} if isinstance(env, dict) else {}
    status = parsed.get("status")
    return {
        **required,
        "home": string_or_none(parsed.get("home")),
        "env": to_json(env),
        "packageManagers": to_json(_strings(parsed.get("packageManagers"))),
        "allowedDomains": to_json(_strings(parsed.get("allowedDomains"))),
        "allowLocalBinding": int(parsed.get("allowLocalBinding") is True),
        "permissions": to_json(normalize_permissions(parsed.get("permissions"))),
        "owner": _owner(parsed.get("owner")),
        "keepAlive": int(parsed.get("keepAlive") is True),
        "desiredState": "stopped" if parsed.get("desiredState") == "stopped" else "running",
        "status": status if status in STATUSES else "stopped",
        "pid": number_or_none(parsed.get("pid")),
        "bootTimeMs": number_or_none(parsed.get("bootTimeMs")),
        "restartCount": _count(parsed.get("restartCount")),
        "restartFailureCount": _count(parsed.get("restartFailureCount")),
        "nextRestartAt": number_or_none(parsed.get("nextRestartAt")),
        "createdAt": number_or_now(parsed.get("createdAt"), now),
        "updatedAt": number_or_now(parsed.get("updatedAt"), now),
        "lastStartedAt": number_or_none(parsed.get("lastStartedAt")),
        "lastExitedAt": number_or_none(parsed.get("lastExitedAt")),
    }, None


def read_processes(processes_dir: Path, now: int, skipped: list[Problem]) -> list[dict]:
    if not processes_dir.is_dir():
        return []
    records = []
    for folder in sorted_subdirs(processes_dir):
        path = folder / "record.json"
        if not path.exists():
            continue
        record, why = read_process(path, now)
        if record is None:
            skipped.append(Problem(str(path), None, f"{why}; process skipped", "warning"))
            continue
        records.append(record)
    return records


def scan_processes(legacy_dir: Path, now: int = 0) -> LegacyScan:
    scan = LegacyScan()
    scan.add("processes", len(read_processes(legacy_dir / "processes", now, scan.skipped)))
    return scan


def import_processes(ctx: MigrationContext) -> None:
    if ctx.legacy_dir is None:
        return
    owner = owner_or_fallback(ctx)
    for r in read_processes(ctx.legacy_dir / "processes", ctx.now_ms(), []):
        # Daycare looks the plugin owner's id up as an agent; in practice that finds nobody and the owner wins.
        user_id = (ctx.agent_user_id(r["owner"]["id"]) if r["owner"] else None) or owner
        ctx.conn.execute(
            """INSERT OR IGNORE INTO processes (id, user_id, name, command, cwd, home, env, package_managers,
                   allowed_domains, allow_local_binding, permissions, owner, keep_alive, desired_state, status, pid,
                   boot_time_ms, restart_count, restart_failure_count, next_restart_at, settings_path, log_path,
                   created_at, updated_at, last_started_at, last_exited_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (r["id"], user_id, r["name"], r["command"], r["cwd"], r["home"], r["env"], r["packageManagers"],
             r["allowedDomains"], r["allowLocalBinding"], r["permissions"], to_json(r["owner"]) if r["owner"] else None,
             r["keepAlive"], r["desiredState"], r["status"], r["pid"], r["bootTimeMs"], r["restartCount"],
             r["restartFailureCount"], r["nextRestartAt"], r["settingsPath"], r["logPath"], r["createdAt"],
             r["updatedAt"], r["lastStartedAt"], r["lastExitedAt"]),
        )
