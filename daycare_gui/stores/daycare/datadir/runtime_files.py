"""Processes' folders, mini apps' code folders and users' own databases, joined to their rows.

``processes/<id>/sandbox.json`` is shown masked (and every value of the process's environment, as the
``processes`` row holds it, is masked wherever it appears), with the end of ``process.log`` read from the
end of the file. ``users/<uid>/apps/<appId>/<codeVersion>/`` are listed with their file count beside the
``mini_apps`` row; ``users/<uid>/databases/<dbId>/`` (each a PGlite folder) with their size.
"""

from __future__ import annotations

import json
from pathlib import Path

from daycare_gui.stores.common.secrets import MASK, mask_free_text, mask_secrets, mask_tree
from daycare_gui.stores.common.wording import byte_size
from daycare_gui.stores.daycare.datadir.config import Entry
from daycare_gui.stores.daycare.datadir.reading import (
    folder_size,
    read_capped,
    read_tail,
    subfolders,
    text_of,
)
from daycare_gui.stores.daycare.datadir.skills import user_label
from daycare_gui.stores.problems import ProblemLog


def _hide(text: str, values: list[str]) -> str:
    for value in values:
        text = text.replace(value, MASK)
    return mask_free_text(text)


def env_values(env) -> list[str]:
    """Every string of a process environment worth hiding (long first, so a part never shows)."""
    found: list[str] = []

    def walk(v):
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, str) and len(v) >= 4:
            found.append(v)
    walk(env)
    return sorted(set(found), key=len, reverse=True)


def process_entries(data_dir: Path, rows: dict[str, dict], problems: ProblemLog) -> list[Entry]:
    """``rows``: the current ``processes`` rows by id (name, status, env)."""
    out = []
    for folder in subfolders(data_dir / "processes", problems):
        row = rows.get(folder.name, {})
        hidden = env_values(row.get("env"))
        sandbox, backend, mounts = None, "", ""
        data = read_capped(folder / "sandbox.json", folder, problems, 1_000_000)
        if data is not None:
            try:
                sandbox = json.loads(text_of(data))
            except (ValueError, RecursionError):
                problems.add(folder / "sandbox.json", "not valid JSON; not read")
        if isinstance(sandbox, dict):
            sandbox = mask_tree(sandbox)
            for key in ("env", "environment"):
                if sandbox.get(key) is not None:
                    sandbox[key] = mask_secrets({"v": sandbox[key]}, all_strings=True)["v"]
            backend = str(sandbox.get("backend") or "")
            mounts = ", ".join(f"{m.get('mappedPath')}" for m in sandbox.get("mounts") or [] if isinstance(m, dict))
        tail = read_tail(folder / "process.log", folder)
        parts = []
        if sandbox is not None:
            shown = _hide(json.dumps(sandbox, indent=2), hidden)
            parts.append("sandbox.json\n\n```json\n" + shown + "\n```")
            try:
                sandbox = json.loads(shown)
            except ValueError:
                sandbox = shown
        if tail is not None:
            text, cut = tail
            head = "process.log (its end)" if cut else "process.log"
            parts.append(f"{head}\n\n```\n" + _hide(text_of(text), hidden) + "\n```")
        name = mask_free_text(str(row.get("name") or ""))
        values = (folder.name, name, str(row.get("status") or ""), _hide(backend, hidden), _hide(mounts, hidden),
                  "yes" if tail is not None else "no")
        raw = {"id": folder.name, "folder": str(folder), "sandbox": sandbox}
        out.append(Entry(folder.name, values, raw, "\n\n".join(parts) or None,
                         problem=None if row or not rows else "no current processes row has this id"))
    return out


def app_entries(users_dir: Path, apps: dict[tuple[str, str], dict], problems: ProblemLog) -> list[Entry]:
    """``apps``: the current ``mini_apps`` rows by (user id, app id)."""
    out = []
    for user in subfolders(users_dir, problems):
        uid = user_label(user)
        for app in subfolders(user / "apps", problems):
            row = apps.get((uid, app.name), {})
            for version in subfolders(app, problems):
                size = folder_size(version)
                current = str(row.get("code_version")) == version.name if row else False
                files = f"{size.files}" + ("" if size.complete else "+")
                out.append(Entry(f"{uid}/{app.name}/{version.name}",
                                 (uid, app.name, mask_free_text(str(row.get("title") or "")), version.name,
                                  "current" if current else ("older" if row else "no mini_apps row"), files,
                                  str(version)),
                                 {"user": uid, "app": app.name, "code_version": version.name, "files": size.files,
                                  "folder": str(version), "current": current}))
    return out


def database_entries(users_dir: Path, names: dict[tuple[str, str], str], problems: ProblemLog) -> list[Entry]:
    out = []
    for user in subfolders(users_dir, problems):
        uid = user_label(user)
        for db in subfolders(user / "databases", problems):
            size = folder_size(db)
            shown = byte_size(size.bytes) + ("" if size.complete else " or more")
            out.append(Entry(f"{uid}/{db.name}", (uid, db.name, mask_free_text(names.get((uid, db.name), "")),
                                                   size.files, shown, str(db)),
                             {"user": uid, "id": db.name, "files": size.files, "bytes": size.bytes,
                              "folder": str(db)}))
    return out


