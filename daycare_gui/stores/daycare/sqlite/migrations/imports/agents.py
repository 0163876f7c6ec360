"""20260219_import_files: ``agents/<id>/{descriptor,state}.json`` + ``history.jsonl`` → agents, sessions, history."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.wording import count
from daycare_gui.stores.daycare.sqlite.migrations.base import LegacyScan, MigrationContext, MigrationError
from daycare_gui.stores.daycare.sqlite.migrations.legacy import (
    JsonError,
    is_number,
    read_json_file,
    read_json_lines,
    to_json,
)
from daycare_gui.stores.problems import Problem

LIFECYCLES = ("active", "sleeping", "dead")
# The reference (§6.1) gives this reduced object as Daycare's fallback when state.json has no permissions.
DEFAULT_PERMISSIONS = {"workingDir": "/", "writeDirs": []}


@dataclass
class LegacySession:
    created_at: object
    reset_message: object
    inference_session_id: str | None = None
    records: list[tuple[object, object, str]] = field(default_factory=list)  # (type, at, data JSON)


@dataclass
class LegacyAgent:
    id: str
    type: object
    descriptor: str
    permissions: str
    tokens: str | None
    stats: str
    lifecycle: str
    created_at: int | float
    updated_at: int | float
    sessions: list[LegacySession]
    had_context: bool


def js_truthy(value: object) -> bool:
    if isinstance(value, (dict, list)):
        return True
    return bool(value)


def _bindable(value: object, what: str, where: str) -> object:
    # node:sqlite cannot bind objects/arrays either; Daycare's insert throws and the migration aborts.
    if isinstance(value, (dict, list)):
        raise MigrationError(f"{where}: {what} is not a plain value")
    return value


def _read_state(path: Path, now: int) -> dict | None:
    try:
        parsed = read_json_file(path)
    except (OSError, JsonError):
        return None
    if parsed is None:  # `null.inferenceSessionId` throws inside Daycare's try: the agent is skipped
        return None
    if not isinstance(parsed, dict):
        parsed = {}  # other non-objects just have no fields, so every fallback applies
    inference = parsed.get("inferenceSessionId")
    state = parsed.get("state")
    if state not in LIFECYCLES:
        state = "sleeping" if js_truthy(parsed.get("sleeping")) else "active"
    permissions = parsed.get("permissions")
    stats = parsed.get("stats")
    tokens = parsed.get("tokens")
    return {
        "inference": inference if isinstance(inference, str) else None,
        "permissions": to_json(DEFAULT_PERMISSIONS if permissions is None else permissions),
        "tokens": to_json(tokens) if js_truthy(tokens) else None,
        "stats": to_json({} if stats is None else stats),
        "created_at": parsed["createdAt"] if is_number(parsed.get("createdAt")) else now,
        "updated_at": parsed["updatedAt"] if is_number(parsed.get("updatedAt")) else now,
        "lifecycle": state,
        "had_context": "context" in parsed,
    }


def _split_sessions(history_path: Path, state: dict, scan: LegacyScan) -> list[LegacySession]:
    """Each start/reset marker opens a session; records before the first marker get an implicit one."""
    records: list[tuple[int, object]] = []
    if history_path.exists():
        lines = read_json_lines(history_path)
        scan.skipped.extend(lines.skipped)
        records = lines.values
    sessions: list[LegacySession] = []
    for line, record in records:
        where = f"{history_path}:{line}"
        if record is None:
            raise MigrationError(f"{where}: history record is null")
        kind = record.get("type") if isinstance(record, dict) else None
        at = record.get("at") if isinstance(record, dict) else None
        if kind == "start":
            sessions.append(LegacySession(_bindable(at, "marker at", where), None))
            continue
        if kind == "reset":
            sessions.append(LegacySession(_bindable(at, "marker at", where), _bindable(record.get("message"), "message", where)))
            continue
        if kind is None or at is None:
            raise MigrationError(f"{where}: history record without type or at (Daycare's insert fails)")
        if not sessions:
            sessions.append(LegacySession(_bindable(at, "at", where), None))
        data = {k: v for k, v in record.items() if k not in ("type", "at")}
        sessions[-1].records.append((_bindable(kind, "type", where), _bindable(at, "at", where), to_json(data)))
    if not sessions:
        return [LegacySession(state["created_at"], None, state["inference"])]
    sessions[-1].inference_session_id = state["inference"]
    return sessions


def read_agents(agents_dir: Path, now: int, scan: LegacyScan | None = None) -> list[LegacyAgent]:
    scan = scan if scan is not None else LegacyScan()
    agents: list[LegacyAgent] = []
    if not agents_dir.is_dir():
        return agents
    with os.scandir(agents_dir) as it:
        entries = sorted((e for e in it if e.is_dir(follow_symlinks=False)), key=lambda e: e.name)
    for entry in entries:
        base = Path(entry.path)
        try:
            descriptor = read_json_file(base / "descriptor.json")
        except (OSError, JsonError):
            scan.skipped.append(Problem(str(base / "descriptor.json"), None, "missing or not JSON; agent skipped", "warning"))
            continue
        state = _read_state(base / "state.json", now)
        if state is None:
            scan.skipped.append(Problem(str(base / "state.json"), None, "missing or not JSON; agent skipped", "warning"))
            continue
        kind = descriptor.get("type") if isinstance(descriptor, dict) else None
        if kind is None:
            raise MigrationError(f"{base / 'descriptor.json'}: descriptor has no type (agents.type is NOT NULL)")
        sessions = _split_sessions(base / "history.jsonl", state, scan)
        agents.append(
            LegacyAgent(
                id=entry.name,
                type=_bindable(kind, "descriptor type", str(base)),
                descriptor=to_json(descriptor),
                permissions=state["permissions"],
                tokens=state["tokens"],
                stats=state["stats"],
                lifecycle=state["lifecycle"],
                created_at=state["created_at"],
                updated_at=state["updated_at"],
                sessions=sessions,
                had_context=state["had_context"],
            )
        )
    return agents


def scan_agents(legacy_dir: Path, now: int = 0) -> LegacyScan:
    scan = LegacyScan()
    try:
        agents = read_agents(legacy_dir / "agents", now, scan)
    except MigrationError as exc:
        scan.failure = str(exc)
        return scan
    scan.add("agents", len(agents))
    scan.add("sessions", sum(len(a.sessions) for a in agents))
    scan.add("records", sum(len(s.records) for a in agents for s in a.sessions))
    dropped = sum(a.had_context for a in agents)
    if dropped:
        scan.notes.append(f"the saved `context` of {count(dropped, 'agent')} is not imported (Daycare drops it)")
    if scan.counts["agents"]:
        scan.notes.append("only runs if the agents table is empty")
    return scan


def import_files(ctx: MigrationContext) -> None:
    conn = ctx.conn
    if conn.execute("SELECT COUNT(*) FROM agents").fetchone()[0] > 0:
        return
    if ctx.legacy_dir is None:
        return
    for agent in read_agents(ctx.legacy_dir / "agents", ctx.now_ms()):
        conn.execute(
            """INSERT INTO agents (id, type, descriptor, active_session_id, permissions, tokens, stats, lifecycle,
                   created_at, updated_at)
               VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)
               ON CONFLICT(id) DO UPDATE SET type = excluded.type, descriptor = excluded.descriptor,
                   permissions = excluded.permissions, tokens = excluded.tokens, stats = excluded.stats,
                   lifecycle = excluded.lifecycle, updated_at = excluded.updated_at""",
            (agent.id, agent.type, agent.descriptor, agent.permissions, agent.tokens, agent.stats,
             agent.lifecycle, agent.created_at, agent.updated_at),
        )
        session_id = None
        for session in agent.sessions:
            session_id = ctx.ids.cuid2()
            conn.execute(
                "INSERT INTO sessions (id, agent_id, inference_session_id, created_at, reset_message)"
                " VALUES (?, ?, ?, ?, ?)",
                (session_id, agent.id, session.inference_session_id, session.created_at, session.reset_message),
            )
            conn.executemany(
                "INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, ?)",
                [(session_id, kind, at, data) for kind, at, data in session.records],
            )
        conn.execute("UPDATE agents SET active_session_id = ? WHERE id = ?", (session_id, agent.id))
