"""Daycare's folders as Files roots, for every generation: each user's home (``users/<uid>/home``, where
agents keep their knowledge files), each user's databases (``users/<uid>/databases/<dbId>``, each a PGlite
folder the window can open as a store of its own) and the legacy knowledge files of the data directory.

Only these folders are browsed: nothing else of the data directory (settings, auth, secrets) is a root,
and ``secrets.json`` is never listed wherever it lies.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from daycare_gui.stores.common.folder_files import FolderFiles, FolderRoot
from daycare_gui.stores.daycare.datadir.reading import subfolders
from daycare_gui.stores.daycare.datadir.skills import user_label
from daycare_gui.stores.records import FileRoot

KNOWLEDGE_FILES = ("SOUL.md", "USER.md", "AGENTS.md", "TOOLS.md", "MEMORY.md")  # Daycare's agents read these
KNOWLEDGE_NOTE = "knowledge file: agents read it"
HIDDEN = frozenset({"secrets.json", "auth.json"})


def _database(_rel: str, path: Path) -> str | None:
    return str(path)  # each folder of databases/ is a PGlite data folder


def daycare_roots(paths, names: Callable[[], dict[str, str]] | None = None) -> list[FolderRoot]:
    """``paths``: DaycarePaths; ``names``: user id → display name (read once, when the roots are made)."""
    shown = names() if names is not None else {}
    notes = dict.fromkeys(KNOWLEDGE_FILES, KNOWLEDGE_NOTE)
    homes: list[FolderRoot] = []
    seen: set[str] = set()
    for users_dir in paths.users_dirs:
        for user in subfolders(users_dir):
            uid = user_label(user)
            if uid in seen:
                continue
            seen.add(uid)
            who = shown.get(uid)
            label = f"{who} — {uid}" if who else uid
            homes.append(FolderRoot(FileRoot(f"home:{uid}", label, who or uid, user / "home",
                                             "Home folder: expand it to list its contents."),
                                    user / "home", HIDDEN, notes))
            if (user / "databases").is_dir():
                homes.append(FolderRoot(FileRoot(f"databases:{uid}", f"{label} · databases", who or uid,
                                                 user / "databases",
                                                 "Each folder is a PGlite database: Open it as a store."),
                                        user / "databases", HIDDEN, opens_as=_database))
    homes.sort(key=lambda r: r.root.title.casefold())
    data_dir = paths.data_dir
    if any((data_dir / n).is_file() for n in KNOWLEDGE_FILES):
        homes.append(FolderRoot(FileRoot("knowledge", "Data dir knowledge files (legacy, shared)", "", data_dir,
                                         "Knowledge files every agent read before homes existed."),
                                data_dir, HIDDEN, notes, only=KNOWLEDGE_FILES))
    return homes


def daycare_files(paths, names: Callable[[], dict[str, str]] | None = None) -> FolderFiles:
    return FolderFiles(lambda: daycare_roots(paths, names))
