"""Create new task, app and skill files from the templates, in the folders Daycare reads, never overwriting.

- cron task: ``<legacy dir>/cron/<id>/TASK.md`` (the folder name becomes the task's row id on import);
- heartbeat task: ``<legacy dir>/heartbeat/<slug>.md``;
- app: ``<apps dir>/<id>/APP.md`` + ``PERMISSIONS.md`` (the workspace's ``apps`` or a user's);
- skill: ``<skills dir>/<id>/SKILL.md``.

Daycare reads task files only until its import migration has run (never on PGlite); after that it
ignores a new one, so creating one is the owner's explicit choice: callers ask
:meth:`~daycare_gui.stores.daycare.sqlite.store.Store.task_files_ignored` first (this application cannot create rows).

A new folder is created with ``mkdir`` (fails if it exists) and files through ``save_atomic`` with
``expected_sha256=None`` (fails if the file exists), so an existing item is never replaced.
Qt-free.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from daycare_gui.stores.common.edit.atomic import ConflictError, save_atomic
from daycare_gui.stores.common.edit.errors import InvalidValue

from . import templates

_SLUG_DROP = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """``"Water the plants!"`` → ``"water-the-plants"``; refuses text with nothing usable in it."""
    slug = _SLUG_DROP.sub("-", text.strip().lower()).strip("-")
    if not slug:
        raise InvalidValue(f"{text!r} gives no usable file name; use letters or digits")
    return slug[:64]


def _new_folder(parent: Path, name: str) -> Path:
    if "/" in name or "\\" in name or name in (".", "..") or not name.strip():
        raise InvalidValue(f"{name!r} is not a usable folder name")
    parent.mkdir(parents=True, exist_ok=True)
    folder = parent / name
    try:
        folder.mkdir()
    except FileExistsError as exc:
        raise FileExistsError(f"{folder} already exists; choose another name") from exc
    return folder


def _write_new(path: Path, data: bytes) -> Path:
    try:
        save_atomic(path, data, expected_sha256=None)
    except ConflictError as exc:
        raise FileExistsError(f"{path} already exists; choose another name") from exc
    return path


def create_cron_task(paths, name: str, schedule: str = "0 9 * * *", *, folder_id: str | None = None, **fields) -> Path:
    """Returns the new TASK.md."""
    data = templates.new_cron_task(name, schedule, **fields)  # validates before anything is created
    folder = _new_folder(Path(paths.legacy_dir) / "cron", folder_id or slugify(name))
    try:
        return _write_new(folder / "TASK.md", data)
    except BaseException:
        os.rmdir(folder)
        raise


def create_heartbeat(paths, title: str, body: str | None = None) -> Path:
    data = templates.new_heartbeat(title, body) if body else templates.new_heartbeat(title)
    directory = Path(paths.legacy_dir) / "heartbeat"
    directory.mkdir(parents=True, exist_ok=True)
    return _write_new(directory / f"{slugify(title)}.md", data)


def create_app(apps_dir: str | os.PathLike, name: str, title: str, description: str, **fields) -> Path:
    """Returns the new app folder (holding APP.md and PERMISSIONS.md)."""
    files = templates.new_app(name, title, description, **fields)
    folder = _new_folder(Path(apps_dir), slugify(name))
    for file_name, data in files.items():
        _write_new(folder / file_name, data)
    return folder


def create_skill(skills_dir: str | os.PathLike, name: str, description: str, **fields) -> Path:
    """Returns the new SKILL.md."""
    data = templates.new_skill(name, description, **fields)
    folder = _new_folder(Path(skills_dir), slugify(name))
    try:
        return _write_new(folder / "SKILL.md", data)
    except BaseException:
        os.rmdir(folder)
        raise
