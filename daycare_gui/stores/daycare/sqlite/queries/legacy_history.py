"""A legacy (pre-SQLite) session as a conversation, read from ``agents/<id>/history.jsonl``.

Legacy sessions are the stretches of a history file between ``start``/``reset`` markers, split exactly
as Daycare's import does (:mod:`daycare_gui.stores.daycare.files.legacy_agents`). Records get their file line as
id, so the conversation view and its "raw JSON" links work as for database sessions. The file is
streamed and only the session's last ``limit`` records are kept.
"""

from __future__ import annotations

import bisect
import json
import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.daycare.files.legacy_agents import LegacySession, iter_history, read_legacy_agent
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.daycare.records.agents import parse_descriptor
from daycare_gui.stores.daycare.records.history import LEGACY_MARKERS, history_record_from
from daycare_gui.stores.daycare.sqlite.queries.history_pages import (
    PARTNER_SPAN,
    ConversationWindow,
    pair_partners,
)
from daycare_gui.stores.problems import Problem

SHOWN_RECORDS = 2000


@dataclass
class LegacyConversation:
    agent_id: str
    agent_name: str
    session: LegacySession | None
    session_count: int
    window: ConversationWindow
    total_records: int
    raw_by_line: dict[int, dict] = field(default_factory=dict)  # for the raw JSON view
    problems: list[Problem] = field(default_factory=list)

    @property
    def shown(self) -> int:
        return len(self.window.records)


def legacy_agent_folder(paths: DaycarePaths, agent_id: str) -> Path | None:
    for base in (paths.agents_dir.parent, *paths.legacy_dirs):
        folder = base / "agents" / agent_id
        if os.path.isdir(folder):
            return folder
    return None


def legacy_conversation(paths: DaycarePaths, agent_id: str, session_index: int, *,
                        limit: int = SHOWN_RECORDS) -> LegacyConversation:
    folder = legacy_agent_folder(paths, agent_id)
    session_id = f"{agent_id}#{session_index + 1}"
    empty = ConversationWindow(session_id, None, [])
    if folder is None:
        return LegacyConversation(agent_id, agent_id, None, 0, empty, 0,
                                  problems=[Problem(str(paths.agents_dir / agent_id), None, "no such legacy agent")])
    agent, problems = read_legacy_agent(folder, root=paths)
    descriptor = parse_descriptor(json.dumps(agent.descriptor)) if agent.descriptor else None
    name = descriptor.display_name if descriptor else agent.id
    if not (0 <= session_index < len(agent.sessions)):
        return LegacyConversation(agent_id, name, None, len(agent.sessions), empty, 0, problems=problems)
    session = agent.sessions[session_index]
    kept: deque = deque(maxlen=max(1, limit))
    if agent.history_path and session.first_line is not None:
        for line, obj in iter_history(agent.history_path, root=paths):
            if line < session.first_line:
                continue
            if line > session.last_line:
                break
            kind = obj.get("type")
            if not isinstance(kind, str) or kind in LEGACY_MARKERS:
                continue
            kept.append((line, obj))
    raw_by_line = {line: obj for line, obj in kept}
    records = []
    for line, obj in kept:
        at = obj.get("at") if isinstance(obj.get("at"), int) else 0
        data = {k: v for k, v in obj.items() if k not in ("type", "at")}
        records.append(history_record_from(obj["type"], at, data, id=line, session_id=session_id))
    window = ConversationWindow(session_id, None, records, more_before=session.record_count > len(records))
    pair_partners(window, records)
    return LegacyConversation(agent.id, name, session, len(agent.sessions), window, session.record_count,
                              raw_by_line, problems)


def legacy_window(conv: LegacyConversation, focus_id: int | None, *, before: int = 30, after: int = 30,
                  span: int = PARTNER_SPAN) -> ConversationWindow:
    """The records around ``focus_id`` (a history.jsonl line; the end when None) of a session already read,
    paired with their results, steps and rewrites like a database session's window."""
    records = conv.window.records
    if not records:
        return ConversationWindow(conv.window.session_id, focus_id, [])
    at = len(records) - 1 if focus_id is None else bisect.bisect_left([r.id for r in records], focus_id)
    at = min(max(at, 0), len(records) - 1)
    first, last = max(0, at - before), min(len(records), at + after + 1)
    window = ConversationWindow(conv.window.session_id, focus_id, records[first:last],
                                more_before=first > 0 or conv.window.more_before, more_after=last < len(records))
    pair_partners(window, records[max(0, first - span):last + span])
    return window


def legacy_agents_as_records(inventory) -> dict:
    """Legacy agent folders as :class:`~daycare_gui.stores.daycare.sqlite.queries.agents.Agent` records (so the agents
    page shows a legacy store like any other), with their sessions as
    :class:`~daycare_gui.stores.daycare.sqlite.queries.sessions.Session` records keyed by agent id."""
    from daycare_gui.stores.daycare.records.agents import parse_stats, parse_tokens, permissions_from_obj
    from daycare_gui.stores.daycare.records.json_values import Unparsed
    from daycare_gui.stores.daycare.sqlite.queries.agents import Agent
    from daycare_gui.stores.daycare.sqlite.queries.sessions import Session

    agents: dict = {}
    sessions: dict = {}
    for legacy in inventory.items("legacy_agents"):
        state = legacy.state or {}
        descriptor = (parse_descriptor(json.dumps(legacy.descriptor)) if legacy.descriptor is not None
                      else Unparsed(None, legacy.skip_reason or "descriptor.json missing"))
        permissions = state.get("permissions")
        agents[legacy.id] = Agent(
            id=legacy.id, user_id=None, type=legacy.type or "?", descriptor=descriptor,
            active_session_id=f"{legacy.id}#{len(legacy.sessions)}" if legacy.sessions else None,
            permissions=(permissions_from_obj(permissions) if isinstance(permissions, dict)
                         else Unparsed(None, "no permissions in state.json")),
            tokens=parse_tokens(json.dumps(state.get("tokens"))) if "tokens" in state else None,
            stats=parse_stats(json.dumps(state.get("stats") or {})),
            lifecycle=legacy.lifecycle, created_at=legacy.created_at, updated_at=legacy.updated_at,
            raw={"folder": legacy.folder, "descriptor": legacy.descriptor, "state": legacy.state},
        )
        sessions[legacy.id] = [
            Session(id=f"{legacy.id}#{s.index + 1}", agent_id=legacy.id, inference_session_id=s.inference_session_id,
                    created_at=s.created_at, reset_message=s.reset_message, ended_at=None, invalidated_at=None,
                    processed_until=None, record_count=s.record_count, is_active=s.index == len(legacy.sessions) - 1,
                    raw={"legacy_index": s.index, "opened_by": s.opened_by, "first_line": s.first_line,
                         "last_line": s.last_line, "history": legacy.history_path})
            for s in legacy.sessions
        ]
    return {"agents": agents, "sessions": sessions}
