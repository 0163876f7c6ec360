"""Legacy (pre-SQLite) agents: ``agents/<id>/descriptor.json``, ``state.json`` and ``history.jsonl``.

History is split into sessions exactly as Daycare's ``20260219_import_files`` migration does (reference §6.1),
so the UI can show what the import made (or would make) of each file. Descriptor, state and history records
stay plain dicts here; typed record parsing lives in ``stores/daycare/records/``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, as_int, as_str, loaded
from daycare_gui.stores.common.files.jsonfile import read_json
from daycare_gui.stores.common.files.jsonl import BadLine, iter_jsonl
from daycare_gui.stores.common.files.read import Root, list_dir, subdirs
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem

LIFECYCLES = ("active", "sleeping", "dead")


@dataclass(frozen=True)
class LegacySession(RecordMixin):
    index: int  # 0-based position; the last one is the agent's active session
    created_at: int | None  # marker ``at`` / first record's ``at`` / state.createdAt for an empty history
    reset_message: str | None
    inference_session_id: str | None  # only the last session gets the state's id
    opened_by: str  # "start", "reset", "implicit" (records before any marker) or "empty" (no records at all)
    marker_line: int | None
    record_count: int
    first_line: int | None
    last_line: int | None
    records: tuple[tuple[int, dict], ...] = ()  # (line, record) — only filled when asked (can be large)


@dataclass(frozen=True)
class LegacyAgent(RecordMixin):
    id: str  # folder name
    folder: str
    type: str | None  # descriptor.type
    descriptor: dict | None
    state: dict | None  # state.json without ``context`` (dropped by the import, and possibly huge)
    has_context: bool
    lifecycle: str
    created_at: int | None
    updated_at: int | None
    inference_session_id: str | None
    history_path: str | None
    history_lines: int
    bad_lines: tuple[int, ...]  # lines the import drops (unparseable/truncated); blank lines excluded
    sessions: tuple[LegacySession, ...]
    tmp_files: tuple[str, ...]  # stray ``*.tmp-<pid>-<ms>`` files from interrupted atomic writes
    importable: bool
    skip_reason: str | None
    aborts_import: str | None = None  # a reason the whole import migration would fail on this agent
    extra_files: tuple[str, ...] = field(default=())


def lifecycle_of(state: dict | None) -> str:
    if not state:
        return "active"
    value = state.get("state")
    if value in LIFECYCLES:
        return value
    return "sleeping" if state.get("sleeping") is True else "active"


class _SessionBuilder:
    """Accumulates one session while the history streams by."""

    def __init__(self, index, created_at, reset_message, opened_by, marker_line, keep):
        self.index, self.created_at, self.reset_message = index, created_at, reset_message
        self.opened_by, self.marker_line, self.keep = opened_by, marker_line, keep
        self.count, self.first, self.last = 0, None, None
        self.records: list[tuple[int, dict]] = []

    def add(self, line_no: int, record: dict) -> None:
        self.count += 1
        self.first = self.first or line_no
        self.last = line_no
        if self.keep:
            self.records.append((line_no, record))

    def build(self, inference: str | None) -> LegacySession:
        return LegacySession(
            self.index,
            self.created_at,
            self.reset_message,
            inference,
            self.opened_by,
            self.marker_line,
            self.count,
            self.first,
            self.last,
            tuple(self.records),
        )


def split_sessions(
    history: Path | None,
    state: dict | None,
    problems: list[Problem],
    *,
    root: Root = None,
    with_records: bool = False,
) -> tuple[tuple[LegacySession, ...], int, tuple[int, ...], str | None]:
    """(sessions, lines, bad line numbers, abort reason) for one history file, streamed once."""
    builders: list[_SessionBuilder] = []
    lines = 0
    bad: list[int] = []
    abort: str | None = None
    if history is not None:
        for line_no, value in iter_jsonl(history, problems, root=root, include_bad=True):
            lines = line_no
            if isinstance(value, BadLine):
                if value.reason != "blank":
                    bad.append(line_no)
                continue
            kind = value.get("type")
            at = as_int(value.get("at"))
            if kind in ("start", "reset"):
                message = as_str(value.get("message")) if kind == "reset" else None
                builders.append(_SessionBuilder(len(builders), at, message, kind, line_no, with_records))
                continue
            if at is None and abort is None:
                abort = f"record on line {line_no} has no numeric 'at'; Daycare's import aborts on it"
                problems.append(Problem(str(history), line_no, abort))
            if not builders:
                builders.append(_SessionBuilder(0, at, None, "implicit", None, with_records))
            builders[-1].add(line_no, value)
    inference = as_str(state.get("inferenceSessionId")) if state else None
    if not builders:
        created = as_int(state.get("createdAt")) if state else None
        return (
            (LegacySession(0, created, None, inference, "empty", None, 0, None, None),),
            lines,
            tuple(bad),
            abort,
        )
    sessions = tuple(b.build(inference if i == len(builders) - 1 else None) for i, b in enumerate(builders))
    return sessions, lines, tuple(bad), abort


def read_legacy_agent(
    folder: Path, *, root: Root = None, with_records: bool = False
) -> tuple[LegacyAgent, list[Problem]]:
    problems: list[Problem] = []
    reasons: list[str] = []
    descriptor, more = read_json(folder / "descriptor.json", root=root, expect=dict)
    problems.extend(more)
    if descriptor is None:
        reasons.append("descriptor.json missing or invalid")
    state, more = read_json(folder / "state.json", root=root, expect=dict)
    problems.extend(more)
    if state is None:
        reasons.append("state.json missing or invalid")
    abort = None
    if descriptor is not None and not isinstance(descriptor.get("type"), str):
        abort = "descriptor has no type; Daycare's import migration aborts on it"
        problems.append(Problem(str(folder / "descriptor.json"), None, abort))

    entries, more = list_dir(folder, root=root)
    problems.extend(more)
    tmp = tuple(str(e.path) for e in entries if ".tmp-" in e.name)
    for t in tmp:
        problems.append(Problem(t, None, "stray temporary file from an interrupted write", "warning"))
    known = {"descriptor.json", "state.json", "history.jsonl"}
    extra_files = tuple(e.name for e in entries if e.name not in known and ".tmp-" not in e.name)

    history = folder / "history.jsonl"
    history_path = history if os.path.lexists(history) else None
    sessions, lines, bad, history_abort = split_sessions(
        history_path, state, problems, root=root, with_records=with_records
    )
    abort = abort or history_abort
    shown_state = {k: v for k, v in state.items() if k != "context"} if state else None
    agent = LegacyAgent(
        id=folder.name,
        folder=str(folder),
        type=as_str(descriptor.get("type")) if descriptor else None,
        descriptor=descriptor,
        state=shown_state,
        has_context=bool(state and "context" in state),
        lifecycle=lifecycle_of(state),
        created_at=as_int(state.get("createdAt")) if state else None,
        updated_at=as_int(state.get("updatedAt")) if state else None,
        inference_session_id=as_str(state.get("inferenceSessionId")) if state else None,
        history_path=str(history_path) if history_path else None,
        history_lines=lines,
        bad_lines=bad,
        sessions=sessions,
        tmp_files=tmp,
        importable=not reasons,
        skip_reason="; ".join(reasons) or None,
        aborts_import=abort,
        extra_files=extra_files,
    )
    if reasons:
        problems.append(
            Problem(str(folder), None, f"Daycare's import skips this agent: {agent.skip_reason}", "warning")
        )
    return agent, problems


def read_legacy_agents(paths: DaycarePaths, *, with_records: bool = False) -> Loaded[LegacyAgent]:
    """Every ``agents/<id>/`` folder under the data dir and the legacy dirs (deduplicated)."""
    items: list[LegacyAgent] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for base in (paths.agents_dir.parent, *paths.legacy_dirs):
        agents_dir = base / "agents"
        real = os.path.realpath(agents_dir)
        if real in seen or not os.path.lexists(agents_dir):
            continue
        seen.add(real)
        dirs, more = subdirs(agents_dir, root=paths)
        problems.extend(more)
        for entry in dirs:
            agent, more = read_legacy_agent(entry.path, root=paths, with_records=with_records)
            problems.extend(more)
            items.append(agent)
    return loaded(items, problems)


def iter_history(
    path: str | os.PathLike, problems: list[Problem] | None = None, *, root: Root = None
) -> Iterator[tuple[int, dict]]:
    """Stream one legacy history file's records (markers included) for paging in the UI."""
    yield from iter_jsonl(path, problems, root=root)
