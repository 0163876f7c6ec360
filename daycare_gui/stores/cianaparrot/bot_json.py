"""What the bot's own reader (Python's ``json``) makes of its JSON files where our tolerant readers differ.

* A leading UTF-8 byte-order mark: our readers skip it, but the bot's ``json.load`` of the text raises
  ("Unexpected UTF-8 BOM"), so the scheduler fails on every poll and a JsonStore starts empty.
* A key written twice in one object: the bot keeps only the last, our splicing editor would change the
  first.

Both are listed as problems, and an edit or repair of such a file is refused with these words.
"""

from __future__ import annotations

import json
from pathlib import Path

from daycare_gui.stores.cianaparrot.json_splice import RepeatedKey
from daycare_gui.stores.common.json_repeats import repeated_keys

LAST_WINS = "the bot reads only the last one"
BOM = b"\xef\xbb\xbf"
BOM_REASON = "starts with a byte-order mark, which the bot cannot read (Python's json rejects it)"
REMOVE_BOM = "remove the mark (the file's first 3 bytes, often an editor's \"UTF-8 with BOM\") by hand"


def starts_with_bom(path: Path | None) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(BOM)) == BOM
    except (OSError, TypeError):
        return False


def bom_refusal(name: str) -> str:
    return f"{name} {BOM_REASON}; nothing was written. First {REMOVE_BOM}"


def file_text(path: Path | None) -> str | None:
    """The file as the bot's json would see its characters (None when missing or not UTF-8)."""
    try:
        return path.read_bytes().decode("utf-8-sig") if path is not None else None
    except (OSError, UnicodeDecodeError):
        return None  # the readers report an unreadable file


def _quoted(keys: list[str]) -> str:
    return ", ".join(json.dumps(k) for k in keys)


def task_repeats(text: str | None) -> dict[str, list[str]]:
    """Task id → the keys written more than once in that task (the top level of the list only)."""
    if text is None:
        return {}
    found = {path[0]: keys for path, keys in repeated_keys(text).items() if len(path) == 1}
    if not found:
        return {}
    try:
        tasks = json.loads(text)
    except ValueError:
        return {}
    out: dict[str, list[str]] = {}
    for index, keys in found.items():
        if isinstance(tasks, list) and isinstance(tasks[index], dict):
            out.setdefault(str(tasks[index].get("id", "")), []).extend(keys)
    return out


def repeats_in_file(path: Path | None) -> dict[tuple, list[str]]:
    text = file_text(path)
    return repeated_keys(text) if text is not None else {}


def task_repeat_problem(keys: list[str]) -> str:
    return f"{_quoted(keys)} written more than once in this task: {LAST_WINS}, and an edit of it is refused"


def repeat_refusal(where: str, exc: RepeatedKey) -> str:
    return (f"{where} has {json.dumps(exc.key)} {exc.count} times and {LAST_WINS}, so the change cannot tell "
            "which one to make; nothing was written. Remove the extra one by hand first")


def object_repeat_problem(keys: list[str], what: str) -> str:
    return f"{_quoted(keys)} written more than once in {what}: {LAST_WINS}"
