"""What the bot's own reader (Python's ``json``) makes of its JSON files where our tolerant readers differ.

* A leading UTF-8 byte-order mark: our readers skip it, but the bot's ``json.load`` of the text raises
  ("Unexpected UTF-8 BOM"), so the scheduler fails on every poll and a JsonStore starts empty.
* A key written twice in one object: the bot keeps only the last, our splicing editor would change the
  first.

Both are listed as problems, and an edit or repair of such a file is refused with these words.

* NaN, Infinity and -Infinity: not JSON, but Python's ``json`` reads them as numbers (and its ``dump``
  writes them back), so the bot uses such a file as usual. We read it as the bot does, show the values as
  the file spells them (Python would print ``nan`` and ``inf``), and list the file as one that only
  Python's reader accepts; edits splice around those values and leave their bytes as they are.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from daycare_gui.stores.cianaparrot import json_splice
from daycare_gui.stores.cianaparrot.json_splice import RepeatedKey
from daycare_gui.stores.common.json_repeats import repeated_keys
from daycare_gui.stores.common.regular_files import open_regular, read_regular

LAST_WINS = "the bot reads only the last one"
BOM = b"\xef\xbb\xbf"
BOM_REASON = "starts with a byte-order mark, which the bot cannot read (Python's json rejects it)"
REMOVE_BOM = "remove the mark (the file's first 3 bytes, often an editor's \"UTF-8 with BOM\") by hand"


def starts_with_bom(path: Path | None) -> bool:
    try:
        with open_regular(path) as fh:
            return fh.read(len(BOM)) == BOM
    except (OSError, TypeError):
        return False


def bom_refusal(name: str) -> str:
    return f"{name} {BOM_REASON}; nothing was written. First {REMOVE_BOM}"


def file_text(path: Path | None) -> str | None:
    """The file as the bot's json would see its characters (None when missing or not UTF-8)."""
    try:
        return read_regular(path).decode("utf-8-sig") if path is not None else None
    except (OSError, UnicodeDecodeError):
        return None  # the readers report an unreadable file


def _quoted(keys: list[str]) -> str:
    return ", ".join(json.dumps(k) for k in keys)


def as_text(value: Any) -> str:
    """``str(value)``, but NaN and the infinities as the file spells them (``NaN``, not Python's ``nan``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)
    return str(value)


def spelled(value: Any) -> str:
    """A value quoted in a problem: a string as ``repr`` quotes it, anything else as the file spells it
    (``null``, ``true``, ``NaN``, ``[1]``; Python would say None, True, nan)."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # (not a value read from JSON, or nested too deep)
        return repr(value)


def json_safe(value: Any) -> Any:
    """``value`` for strict JSON output (``inspect --json``): NaN and the infinities as their spelling."""
    return as_text(value) if isinstance(value, float) and not math.isfinite(value) else value


def same_values(a: Any, b: Any) -> bool:
    """``a == b`` for values read from JSON, except that NaN equals NaN: in Python ``nan != nan``, which
    would call a file holding NaN "changed since it was read" at every save."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def task_id(task: dict) -> str:
    """A task's id as listed and matched (the bot's ids are 8 characters of a uuid4)."""
    return as_text(task.get("id", ""))


PYTHON_ONLY = ("NaN", "Infinity", "-Infinity")


def python_only_values(text: str | None) -> list[tuple[str, int]]:
    """(spelling, line) of each NaN, Infinity and -Infinity in ``text``, in file order (not numbers such
    as 1e400, which are JSON even though Python reads them as infinite). Empty for text that is not JSON
    even to Python (other checks say so)."""
    if not text or not any(word in text for word in ("NaN", "Infinity")):
        return []
    try:
        root = json_splice.parse(text)
    except json_splice.SpliceError:
        return []
    found, stack = [], [root]
    while stack:  # iterative: a deep file must not exhaust the recursion limit here
        node = stack.pop()
        stack.extend(node.items)
        stack.extend(child for _key, _at, child in node.members)
        if node.kind == "scalar" and text[node.start:node.end] in PYTHON_ONLY:
            found.append((node.start, text[node.start:node.end]))
    return [(word, text.count("\n", 0, start) + 1) for start, word in sorted(found)]


def python_only_problem(name: str, found: list[tuple[str, int]]) -> str:
    words = list(dict.fromkeys(word for word, _line in found))
    listed = " and ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} and {words[-1]}"
    what = "a value" if len(found) == 1 else f"{len(found)} values"
    return (f"{name} holds {listed}, {what} only Python's JSON reader accepts: the bot reads "
            f"{'it as a number' if len(found) == 1 else 'them as numbers'}, but other JSON tools reject the file")


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
            out.setdefault(task_id(tasks[index]), []).extend(keys)
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


def state_repeat_problems(repeats: dict[tuple, list[str]], name: str) -> list[str]:
    """The problems of a JsonStore file of per-user states (``cc_user_states.json``) writing a key twice:
    a user id at the top, or a key inside one user's state."""
    out = []
    for path, keys in sorted(repeats.items(), key=lambda item: (len(item[0]), [str(p) for p in item[0]])):
        if not path:
            where = name
        elif len(path) == 1:
            where = f"the state of user {path[0]} in {name}"
        else:
            where = f"{'/'.join(map(str, path))} in {name}"
        out.append(object_repeat_problem(keys, where))
    return out
