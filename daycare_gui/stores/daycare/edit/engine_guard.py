"""Is Daycare's engine running on the store a file belongs to? Every file write asks this first.

A running engine reads settings.json, skills, apps and their granted permissions, and writes some of them
itself (settings through its own commands, an app's state.json when it grants a permission), so a change
made beside it may be overwritten by its next write, or not seen until it restarts. Writing then is the
owner's call: the command line refuses without ``--force``, the window asks once before each write.

The store of a file is found from the file itself (the ``daycare-gui edit`` command knows nothing else):
every folder above it that holds what Daycare keeps in its root (``settings.json``, ``engine.pid``, the
socket, the database) is resolved as a store, and so is Daycare's default root when it contains the file;
the window passes the paths of the store it opened as well. Qt-free; reads only.
"""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.daycare.engine import engine_status
from daycare_gui.stores.daycare.paths import (
    DB_NAME,
    SETTINGS_NAME,
    DaycarePaths,
    NotADaycareDirectory,
    default_root,
    resolve_paths,
)

# What marks a folder as a Daycare root, config dir or data dir (any one is enough).
_MARKERS = (SETTINGS_NAME, "engine.pid", "daycare.sock", DB_NAME, "daycare.pglite")

RISK = "it may overwrite or miss this change"


def stores_around(file: Path) -> list[DaycarePaths]:
    """The Daycare stores ``file`` (an absolute path, as named) is inside: folders above it with a store's
    marker, and the default data directory when it holds the file. Innermost first."""
    found: list[DaycarePaths] = []
    for folder in file.parents:
        if any(os.path.lexists(folder / marker) for marker in _MARKERS):
            try:
                found.append(resolve_paths(folder))
            except (NotADaycareDirectory, OSError):
                continue
    try:
        root = default_root()
        if root.is_dir():
            paths = resolve_paths(root)
            if paths.contains(file):
                found.append(paths)
    except (NotADaycareDirectory, OSError):
        pass
    return found


def store_folders(file: str | os.PathLike, paths: DaycarePaths | None = None) -> list[Path] | None:
    """The folders a write to ``file`` must stay in: those of the store the window opened (``paths``) and
    of every store found around ``file`` as it is named (links not followed: a link's own place is what
    makes it the store's). None when the file belongs to no store (a loose file: no such limit)."""
    stores = ([paths] if paths is not None else []) + stores_around(Path(os.path.abspath(file)))
    if not stores:
        return None
    folders: list[Path] = []
    for s in stores:
        folders += [s.root, s.config_dir, s.data_dir, s.workspace_dir, *s.users_dirs, *s.legacy_dirs]
    return folders


def engine_running_reason(*, file: str | os.PathLike | None = None, paths: DaycarePaths | None = None) -> str | None:
    """Why writing now is risky — ``"Daycare's engine is running (process 42 from …/engine.pid is alive); it
    may overwrite or miss this change"`` — or None when no engine runs on the store of ``file`` / ``paths``."""
    candidates: list[DaycarePaths] = [paths] if paths is not None else []
    if file is not None:
        candidates += stores_around(Path(os.path.abspath(file)))
    seen: set[tuple[Path, Path]] = set()
    for candidate in candidates:
        key = (candidate.pid_path, candidate.socket_path)
        if key in seen:
            continue
        seen.add(key)
        status = engine_status(candidate)
        if status.running:
            return f"Daycare's engine is running ({status.detail}); {RISK}"
    return None
