"""20260222_import_signals: ``signals/events.jsonl`` → signals_events, ``signals/delayed.json`` → signals_delayed."""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.imports.common import number_or_now, owner_or_fallback
from daycare_gui.stores.daycare.sqlite.migrations.legacy import (
    JsonError,
    read_json_file,
    read_json_lines,
    string_or_none,
    to_json,
)
from daycare_gui.stores.problems import Problem

_MISSING = object()


def normalize_source(source: object) -> dict:
    """Unknown shapes become ``{type: system}``; an agent source without an id becomes a system source."""
    if not isinstance(source, dict):
        return {"type": "system"}
    user_id = string_or_none(source.get("userId"))
    kind = source.get("type")
    result: dict = {"type": "system"}
    if kind == "agent":
        agent_id = string_or_none(source.get("id"))
        if agent_id:
            result = {"type": "agent", "id": agent_id}
    elif kind in ("webhook", "process"):
        result = {"type": kind}
        source_id = string_or_none(source.get("id"))
        if source_id:
            result["id"] = source_id
    if user_id:
        result["userId"] = user_id
    return result


def _event_row(event: dict, owner: str, now: int) -> tuple | None:
    event_id, kind = string_or_none(event.get("id")), string_or_none(event.get("type"))
    if not event_id or not kind:
        return None
    source = normalize_source(event.get("source"))
    data = event.get("data", _MISSING)
    # The user id is taken as written, even when no such user exists.
    return (event_id, source.get("userId", owner), kind, to_json(source), None if data is _MISSING else to_json(data),
            number_or_now(event.get("createdAt"), now))


def read_events(path: Path, owner: str, now: int, skipped: list[Problem]) -> list[tuple]:
    if not path.exists():
        return []
    lines = read_json_lines(path)
    skipped.extend(lines.skipped)
    rows = []
    for number, value in lines.values:
        row = _event_row(value, owner, now) if isinstance(value, dict) else None
        if row is None:
            skipped.append(Problem(str(path), number, "signal without id or type; skipped", "warning"))
            continue
        rows.append(row)
    return rows


def read_delayed(path: Path, owner: str, now: int, skipped: list[Problem]) -> list[tuple]:
    if not path.exists():
        return []
    try:
        parsed = read_json_file(path)
    except (OSError, JsonError):
        skipped.append(Problem(str(path), None, "not valid JSON; delayed signals skipped", "warning"))
        return []
    events = parsed.get("events") if isinstance(parsed, dict) else None
    if not isinstance(events, list):
        skipped.append(Problem(str(path), None, "no `events` array; delayed signals skipped", "warning"))
        return []
    rows = []
    for index, event in enumerate(events):
        base = _event_row(event, owner, now) if isinstance(event, dict) else None
        if base is None:
            skipped.append(Problem(str(path), None, f"events[{index}] without id or type; skipped", "warning"))
            continue
        event_id, user_id, kind, source, data, created_at = base
        rows.append((event_id, user_id, kind, number_or_now(event.get("deliverAt"), now), source, data,
                     string_or_none(event.get("repeatKey")), created_at, number_or_now(event.get("updatedAt"), now)))
    return rows


def scan_signals(legacy_dir: Path, now: int = 0) -> LegacyScan:
    scan = LegacyScan()
    scan.add("signal events", len(read_events(legacy_dir / "signals" / "events.jsonl", "", now, scan.skipped)))
    scan.add("delayed signals", len(read_delayed(legacy_dir / "signals" / "delayed.json", "", now, scan.skipped)))
    return scan


def import_signals(ctx: MigrationContext) -> None:
    if ctx.legacy_dir is None:
        return
    owner, now = owner_or_fallback(ctx), ctx.now_ms()
    folder = ctx.legacy_dir / "signals"
    ctx.conn.executemany(
        "INSERT OR IGNORE INTO signals_events (id, user_id, type, source, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        read_events(folder / "events.jsonl", owner, now, []),
    )
    ctx.conn.executemany(
        """INSERT OR IGNORE INTO signals_delayed (id, user_id, type, deliver_at, source, data, repeat_key, created_at,
               updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        read_delayed(folder / "delayed.json", owner, now, []),
    )
