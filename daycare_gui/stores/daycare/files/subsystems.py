"""Legacy subsystem files: channels, signals, expose endpoints and durable processes (reference §5, §6.4).

They live in every legacy dir (the folder holding the DB first, which is the one Daycare imports). JSONL
files are only summarised (streamed and counted) here; :func:`iter_channel_messages` and
:func:`iter_signal_events` page through them on demand.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.files.base import (
    Loaded,
    RecordMixin,
    as_int,
    as_str,
    loaded,
    nonblank,
    split_known,
)
from daycare_gui.stores.common.files.jsonfile import read_json, type_name
from daycare_gui.stores.common.files.jsonl import JsonlSummary, iter_jsonl, summarize_jsonl
from daycare_gui.stores.common.files.read import Root, file_info, list_dir
from daycare_gui.stores.daycare.files.legacy_dirs import legacy_folders, legacy_subfolders
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.masking import mask_secrets
from daycare_gui.stores.problems import Problem

# --- channels ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChannelMember(RecordMixin):
    agent_id: str | None
    username: str | None
    joined_at: int | None
    raw: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Channel(RecordMixin):
    folder: str
    path: str  # channel.json
    id: str | None
    name: str | None
    leader: str | None
    members: tuple[ChannelMember, ...]
    created_at: int | None
    updated_at: int | None
    history: JsonlSummary | None  # history.jsonl, streamed and counted
    next_to_db: bool
    importable: bool
    skip_reason: str | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ChannelMessage(RecordMixin):
    line: int
    id: str | None
    channel_name: str | None
    sender_username: str | None
    text: str | None
    mentions: tuple[str, ...]
    created_at: int | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def read_channels(paths: DaycarePaths) -> Loaded[Channel]:
    items: list[Channel] = []
    problems: list[Problem] = []
    for folder, next_to_db in legacy_subfolders(paths, "channels", problems):
        channel, more = read_channel(folder, root=paths, next_to_db=next_to_db)
        problems.extend(more)
        if channel is not None:
            items.append(channel)
    return loaded(items, problems)


def read_channel(
    folder: Path, *, root: Root = None, next_to_db: bool = True
) -> tuple[Channel | None, list[Problem]]:
    path = folder / "channel.json"
    data, problems = read_json(path, root=root, expect=dict)
    history_path = folder / "history.jsonl"
    history = summarize_jsonl(history_path, problems, root=root) if os.path.lexists(history_path) else None
    if data is None:
        if not os.path.lexists(path):
            problems.append(
                Problem(str(folder), None, "channel folder without channel.json; Daycare skips it", "warning")
            )
        data = {}
    members = []
    for m in data.get("members") if isinstance(data.get("members"), list) else []:
        if isinstance(m, dict):
            members.append(
                ChannelMember(
                    as_str(m.get("agentId")), as_str(m.get("username")), as_int(m.get("joinedAt")), m
                )
            )
    missing = [k for k in ("id", "name", "leader") if not nonblank(data.get(k))]
    reason = f"missing {', '.join(missing)}" if missing else None
    if reason and data:
        problems.append(Problem(str(path), None, f"Daycare's import skips this channel: {reason}", "warning"))
    channel = Channel(
        folder=str(folder),
        path=str(path),
        id=as_str(data.get("id")),
        name=as_str(data.get("name")),
        leader=as_str(data.get("leader")),
        members=tuple(members),
        created_at=as_int(data.get("createdAt")),
        updated_at=as_int(data.get("updatedAt")),
        history=history,
        next_to_db=next_to_db,
        importable=reason is None,
        skip_reason=reason,
        raw=data,
        extra=split_known(data, {"id", "name", "leader", "members", "createdAt", "updatedAt"}),
    )
    return channel, problems


def iter_channel_messages(
    path: str | os.PathLike, problems: list[Problem] | None = None, *, root: Root = None
) -> Iterator[ChannelMessage]:
    for line, obj in iter_jsonl(path, problems, root=root):
        mentions = obj.get("mentions") if isinstance(obj.get("mentions"), list) else []
        yield ChannelMessage(
            line,
            as_str(obj.get("id")),
            as_str(obj.get("channelName")),
            as_str(obj.get("senderUsername")),
            as_str(obj.get("text")),
            tuple(m for m in mentions if isinstance(m, str)),
            as_int(obj.get("createdAt")),
            obj,
            split_known(obj, {"id", "channelName", "senderUsername", "text", "mentions", "createdAt"}),
        )


# --- signals ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SignalEvent(RecordMixin):
    line: int
    id: str | None
    type: str | None
    source: dict | None
    user_id: str | None  # source.userId as written (may name a user that does not exist)
    data: object
    created_at: int | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


@dataclass(frozen=True)
class DelayedSignal(RecordMixin):
    path: str
    index: int
    id: str | None
    type: str | None
    deliver_at: int | None
    source: dict | None
    data: object
    repeat_key: str | None
    created_at: int | None
    updated_at: int | None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def signal_event_files(paths: DaycarePaths) -> list[Path]:
    return [
        f / "events.jsonl" for f, _ in legacy_folders(paths, "signals") if os.path.lexists(f / "events.jsonl")
    ]


def iter_signal_events(
    path: str | os.PathLike, problems: list[Problem] | None = None, *, root: Root = None
) -> Iterator[SignalEvent]:
    for line, obj in iter_jsonl(path, problems, root=root):
        source = obj.get("source") if isinstance(obj.get("source"), dict) else None
        yield SignalEvent(
            line,
            as_str(obj.get("id")),
            as_str(obj.get("type")),
            source,
            as_str(source.get("userId")) if source else None,
            obj.get("data"),
            as_int(obj.get("createdAt")),
            obj,
            split_known(obj, {"id", "type", "source", "data", "createdAt"}),
        )


def read_delayed_signals(paths: DaycarePaths) -> Loaded[DelayedSignal]:
    items: list[DelayedSignal] = []
    problems: list[Problem] = []
    for folder, _ in legacy_folders(paths, "signals"):
        path = folder / "delayed.json"
        data, more = read_json(path, root=paths, expect=dict)
        problems.extend(more)
        if data is None:
            continue
        if data.get("version") != 1:
            problems.append(
                Problem(str(path), None, f"version is {data.get('version')!r}, expected 1", "warning")
            )
        events = data.get("events")
        if not isinstance(events, list):
            problems.append(Problem(str(path), None, f"'events' is {type_name(events)}, expected an array"))
            continue
        for i, ev in enumerate(events):
            if not isinstance(ev, dict):
                problems.append(
                    Problem(str(path), None, f"events[{i}] is {type_name(ev)}, expected an object")
                )
                continue
            items.append(
                DelayedSignal(
                    str(path),
                    i,
                    as_str(ev.get("id")),
                    as_str(ev.get("type")),
                    as_int(ev.get("deliverAt")),
                    ev.get("source") if isinstance(ev.get("source"), dict) else None,
                    ev.get("data"),
                    as_str(ev.get("repeatKey")),
                    as_int(ev.get("createdAt")),
                    as_int(ev.get("updatedAt")),
                    ev,
                    split_known(
                        ev,
                        {"id", "type", "deliverAt", "source", "data", "repeatKey", "createdAt", "updatedAt"},
                    ),
                )
            )
    return loaded(items, problems)


# --- expose -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExposeEndpoint(RecordMixin):
    path: str
    id: str | None
    target: dict | None
    provider: str | None
    domain: str | None
    mode: str | None
    auth: dict | None  # masked: passwordHash never leaves the core
    created_at: int | None
    updated_at: int | None
    importable: bool
    skip_reason: str | None
    extra: dict = field(default_factory=dict)


def read_expose_endpoints(paths: DaycarePaths) -> Loaded[ExposeEndpoint]:
    items: list[ExposeEndpoint] = []
    problems: list[Problem] = []
    for folder, _ in legacy_folders(paths, "expose"):
        entries, more = list_dir(folder / "endpoints", root=paths)
        problems.extend(more)
        for e in entries:
            if not (e.is_file and e.name.endswith(".json")):
                continue
            data, more = read_json(e.path, root=paths, expect=dict)
            problems.extend(more)
            if data is None:
                continue
            missing = [k for k in ("id", "provider", "domain", "mode") if not nonblank(data.get(k))]
            if not isinstance(data.get("target"), dict):
                missing.append("target")
            reason = f"missing {', '.join(missing)}" if missing else None
            if reason:
                problems.append(
                    Problem(str(e.path), None, f"Daycare's import skips this endpoint: {reason}", "warning")
                )
            auth = data.get("auth")
            items.append(
                ExposeEndpoint(
                    str(e.path),
                    as_str(data.get("id")),
                    data.get("target") if isinstance(data.get("target"), dict) else None,
                    as_str(data.get("provider")),
                    as_str(data.get("domain")),
                    as_str(data.get("mode")),
                    mask_secrets(auth) if isinstance(auth, dict) else None,
                    as_int(data.get("createdAt")),
                    as_int(data.get("updatedAt")),
                    reason is None,
                    reason,
                    mask_secrets(
                        split_known(
                            data,
                            {"id", "target", "provider", "domain", "mode", "auth", "createdAt", "updatedAt"},
                        )
                    ),
                )
            )
    return loaded(items, problems)


# --- processes --------------------------------------------------------------------------------------

_PROCESS_REQUIRED = ("id", "name", "command", "cwd", "settingsPath", "logPath")


@dataclass(frozen=True)
class ProcessRecord(RecordMixin):
    folder: str
    path: str  # record.json
    version: object
    id: str | None
    name: str | None
    command: str | None
    cwd: str | None
    status: str | None
    desired_state: str | None
    pid: int | None
    keep_alive: bool
    has_sandbox: bool  # sandbox.json present (not imported)
    log_path: str | None  # process.log beside the record, when present (not imported)
    log_size: int | None
    importable: bool
    skip_reason: str | None
    raw: dict = field(default_factory=dict)  # env and other secret-looking values masked


def read_processes(paths: DaycarePaths) -> Loaded[ProcessRecord]:
    items: list[ProcessRecord] = []
    problems: list[Problem] = []
    # Processes live in dataDir (seed) but are imported from the DB folder: legacy_dirs holds both.
    for folder, _next_to_db in legacy_subfolders(paths, "processes", problems):
        path = folder / "record.json"
        data, more = read_json(path, root=paths, expect=dict)
        problems.extend(more)
        if data is None:
            if not os.path.lexists(path):
                problems.append(
                    Problem(str(folder), None, "process folder without record.json", "warning")
                )
            data = {}
        reasons = []
        if data and data.get("version") != 2:
            reasons.append(f"version {data.get('version')!r} (only version 2 is imported)")
        missing = [k for k in _PROCESS_REQUIRED if not nonblank(data.get(k))]
        if missing:
            reasons.append(f"missing {', '.join(missing)}")
        reason = "; ".join(reasons) or None
        if reason and data:
            problems.append(
                Problem(str(path), None, f"Daycare's import skips this process: {reason}", "warning")
            )
        log = folder / "process.log"
        log_size = file_info(log)[0] if log.is_file() else None
        items.append(
            ProcessRecord(
                str(folder),
                str(path),
                data.get("version"),
                as_str(data.get("id")),
                as_str(data.get("name")),
                as_str(data.get("command")),
                as_str(data.get("cwd")),
                as_str(data.get("status")),
                as_str(data.get("desiredState")),
                as_int(data.get("pid")),
                data.get("keepAlive") is True,
                (folder / "sandbox.json").is_file(),
                str(log) if log.is_file() else None,
                log_size,
                reason is None,
                reason,
                _masked_process(data),
            )
        )
    return loaded(items, problems)


def _masked_process(data: dict) -> dict:
    # Any env value may be a credential (DATABASE_URL, tokens under custom names): mask them all.
    out = mask_secrets(data)
    if isinstance(data.get("env"), dict):
        out["env"] = mask_secrets(data["env"], all_strings=True)
    return out
