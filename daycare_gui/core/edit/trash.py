"""Delete a file or folder of the store by moving it aside, so the user can restore it.

A deleted item goes to ``<data dir>/.daycare-gui-trash/<timestamp>/<relative path>`` (the path relative to
the store folder that held it) with a small manifest (``.trash-manifest.json``) naming the original
location. :func:`restore` moves it back, refusing to overwrite anything that appeared there meanwhile.
Only paths inside the store are accepted, never a store folder itself, the database or the trash.

Qt-free.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.core.edit.copies import PRIVATE_FOLDER

TRASH_NAME = ".daycare-gui-trash"
MANIFEST_NAME = ".trash-manifest.json"


class TrashError(Exception):
    """Refused or failed; the message is for the person deleting or restoring."""


@dataclass(frozen=True)
class TrashEntry:
    folder: Path  # <trash>/<timestamp>
    original: Path  # where the item lived
    stored: Path  # where it is now
    deleted_at: str  # ISO time
    kind: str  # "file" | "folder"


def trash_dir(paths) -> Path:
    return Path(paths.data_dir) / TRASH_NAME


def _store_bases(paths) -> list[Path]:
    bases = [paths.data_dir, paths.root, paths.config_dir, paths.workspace_dir, *paths.users_dirs, *paths.legacy_dirs]
    seen: list[Path] = []
    for base in bases:
        real = Path(os.path.realpath(base))
        if real not in seen:
            seen.append(real)
    return seen


def _protected(paths) -> set[Path]:
    names = [paths.db_path, Path(str(paths.db_path) + "-wal"), Path(str(paths.db_path) + "-shm"), paths.settings_path]
    return {Path(os.path.realpath(p)) for p in names} | set(_store_bases(paths))


def _relative_in_store(paths, real: Path) -> Path:
    """``real`` relative to the store folder holding it (the data dir preferred)."""
    for base in _store_bases(paths):
        if base in real.parents:
            return real.relative_to(base)
    raise TrashError(f"{real} is not inside the Daycare store; refusing to delete it")


def move_to_trash(paths, target: str | os.PathLike, *, now: _dt.datetime | None = None) -> TrashEntry:
    """Move ``target`` (a file or folder inside the store) into the trash; returns how to restore it."""
    target = Path(target)
    if not target.exists() and not target.is_symlink():
        raise TrashError(f"{target} does not exist")
    real = Path(os.path.realpath(target.parent)) / target.name  # the item itself, even if it is a symlink
    if real in _protected(paths):
        raise TrashError(f"{target} is a part of the store that cannot be deleted here")
    trash = Path(os.path.realpath(trash_dir(paths)))
    if real == trash or trash in real.parents:
        raise TrashError(f"{target} is already in the trash")
    relative = _relative_in_store(paths, real)
    stamp = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    folder = trash / stamp
    suffix = 0
    while True:
        try:
            # Its owner's only: an item private through its folder (not its own mode) stays private here.
            folder.mkdir(parents=True, mode=PRIVATE_FOLDER)
            break
        except FileExistsError:
            suffix += 1
            folder = trash / f"{stamp}-{suffix}"
    stored = folder / relative
    stored.parent.mkdir(parents=True, exist_ok=True)
    kind = "folder" if real.is_dir() and not real.is_symlink() else "file"
    deleted_at = (now or _dt.datetime.now()).astimezone().isoformat(timespec="seconds")
    manifest = {
        "original": str(real),
        "relative": str(relative),
        "kind": kind,
        "deleted_at": deleted_at,
        "by": "daycare-gui",
    }
    # The manifest first: if the move fails, an orphan manifest is harmless; a moved item without one is not.
    (folder / MANIFEST_NAME).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    try:
        shutil.move(str(real), str(stored))
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise TrashError(f"cannot move {target} to the trash: {exc}") from exc
    return TrashEntry(folder, real, stored, deleted_at, kind)


def _entry(folder: Path) -> TrashEntry | None:
    try:
        manifest = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        return TrashEntry(
            folder,
            Path(manifest["original"]),
            folder / manifest["relative"],
            str(manifest.get("deleted_at", "")),
            str(manifest.get("kind", "file")),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def list_trash(paths) -> list[TrashEntry]:
    """Restorable entries, newest first."""
    trash = trash_dir(paths)
    if not trash.is_dir():
        return []
    entries = [_entry(folder) for folder in sorted(trash.iterdir(), reverse=True) if folder.is_dir()]
    return [e for e in entries if e is not None and (e.stored.exists() or e.stored.is_symlink())]


def restore(entry: TrashEntry) -> Path:
    """Move the item back where it was; refuses if something exists there now. Returns the restored path."""
    if not (entry.stored.exists() or entry.stored.is_symlink()):
        raise TrashError(f"{entry.stored} is no longer in the trash")
    if entry.original.exists() or entry.original.is_symlink():
        raise TrashError(f"{entry.original} exists again; move it away first, nothing was restored")
    entry.original.parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(entry.stored), str(entry.original))
    shutil.rmtree(entry.folder, ignore_errors=True)
    return entry.original
