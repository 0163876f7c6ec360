"""Folders of Daycare's legacy layout (``<legacy dir>/<name>``), next to the database or in the older places."""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.common.files.read import subdirs
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem


def legacy_folders(paths: DaycarePaths, name: str) -> list[tuple[Path, bool]]:
    """``<legacy dir>/<name>`` for every legacy dir, deduplicated by real path; flag = next to the DB."""
    out: list[tuple[Path, bool]] = []
    seen: set[str] = set()
    for i, base in enumerate(paths.legacy_dirs):
        folder = base / name
        if not os.path.lexists(folder):
            continue
        real = os.path.realpath(folder)
        if real in seen:
            continue
        seen.add(real)
        out.append((folder, i == 0))
    return out


def legacy_subfolders(paths: DaycarePaths, name: str, problems: list[Problem]) -> list[tuple[Path, bool]]:
    """Every ``<legacy dir>/<name>/<item>/`` folder (one cron task, channel, process…) with the
    next-to-the-DB flag; folders that cannot be listed are added to ``problems``."""
    out: list[tuple[Path, bool]] = []
    for folder, next_to_db in legacy_folders(paths, name):
        dirs, more = subdirs(folder, root=paths)
        problems.extend(more)
        out.extend((entry.path, next_to_db) for entry in dirs)
    return out
