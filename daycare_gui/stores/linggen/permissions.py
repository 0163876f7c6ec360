"""``<workspace>/.linggen/permissions.json`` (``{"tool_allows": [tool names]}``) as an editable list.

The file lives in each project's repository, not in the home. Linggen reads it when an agent starts in
that project, treats a file it cannot parse as empty, and overwrites it on its next save; so a broken
file is reported and never edited here (fix it as text first). A file starting with a UTF-8 byte-order
mark is such a file: Linggen's reader (Rust's serde_json) rejects the mark, though Python would skip it.
An edit replaces only the text of the ``tool_allows`` value: other keys, their order and the layout stay
as they were.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from daycare_gui.stores.api import WriteConflict, WriteRefused
from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    OutsideStoreError,
    refuse_outside,
    refuse_read_only,
    save_atomic,
)
from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.linggen.byte_order_mark import BOM
from daycare_gui.stores.linggen.jsonsplice import SpliceError, splice_value
from daycare_gui.stores.linggen.readers import parse_json_text
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import Row

KEY = "tool_allows"
_BOM = BOM
_BOM_PROBLEM = ("starts with a UTF-8 byte-order mark, which Linggen cannot parse: it treats the file as empty "
                "(none of its tools is allowed) and overwrites it on its next save")


def permissions_path(workspace: str) -> Path:
    return Path(workspace) / ".linggen" / "permissions.json"


class PermissionFiles:
    """The permission files of the projects this home names whose folder exists on this machine."""

    def __init__(self, workspaces: list[tuple[str, str]], blocked: Callable[[], str | None]) -> None:
        self.workspaces = workspaces  # (project path, note): note says when Linggen ignores the file
        self.blocked = blocked

    def collect_problems(self, problems: ProblemLog, bad: Counter) -> None:
        """Problems of every file, and ``bad["json"]`` counted for each that cannot be read as JSON (the
        store's tally of broken JSON files includes these files outside the home)."""
        for workspace, _note in self.workspaces:
            self._read(permissions_path(workspace), problems, bad)

    def rows(self) -> list[Row]:
        return [self._row(w, note) for w, note in self.workspaces]

    def _read(self, path: Path, problems: ProblemLog, bad: Counter | None = None
              ) -> tuple[bytes | None, list[str] | None, str | None]:
        """(bytes, tools, problem). Missing file: (None, [], None). ``bad`` as in ``readers.load_json``."""
        try:
            data = read_regular(path)
        except FileNotFoundError:
            return None, [], None
        except OSError as exc:
            problems.add(path, f"cannot read file: {exc.strerror or exc}")
            if bad is not None:
                bad["json"] += 1
            return None, None, "cannot read the file"
        if data.startswith(_BOM):
            problems.add(path, f"{_BOM_PROBLEM}; remove the mark (save it as UTF-8 without BOM)")
            if bad is not None:
                bad["json"] += 1
            return data, None, _BOM_PROBLEM
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            problems.add(path, "not UTF-8: Linggen treats the file as empty")
            if bad is not None:
                bad["json"] += 1
            return data, None, "not UTF-8"
        value = parse_json_text(text, path, problems, bad=bad,
                                what="Linggen treats it as empty and overwrites it on its next save")
        if value is None:
            return data, None, "not valid JSON: Linggen treats it as empty and overwrites it on its next save"
        tools = value.get(KEY, [])
        if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
            problems.add(path, f"{KEY} is not a list of tool names")
            return data, None, f"{KEY} is not a list of tool names"
        return data, list(tools), None

    def _row(self, workspace: str, note: str) -> Row:
        path = permissions_path(workspace)
        data, tools, problem = self._read(path, ProblemLog())
        sha = hashlib.sha256(data).hexdigest() if data is not None else None
        shown = ", ".join(tools) if tools else ("(none)" if tools is not None else "")
        return Row(workspace, (workspace, shown, str(path) if data is not None else "(no file yet)"),
                   raw={"path": str(path), "sha256": sha, KEY: tools, "exists": data is not None},
                   flag=note, problem=problem)

    def update(self, row: Row, changes: dict[str, Any], *, force: bool = False) -> Row:
        if set(changes) - {KEY}:
            raise WriteRefused(f"only {KEY} can be changed here")
        tools = _clean(changes.get(KEY))
        raw = row.raw if isinstance(row.raw, dict) else {}
        path = Path(raw.get("path") or permissions_path(row.key))
        try:  # the project's folder is where Linggen reads it; a link leading out of it is not followed
            refuse_outside(path, [row.key])
        except OutsideStoreError as exc:
            raise WriteRefused(str(exc)) from exc
        if not any(w == row.key for w, _ in self.workspaces):
            raise WriteRefused(f"{row.key} is not a project of this store")
        refuse_read_only(path)  # before the running question: no "save anyway" could write it
        reason = self.blocked()
        if reason and not force:
            raise WriteRefused(reason)
        expected = raw.get("sha256")
        try:
            current = read_regular(path)
        except FileNotFoundError:
            current = None
        except OSError as exc:
            raise WriteRefused(f"cannot read {path}: {exc.strerror or exc}") from exc
        now = hashlib.sha256(current).hexdigest() if current is not None else None
        if now != expected:
            raise WriteConflict(f"{path} changed since it was read; nothing was written")
        new = _new_bytes(current, tools, path)
        if new == current:
            return row
        if current is None:
            path.parent.mkdir(exist_ok=True)
        try:
            save_atomic(path, new, expected_sha256=expected)
        except ConflictError as exc:
            raise WriteConflict(str(exc)) from exc
        return self._row(row.key, row.flag)


def _clean(value: Any) -> list[str]:
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise WriteRefused(f"{KEY} must be a list of tool names")
    out: list[str] = []
    for v in value:
        v = v.strip()
        if v and v not in out:
            out.append(v)
    return out


def _new_bytes(current: bytes | None, tools: list[str], path: Path) -> bytes:
    if current is None:  # as Linggen writes it: pretty JSON, two-space indent, no final newline
        return json.dumps({KEY: tools}, indent=2, ensure_ascii=False).encode("utf-8")
    if current.startswith(_BOM):  # kept, the mark would leave the edit unread by Linggen
        raise WriteRefused(f"{path} {_BOM_PROBLEM}; remove the mark as text first; nothing was written")
    try:
        text = current.decode("utf-8")
        before = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WriteRefused(f"{path} is not valid JSON; fix it as text first") from exc
    if not isinstance(before, dict):
        raise WriteRefused(f"{path} is not a JSON object; fix it as text first")
    try:
        spliced = splice_value(text, KEY, tools)
    except SpliceError as exc:
        raise WriteRefused(f"{path} cannot be edited in place ({exc}); fix it as text first") from exc
    after = json.loads(spliced)  # the splice must change exactly that one value
    if after.get(KEY) != tools or {k: v for k, v in after.items() if k != KEY} != \
            {k: v for k, v in before.items() if k != KEY}:
        raise WriteRefused(f"{path} could not be edited safely; nothing was written")
    return spliced.encode("utf-8")


def workspace_exists(path: str) -> bool:
    return bool(path) and os.path.isabs(path) and os.path.isdir(path)
