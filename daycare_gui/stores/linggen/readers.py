"""Reading Linggen's small files (JSON, YAML, Markdown) without ever raising on bad input.

Linggen writes every JSON and YAML file with a plain truncate-and-write, so an interrupted write leaves a
truncated file that Linggen itself skips with only a log line. Here every such file becomes a problem with
its path and line, and the caller gets ``None`` and goes on. A JSON file starting with a byte-order mark is
one Linggen cannot read either (:mod:`.byte_order_mark`), though it parses here: :func:`read_json` gives its
value for display together with that reason.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import yaml

from daycare_gui.stores.common import json_brackets as brackets
from daycare_gui.stores.common.files.jsonfile import parse_json
from daycare_gui.stores.common.files.yaml_guard import too_deep
from daycare_gui.stores.common.processes import process_exists
from daycare_gui.stores.common.regular_files import open_regular, read_regular
from daycare_gui.stores.common.wording import count
from daycare_gui.stores.linggen.byte_order_mark import BOM, JSON_UNREAD, REMOVE_BOM
from daycare_gui.stores.problems import ProblemLog

# Files this kind reads whole are small (metadata, Markdown); a bigger one is reported, not loaded.
MAX_SMALL_FILE = 8 * 1024 * 1024


class _YamlLoader(yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader):
    """Safe YAML (plain values only) whose timestamps stay strings, so every value is JSON-like."""


_YamlLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def read_bytes(path: Path, problems: ProblemLog, *, limit: int = MAX_SMALL_FILE) -> bytes | None:
    """The file's bytes, or None (missing: silently; unreadable or too large: a problem)."""
    try:
        size = path.stat().st_size
        if size > limit:
            problems.add(path, f"file is {size:,} bytes; larger than {limit:,}, not read")
            return None
        with open_regular(path) as handle:
            return handle.read()
    except FileNotFoundError:
        return None
    except OSError as exc:
        problems.add(path, f"cannot read file: {exc.strerror or type(exc).__name__}")
        return None


def decode(data: bytes, path: Path, problems: ProblemLog) -> str:
    """UTF-8 text (a BOM dropped: callers for whose files Linggen rejects it check the bytes first);
    invalid bytes become U+FFFD and a problem names the line."""
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        problems.add(path, f"not UTF-8 (byte {exc.start}); undecodable bytes shown as \ufffd", line=line)
        return data.decode("utf-8", errors="replace")


def read_text(path: Path, problems: ProblemLog) -> str | None:
    data = read_bytes(path, problems)
    return None if data is None else decode(data, path, problems)


@dataclass(frozen=True)
class JsonRead:
    """A JSON file as read here, and whether Linggen can read it too."""

    value: Any = None  # what it holds, for display (None: nothing parses)
    unread: str | None = None  # why Linggen cannot read it although it parses here (a byte-order mark)

    @property
    def usable(self) -> Any:
        """The value as Linggen sees it: None when Linggen cannot read the file."""
        return None if self.unread else self.value


def load_json(path: Path, problems: ProblemLog, *, expect: type | None = dict, what: str = "",
              bad: Counter | None = None) -> Any:
    """A parsed JSON file or None (also for a file Linggen cannot read: see :func:`read_json`)."""
    return read_json(path, problems, expect=expect, what=what, bad=bad).usable


def read_json(path: Path, problems: ProblemLog, *, expect: type | None = dict, what: str = "",
              bad: Counter | None = None) -> JsonRead:
    """A JSON file read for display. An interrupted write (the text stops mid-value) is called truncated.
    A leading byte-order mark is a problem (Linggen's serde_json rejects it) but the value behind it is
    still given, so the user sees what the file holds and why Linggen ignores it.

    ``bad`` (the store's tally of broken files) gets ``"json"`` counted once for a file that is there but
    that Linggen cannot read. Every JSON read passes it, so no file the kind reads is left out of the count."""
    data = read_bytes(path, problems)
    if data is None:
        if bad is not None and path.exists():  # there, but unreadable or too large
            bad["json"] += 1
        return JsonRead()
    if not data.startswith(BOM):
        return JsonRead(parse_json_text(decode(data, path, problems), path, problems, expect=expect, what=what,
                                        bad=bad))
    problems.add(path, f"{JSON_UNREAD}{f'; {what}' if what else ''}; {REMOVE_BOM}", line=1)
    if bad is not None:
        bad["json"] += 1
    value = parse_json_text(decode(data, path, problems), path, problems, expect=expect, what=what)
    return JsonRead(value, JSON_UNREAD)


def parse_json_text(text: str, path: Path, problems: ProblemLog, *, expect: type | None = dict,
                    what: str = "", bad: Counter | None = None) -> Any:
    value = _parse_json_text(text, path, problems, expect, f"; {what}" if what else "")
    if value is None and bad is not None:
        bad["json"] += 1
    return value


def _parse_json_text(text: str, path: Path, problems: ProblemLog, expect: type | None, suffix: str) -> Any:
    if not text.strip():
        problems.add(path, f"empty file (expected JSON){suffix}")
        return None
    value, problem = parse_json(text, path)
    if problem is not None:
        kind = "truncated JSON (the file ends mid-value)" if _truncated(text) else problem.message
        problems.add(path, f"{kind}{suffix}", line=problem.line)
        return None
    if expect is not None and not isinstance(value, expect):
        problems.add(path, f"expected a JSON {'object' if expect is dict else expect.__name__}, "
                           f"found {type(value).__name__}{suffix}")
        return None
    return plain(value)


def _truncated(text: str) -> bool:
    """The text stops mid-value (an interrupted write) rather than being wrong somewhere inside."""
    if not _ends_early(text):
        return False
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string")
    except (ValueError, RecursionError):
        return False
    return False


def _ends_early(text: str) -> bool:
    """True when the JSON text stops before its brackets close (the mark of an interrupted write)."""
    scanned = brackets.scan(text)
    return scanned.in_string or scanned.open_at_end > 0


def load_yaml(path: Path, problems: ProblemLog, *, bad: Counter | None = None) -> dict | None:
    """A YAML mapping or None; a parse error is a problem with the file line (truncated when at the end).
    ``bad["yaml"]`` counts a file that is there but gives no mapping (as ``load_json``)."""
    text = read_text(path, problems)
    value = None if text is None else parse_yaml_text(text, path, problems)
    if value is None and bad is not None and path.exists():
        bad["yaml"] += 1
    return value


def parse_yaml_text(text: str, path: Path, problems: ProblemLog) -> dict | None:
    if not text.strip():
        problems.add(path, "empty file (expected YAML)")
        return None
    if reason := too_deep(text):  # libyaml would take minutes, then crash the process
        problems.add(path, f"YAML {reason}")
        return None
    try:
        value = yaml.load(text, Loader=_YamlLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark is not None else None
        what = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        truncated = "end of stream" in str(what) or (line is not None and line >= text.count("\n") + 1)
        prefix = "truncated YAML" if truncated else "not valid YAML"
        problems.add(path, f"{prefix}: {what}", line=line)
        return None
    except (ValueError, TypeError, RecursionError) as exc:  # odd input to a constructor
        problems.add(path, f"YAML could not be read: {exc}")
        return None
    if not isinstance(value, dict):
        problems.add(path, f"expected a YAML mapping, found {type(value).__name__}")
        return None
    return plain(value)


# -- plain values ----------------------------------------------------------------------------------------

MAX_DEPTH = 64
MAX_NODES = 20_000
CUT = "…"


def plain(value: Any, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> Any:
    """A JSON-like copy that stays small: YAML aliases can make a value refer to itself or repeat a
    part exponentially ("billion laughs"), and JSON can nest deeply; beyond the limits a part is cut to
    "…" instead of recursing without end."""
    budget = [max_nodes]

    def walk(v: Any, depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0 or depth > max_depth:
            return CUT
        if v is None or isinstance(v, (str, bool, int, float)):
            return v
        if isinstance(v, dict):
            return {str(k): walk(x, depth + 1) for k, x in v.items()}
        if isinstance(v, (list, tuple, set, frozenset)):
            return [walk(x, depth + 1) for x in v]
        if isinstance(v, bytes):
            return f"<{count(len(v), 'byte')}>"
        return str(v)

    return walk(value, 0)


# -- small conversions ---------------------------------------------------------------------------------


def seconds_to_ms(value: Any) -> int | None:
    """Linggen stores Unix seconds; a value that already looks like milliseconds is kept."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if value < 0 or value > 1e14:
        return None
    return int(value if value > 1e11 else value * 1000)


def local_time(ms: int | None) -> str:
    if ms is None:
        return ""
    try:
        return datetime.fromtimestamp(ms / 1000).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return ""


def duration_text(seconds: float | None) -> str:
    if seconds is None or seconds < 0:
        return ""
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds}s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m {secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h {minutes:02d}m"


def text_of(value: Any) -> str:
    return value if isinstance(value, str) else ("" if value is None else str(value))


def first_line(text: str, limit: int = 120) -> str:
    for line in text.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return ""


# -- the daemon ----------------------------------------------------------------------------------------

_PID = re.compile(r"^\s*(\d+)\s*$")


def pid_status(pid_path: Path) -> tuple[int | None, bool, str]:
    """(pid, alive, detail) for ``ling.pid``. Nothing is written; a stale file is only reported."""
    try:
        text = read_regular(pid_path)[:64].decode("ascii", errors="replace")
    except FileNotFoundError:
        return None, False, "no ling.pid"
    except OSError as exc:
        return None, False, f"ling.pid cannot be read ({exc.strerror or exc})"
    match = _PID.match(text)
    if not match:
        return None, False, "ling.pid holds no process id"
    pid = int(match.group(1))
    exists = process_exists(pid)
    if exists:
        return pid, True, f"process {pid} from ling.pid is alive"
    if exists is None:  # 0 names no single process (a damaged file); on Windows nothing can be asked
        return pid, False, f"ling.pid names process {pid}, which cannot be checked here"
    return pid, False, f"stale ling.pid (process {pid} is gone)"


def list_dirs(path: Path, problems: ProblemLog) -> list[Path]:
    """Sub-folders sorted by name (symlinked folders included); an unreadable folder is a problem."""
    return [p for p in _entries(path, problems) if _is_dir(p)]


def list_files(path: Path, problems: ProblemLog, suffix: str = "") -> list[Path]:
    return [p for p in _entries(path, problems) if p.name.endswith(suffix) and _is_file(p)]


def _entries(path: Path, problems: ProblemLog) -> list[Path]:
    try:
        with os.scandir(path) as it:
            names = sorted(e.name for e in it)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        problems.add(path, f"cannot list folder: {exc.strerror or type(exc).__name__}")
        return []
    return [path / n for n in names if not n.startswith(".")]


def _is_dir(p: Path) -> bool:
    try:
        return p.is_dir()
    except OSError:
        return False


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except OSError:
        return False
