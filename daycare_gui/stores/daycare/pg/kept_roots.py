"""Which folders a Daycare PGlite store's answers come from, for the fingerprint a repeated command checks
(:mod:`daycare_gui.stores.common.tree_fingerprint`) before it answers from what it kept.

Reading a PGlite store costs a copy of its folder and a Node process (:mod:`.open`); telling whether it
changed costs a stat of each file. What feeds ``search`` and ``inspect``: the ``.pglite`` folder (PGlite
writes into ``base/``, ``pg_wal/``, ``global/``, ``pg_xact/`` … as Daycare runs), and the files Daycare keeps
beside it (settings.json, auth.json, agents' and users' folders, skills, an old daycare.db whose history
was never imported), and the user's ``~/.agents/skills`` that the documents include. Nothing here reads a
file's content: paths come from :func:`~daycare_gui.stores.daycare.paths.resolve_paths` as every open does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class PgliteTarget:
    paths: object  # DaycarePaths, with pglite_path the real folder
    store: str  # the .pglite folder's real path: what the kept answers are keyed by
    roots: tuple[Path, ...]  # what the fingerprint covers, none inside another


def pglite_target(path) -> PgliteTarget | None:
    """The PGlite store ``path`` names (its root, data dir, settings.json or the ``.pglite`` folder), as
    ``DaycareKind.open`` would find it; None for anything else (a server, the SQLite generation, no store)."""
    from daycare_gui.stores.daycare.detect import detect
    from daycare_gui.stores.daycare.paths import NotADaycareDirectory, resolve_paths
    from daycare_gui.stores.daycare.pg import open as pg

    text = os.fspath(path)
    if pg.is_server_url(text):
        return None
    given = Path(text).expanduser()
    try:
        if pg.is_pglite_folder(given):
            paths = pg.paths_for_pglite_folder(given.resolve())
        else:
            paths = resolve_paths(given)
            if pg.settings_url(paths) or detect(paths).generation != "pglite":
                return None
    except (NotADaycareDirectory, OSError, ValueError):
        return None
    store = os.path.realpath(paths.pglite_path)
    return PgliteTarget(paths, store, _outermost(_fed_by(paths)))


def _fed_by(paths) -> list[Path]:
    out = [paths.pglite_path, paths.root, paths.config_dir, paths.data_dir, paths.settings_path, paths.db_path,
           paths.agents_dir, *paths.users_dirs, paths.auth_path, paths.workspace_dir, paths.plugins_dir,
           *paths.legacy_dirs, Path.home() / ".agents" / "skills"]
    return [Path(os.path.realpath(p)) for p in out]


def _outermost(found: list[Path]) -> tuple[Path, ...]:
    """Each folder once, and none that lies inside another of them (its files are counted there)."""
    unique = sorted(set(found), key=lambda p: (len(p.parts), str(p)))
    kept: list[Path] = []
    for p in unique:
        if not any(p == k or k in p.parents for k in kept):
            kept.append(p)
    return tuple(sorted(kept))
