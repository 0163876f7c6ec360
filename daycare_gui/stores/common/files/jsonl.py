"""Lazy JSONL reading: one line at a time, so a large history never sits in memory.

Daycare appended these files without locking, so half-written last lines and garbage lines exist in the
wild. Its importers skip them silently; we yield the good records and report every skipped line with its
number and raw text so the user can see what Daycare dropped.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daycare_gui.stores.common.files import read as _read
from daycare_gui.stores.common.files.jsonfile import _reject_constant
from daycare_gui.stores.problems import Problem, ProblemLog

RAW_PREVIEW = 120  # characters of a bad line quoted in its Problem message


@dataclass(frozen=True)
class BadLine:
    """A line that did not yield a record; ``raw`` is its full text, kept for display."""

    line_no: int
    raw: str
    reason: str  # "blank", "unparseable", "truncated", "not an object", "not UTF-8"


def _report(problems, problem: Problem) -> None:
    if problems is None:
        return
    if isinstance(problems, ProblemLog):
        problems.extend([problem])
    else:
        problems.append(problem)


def _preview(raw: str) -> str:
    return raw if len(raw) <= RAW_PREVIEW else raw[:RAW_PREVIEW] + "…"


def iter_jsonl(
    path: str | os.PathLike,
    problems: list[Problem] | ProblemLog | None = None,
    *,
    root: _read.Root = None,
    include_bad: bool = False,
    objects_only: bool = True,
) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_no, value)`` for each parseable line (1-based numbers).

    Each blank, unparseable or truncated line (a last line without newline that does not parse) adds a
    Problem to ``problems``; with ``include_bad`` it is also yielded as ``(line_no, BadLine)``. With
    ``objects_only`` (the default: every Daycare JSONL line is an object) a non-object value is bad too.
    A missing file yields nothing; a refused or unreadable file yields nothing and adds a Problem.
    """
    p = Path(path)
    early: list[Problem] = []
    if not os.path.lexists(p) or not _read.check_inside(p, root, early):
        for problem in early:
            _report(problems, problem)
        return
    try:
        fh = _read.open_binary(p)
    except FileNotFoundError:
        return
    except OSError as exc:
        _report(
            problems, Problem(str(p), None, f"cannot read file: {exc.strerror or exc.__class__.__name__}")
        )
        return
    where = str(p)
    with fh:
        line_no = 0
        while True:
            try:
                chunk = fh.readline()
            except OSError as exc:
                _report(problems, Problem(where, line_no + 1, f"cannot read further: {exc.strerror or exc}"))
                return
            if not chunk:
                return
            line_no += 1
            complete = chunk.endswith(b"\n")
            if line_no == 1 and chunk.startswith(b"\xef\xbb\xbf"):
                chunk = chunk[3:]
            try:
                raw = chunk.decode("utf-8")
            except UnicodeDecodeError as exc:
                raw = chunk.decode("utf-8", errors="replace")
                _report(
                    problems,
                    Problem(where, line_no, f"not UTF-8 (byte {exc.start} of the line); line skipped"),
                )
                if include_bad:
                    yield line_no, BadLine(line_no, raw.rstrip("\r\n"), "not UTF-8")
                continue
            raw = raw.rstrip("\r\n")
            if not raw.strip():
                _report(problems, Problem(where, line_no, "blank line ignored", "warning"))
                if include_bad:
                    yield line_no, BadLine(line_no, raw, "blank")
                continue
            try:
                value = json.loads(raw, parse_constant=_reject_constant)
            except (ValueError, RecursionError) as exc:
                reason = "unparseable" if complete else "truncated"
                msg = getattr(exc, "msg", str(exc))
                if complete:
                    text = f"not JSON ({msg}); line skipped: {_preview(raw)!r}"
                else:
                    text = f"truncated line (last line has no newline and does not parse); skipped: {_preview(raw)!r}"
                _report(problems, Problem(where, line_no, text))
                if include_bad:
                    yield line_no, BadLine(line_no, raw, reason)
                continue
            if objects_only and not isinstance(value, dict):
                _report(
                    problems,
                    Problem(where, line_no, f"expected a JSON object; line skipped: {_preview(raw)!r}"),
                )
                if include_bad:
                    yield line_no, BadLine(line_no, raw, "not an object")
                continue
            yield line_no, value


@dataclass(frozen=True)
class JsonlSummary:
    """What a JSONL file holds, found by streaming it once (no record is kept)."""

    path: str
    lines: int
    records: int
    bad_lines: tuple[int, ...]  # line numbers Daycare's importer would skip (blank lines excluded)
    blank_lines: int
    size: int | None

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "lines": self.lines,
            "records": self.records,
            "bad_lines": list(self.bad_lines),
            "blank_lines": self.blank_lines,
            "size": self.size,
        }


def summarize_jsonl(
    path: str | os.PathLike, problems: list[Problem] | ProblemLog | None = None, *, root: _read.Root = None
) -> JsonlSummary:
    records = blank = lines = 0
    bad: list[int] = []
    for line_no, value in iter_jsonl(path, problems, root=root, include_bad=True):
        lines = line_no
        if isinstance(value, BadLine):
            if value.reason == "blank":
                blank += 1
            else:
                bad.append(line_no)
        else:
            records += 1
    size, _ = _read.file_info(path)
    return JsonlSummary(str(path), lines, records, tuple(bad), blank, size)
