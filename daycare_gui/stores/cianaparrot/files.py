"""CianaParrot's JSON files and session logs, read without trusting them.

``JsonStore`` files (counters, Claude Code states) and ``scheduled_tasks.json`` are rewritten in place by
the bot, so a crash can leave them truncated: each reader returns what it could read plus problems, and
says what the bot will do with an unreadable file (JsonStore starts empty and later overwrites it; the
scheduler fails on every poll).
"""

from __future__ import annotations

import datetime as dt
import heapq
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daycare_gui.stores.cianaparrot.bot_json import (
    BOM_REASON,
    REMOVE_BOM,
    file_text,
    python_only_problem,
    python_only_values,
    starts_with_bom,
)
from daycare_gui.stores.cianaparrot.scheduler import STALLS, judge, named
from daycare_gui.stores.common.files.jsonfile import read_json, type_name
from daycare_gui.stores.common.files.jsonl import BadLine, iter_jsonl
from daycare_gui.stores.problems import ProblemLog

SCHEDULER_FAILS = "the scheduler fails on every poll until it is fixed"
THREAD_RE = re.compile(r"^(?P<base>.+)_s(?P<n>\d+)$")


def split_thread(thread_id: str) -> tuple[str, int]:
    """``telegram_123_s3`` → (``telegram_123``, 3); ``telegram_123`` → (``telegram_123``, 0) — as the bot
    parses it (the last ``_s`` followed only by digits)."""
    base, sep, tail = thread_id.rpartition("_s")
    if sep and tail.isdigit():
        return base, int(tail)
    return thread_id, 0


def iso_ms(value: Any) -> int | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:  # the bot treats naive times as UTC
        when = when.replace(tzinfo=dt.timezone.utc)
    return int(when.timestamp() * 1000)


def _bom_problem(path: Path, problems: ProblemLog, consequence: str) -> None:
    # Our reader skips the mark and shows the content; the bot cannot read the file at all.
    if starts_with_bom(path):
        problems.add(path, f"{path.name} {BOM_REASON} — {consequence}; {REMOVE_BOM}")


def _python_only_problem(path: Path, problems: ProblemLog) -> None:
    # Read (as the bot reads it) and shown; said because any other JSON tool would refuse the file.
    if found := python_only_values(file_text(path)):
        problems.add(path, python_only_problem(path.name, found), found[0][1], severity="warning")


def read_object(path: Path | None, problems: ProblemLog, what: str, consequence: str) -> dict | None:
    """A JSON object file; None when missing or broken (with a problem that says what the bot will do)."""
    if path is None or not path.exists():
        return None
    _bom_problem(path, problems, consequence)
    value, found = read_json(path, expect=dict, python_constants=True)  # as the bot's json reads it
    for p in found:
        problems.add(p.path, f"{p.message} — {consequence}", p.line, p.severity)
    if value is not None:
        _python_only_problem(path, problems)
    return value


# -- session logs --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogFile:
    thread_id: str
    origin: str  # "workspace/sessions" or "data/sessions"
    path: Path


def find_logs(session_dirs: list[tuple[str, Path]]) -> dict[str, list[LogFile]]:
    """thread id → its log files, the current folder first."""
    out: dict[str, list[LogFile]] = {}
    for origin, folder in session_dirs:
        try:
            entries = sorted(folder.glob("*.jsonl"))
        except OSError:
            continue
        for path in entries:
            if path.is_file():
                out.setdefault(path.stem, []).append(LogFile(path.stem, origin, path))
    return out


@dataclass(frozen=True)
class LogEntry:
    origin: str
    path: Path
    line: int
    value: dict | None  # None for a bad line
    bad: BadLine | None = None

    @property
    def at(self) -> int | None:
        return iso_ms(self.value.get("ts")) if self.value else None


def _entries(log: LogFile, problems: ProblemLog | None) -> Iterator[LogEntry]:
    for line_no, value in iter_jsonl(log.path, problems, include_bad=True):
        if isinstance(value, BadLine):
            if value.reason != "blank":
                yield LogEntry(log.origin, log.path, line_no, None, value)
        else:
            yield LogEntry(log.origin, log.path, line_no, value)


def merged_entries(logs: list[LogFile], problems: ProblemLog | None = None) -> Iterator[LogEntry]:
    """Entries of a thread's logs in time order, streamed (each file is appended in time order; a line
    without a time keeps its place after the previous one of its file)."""
    streams = []
    for order, log in enumerate(logs):
        last = [0]

        def keyed(log=log, order=order, last=last):
            for entry in _entries(log, problems):
                at = entry.at
                if at is not None:
                    last[0] = at
                yield (last[0], order, entry.line), entry

        streams.append(keyed())
    for _key, entry in heapq.merge(*streams, key=lambda pair: pair[0]):
        yield entry


# -- scheduled tasks -----------------------------------------------------------------------------------


def read_tasks(path: Path | None, problems: ProblemLog) -> list[dict] | None:
    if path is None or not path.exists():
        return None
    _bom_problem(path, problems, SCHEDULER_FAILS)
    value, found = read_json(path, expect=list, python_constants=True)  # as the bot's json reads it
    for p in found:
        problems.add(p.path, f"{p.message} — {SCHEDULER_FAILS}", p.line)
    if value is None:
        return None
    _python_only_problem(path, problems)
    out = []
    for i, task in enumerate(value):
        if not isinstance(task, dict):  # the bot's task.get raises AttributeError out of its poll
            problems.add(path, f"task #{i + 1} is not an object ({type_name(task)}): {STALLS}; it is not listed")
            continue
        # Said here as well as on the task: it stops every task, not only this one
        if (verdict := judge(task)).stalls:
            problems.add(path, f"{named(task, i)}: {verdict.problem}")
        out.append(task)
    return out


def task_state(task: dict) -> str:
    if task.get("active", True):
        return "active"
    return "done" if task.get("type") == "once" and task.get("last_run") else "cancelled"
