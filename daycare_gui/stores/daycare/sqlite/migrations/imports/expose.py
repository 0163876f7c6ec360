"""20260222_import_expose: ``expose/endpoints/*.json`` → expose_endpoints (all owned by the owner)."""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.imports.common import number_or_now, owner_or_fallback
from daycare_gui.stores.daycare.sqlite.migrations.legacy import (
    JsonError,
    is_number,
    read_json_file,
    string_or_none,
    to_json,
)
from daycare_gui.stores.problems import Problem

MODES = ("public", "local-network")


def normalize_target(target: object) -> dict | None:
    if not isinstance(target, dict):
        return None
    if target.get("type") == "port" and is_number(target.get("port")):
        return {"type": "port", "port": target["port"]}
    if target.get("type") == "unix" and string_or_none(target.get("path")):
        return {"type": "unix", "path": string_or_none(target.get("path"))}
    return None


def read_endpoints(endpoints_dir: Path, now: int, skipped: list[Problem]) -> list[dict]:
    if not endpoints_dir.is_dir():
        return []
    endpoints = []
    with os.scandir(endpoints_dir) as it:
        files = sorted((e for e in it if e.is_file() and e.name.endswith(".json")), key=lambda e: e.name)
    for entry in files:
        path = Path(entry.path)
        try:
            parsed = read_json_file(path)
        except (OSError, JsonError):
            skipped.append(Problem(str(path), None, "not valid JSON; endpoint skipped", "warning"))
            continue
        parsed = parsed if isinstance(parsed, dict) else {}
        fields = {k: string_or_none(parsed.get(k)) for k in ("id", "provider", "domain")}
        mode = parsed.get("mode") if parsed.get("mode") in MODES else None
        target = normalize_target(parsed.get("target"))
        if not all(fields.values()) or mode is None or target is None:
            skipped.append(Problem(str(path), None, "id, provider, domain, mode or target invalid; skipped", "warning"))
            continue
        auth = parsed.get("auth")
        endpoints.append({
            **fields, "mode": mode, "target": to_json(target),
            "auth": to_json(auth) if isinstance(auth, dict) else None,
            "created_at": number_or_now(parsed.get("createdAt"), now),
            "updated_at": number_or_now(parsed.get("updatedAt"), now),
        })
    return endpoints


def scan_expose(legacy_dir: Path, now: int = 0) -> LegacyScan:
    scan = LegacyScan()
    scan.add("endpoints", len(read_endpoints(legacy_dir / "expose" / "endpoints", now, scan.skipped)))
    return scan


def import_expose(ctx: MigrationContext) -> None:
    if ctx.legacy_dir is None:
        return
    owner = owner_or_fallback(ctx)
    ctx.conn.executemany(
        """INSERT OR IGNORE INTO expose_endpoints (id, user_id, target, provider, domain, mode, auth, created_at,
               updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [(e["id"], owner, e["target"], e["provider"], e["domain"], e["mode"], e["auth"], e["created_at"],
          e["updated_at"]) for e in read_endpoints(ctx.legacy_dir / "expose" / "endpoints", ctx.now_ms(), [])],
    )
