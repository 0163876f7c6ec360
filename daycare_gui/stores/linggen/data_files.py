"""The folders Linggen 1.7 added to a home: what of them is the user's, and what is Linggen's own.

``activity/`` holds the activity log (``YYYY-MM-DD.jsonl``: one ``{at, by, device?, app, verb, object?,
detail?}`` per line, ``at`` in ISO 8601 UTC) with ``trend.json`` and ``conditions.json`` beside it, and
``memory/backups/store-YYYY-MM-DD.ndjson`` are the daily exports of the memory store: both are the user's
data and are listed, read-only. ``telemetry/`` (a usage digest), ``runtime/`` (the Python runtime and
tool environments Linggen installs), ``installation_id`` and ``.linggen-telemetry`` are Linggen's own:
they are named as such, not read, and are no damage.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.files.jsonl import iter_jsonl
from daycare_gui.stores.common.secrets import mask_secrets, mask_url
from daycare_gui.stores.common.wording import byte_size, count
from daycare_gui.stores.linggen.readers import list_files, read_json, text_of
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import Collection, Row

DATA_FILES = Collection("user_files", "Activity log and memory backups", ("File", "Holds", "Day", "Entries", "Size"),
                        group="Activity")

_DAY = re.compile(r"(\d{4}-\d{2}-\d{2})")
_SHOWN = 200  # activity entries shown in a day's detail
NOT_USER_DATA = (
    ("telemetry", "usage counts Linggen keeps for its telemetry"),
    ("runtime", "the Python runtime and tool environments Linggen installed"),
    ("installation_id", "this installation's telemetry id"),
    (".linggen-telemetry", "Linggen's telemetry setting"),
)


@dataclass(frozen=True)
class DataFile:
    path: Path
    rel: str  # as shown: the path under the home
    holds: str
    day: str


def find_data_files(root: Path, problems: ProblemLog) -> list[DataFile]:
    """The activity log and the memory backups, by name (nothing is read here)."""
    out: list[DataFile] = []
    for path in list_files(root / "activity", problems):
        if path.name.endswith(".jsonl"):
            holds = "activity log of the day"
        elif path.name == "trend.json":
            holds = "activity trend (free and total per day)"
        elif path.name == "conditions.json":
            holds = "conditions (when each topic was last seen)"
        else:
            continue
        out.append(DataFile(path, f"activity/{path.name}", holds, _day(path.name)))
    for path in list_files(root / "memory" / "backups", problems, ".ndjson"):
        out.append(DataFile(path, f"memory/backups/{path.name}", "memory backup (a daily export of the memory "
                                                                 "store)", _day(path.name)))
    return out


def not_user_data(root: Path) -> dict[str, str]:
    """Linggen's own files and folders in this home, each with what it is."""
    return {name + ("/" if (root / name).is_dir() else ""): what for name, what in NOT_USER_DATA
            if (root / name).exists()}


def data_file_rows(files: list[DataFile]) -> list[Row]:
    return [_row(f) for f in files]


def _row(f: DataFile) -> Row:
    problems = ProblemLog()
    markdown = None
    try:
        size = f.path.stat().st_size
    except OSError:
        size = None
    if f.path.suffix in (".jsonl", ".ndjson"):  # streamed: a memory backup may be large
        shown: list = []
        n = 0
        for _line, entry in iter_jsonl(f.path, problems):
            n += 1
            if len(shown) < _SHOWN:
                shown.append(entry)
        if f.path.suffix == ".jsonl":  # what a memory backup holds stays in it: only its size is said
            markdown = _activity_table(shown, n)
    else:
        value = read_json(f.path, problems, expect=None).value
        n = len(value) if isinstance(value, (list, dict)) else 0
    bad = [p for p in problems if p.severity == "error"]
    problem = f"{count(len(bad), 'line')} could not be read (first: {bad[0].message})" if bad else None
    return Row(f.rel, (f.rel, f.holds, f.day, n, byte_size(size)), raw={"path": str(f.path)}, markdown=markdown,
               problem=problem)


def _activity_table(entries: list, total: int) -> str:
    lines = ["| At (UTC) | By | App | Verb | Object | Device |", "|---|---|---|---|---|---|"]
    for e in entries:
        e = mask_secrets(e) if isinstance(e, dict) else {}
        cells = (text_of(e.get(k)) for k in ("at", "by", "app", "verb", "object", "device"))
        lines.append("| " + " | ".join(mask_url(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
    if total > len(entries):
        lines.append(f"\n*The first {len(entries)} of {total} entries.*")
    return "\n".join(lines)


def _day(name: str) -> str:
    match = _DAY.search(name)
    return match.group(1) if match else ""


