"""One cheap pass over every file-based collection of a Daycare store.

:func:`scan_files` never writes, streams JSONL files (counting records without keeping them), and keeps only
small per-file records. Large contents (history records, channel messages, signal events, home folders)
are read later, on demand, with the ``iter_*``/``list_*`` functions of the modules named in each docstring.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.files.base import Loaded, plain
from daycare_gui.stores.common.files.jsonl import summarize_jsonl
from daycare_gui.stores.daycare.files.apps import read_apps
from daycare_gui.stores.daycare.files.config_files import read_auth, read_settings
from daycare_gui.stores.daycare.files.homes import read_knowledge_files, read_user_homes
from daycare_gui.stores.daycare.files.legacy_agents import read_legacy_agents
from daycare_gui.stores.daycare.files.plugins import read_plugins
from daycare_gui.stores.daycare.files.skills import read_skills
from daycare_gui.stores.daycare.files.subsystems import (
    read_channels,
    read_delayed_signals,
    read_expose_endpoints,
    read_processes,
    signal_event_files,
)
from daycare_gui.stores.daycare.files.tasks import read_cron_tasks, read_heartbeat_tasks
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem

COLLECTION_NAMES = (
    "settings",
    "auth_entries",
    "legacy_agents",
    "legacy_sessions",
    "cron_tasks",
    "heartbeat_tasks",
    "channels",
    "channel_messages",
    "signal_events",
    "delayed_signals",
    "expose_endpoints",
    "processes",
    "apps",
    "skills",
    "user_homes",
    "knowledge_files",
    "plugins",
    "memory_entities",
    "database_docs",
    "restart_pending",
)


@dataclass(frozen=True)
class FileCollection:
    """One collection: its items and how many records it holds.

    For most collections ``count == len(items)``. For JSONL-backed ones (``channel_messages``,
    ``signal_events``, ``legacy_sessions``) the items are per-file summaries or sessions and ``count`` is
    the number of records, found by streaming.
    """

    name: str
    items: tuple[Any, ...]
    count: int

    def to_dict(self) -> dict:
        return {"name": self.name, "count": self.count, "items": plain(self.items)}


@dataclass(frozen=True)
class FileInventory:
    collections: dict[str, FileCollection]
    problems: tuple[Problem, ...] = field(default=())

    def __getitem__(self, name: str) -> FileCollection:
        return self.collections[name]

    def items(self, name: str) -> tuple[Any, ...]:
        return self.collections[name].items

    def count(self, name: str) -> int:
        return self.collections[name].count

    def counts(self) -> dict[str, int]:
        return {name: c.count for name, c in self.collections.items()}

    def to_dict(self) -> dict:
        return {
            "collections": {name: c.to_dict() for name, c in self.collections.items()},
            "problems": [p.to_dict() for p in self.problems],
        }


def _dedupe(problems: Iterable[Problem]) -> tuple[Problem, ...]:
    # Two readers can meet the same unreadable folder (e.g. a user dir for apps and for skills).
    seen, out = set(), []
    for p in problems:
        key = (p.path, p.line, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return tuple(out)


def scan_files(
    paths: DaycarePaths, *, include_home_skills: bool = False, home: Path | None = None
) -> FileInventory:
    """Every file-based collection of the store at ``paths``, with all problems found on the way."""
    collections: dict[str, FileCollection] = {}
    # paths.problems (settings resolution) belong to whoever resolved the paths; read_settings reports
    # the settings file's own problems here.
    problems: list[Problem] = []

    def put(name: str, result: Loaded, count: int | None = None) -> None:
        items, more = result
        problems.extend(more)
        collections[name] = FileCollection(name, tuple(items), len(items) if count is None else count)

    put("settings", read_settings(paths))
    put("auth_entries", read_auth(paths))
    agents = read_legacy_agents(paths)
    put("legacy_agents", agents)
    sessions = tuple(s for a in agents.items for s in a.sessions)
    collections["legacy_sessions"] = FileCollection("legacy_sessions", sessions, len(sessions))
    put("cron_tasks", read_cron_tasks(paths))
    put("heartbeat_tasks", read_heartbeat_tasks(paths))
    channels = read_channels(paths)
    put("channels", channels)
    histories = tuple(c.history for c in channels.items if c.history is not None)
    collections["channel_messages"] = FileCollection(
        "channel_messages", histories, sum(h.records for h in histories)
    )
    event_summaries = tuple(summarize_jsonl(f, problems, root=paths) for f in signal_event_files(paths))
    collections["signal_events"] = FileCollection(
        "signal_events", event_summaries, sum(s.records for s in event_summaries)
    )
    put("delayed_signals", read_delayed_signals(paths))
    put("expose_endpoints", read_expose_endpoints(paths))
    put("processes", read_processes(paths))
    put("apps", read_apps(paths))
    put("skills", read_skills(paths, include_home_skills=include_home_skills, home=home))
    put("user_homes", read_user_homes(paths))
    put("knowledge_files", read_knowledge_files(paths))
    plugins = read_plugins(paths)
    problems.extend(plugins.problems)
    for name, items in (
        ("plugins", plugins.folders),
        ("memory_entities", plugins.memory_entities),
        ("database_docs", plugins.database_docs),
        ("restart_pending", plugins.restart_pending),
    ):
        collections[name] = FileCollection(name, tuple(items), len(items))
    return FileInventory(collections, _dedupe(problems))
