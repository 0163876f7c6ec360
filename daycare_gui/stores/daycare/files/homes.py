"""Per-user homes (``<users dir>/<uid>/home/``) and the knowledge files agents read.

Home folders can hold anything (downloads, code), so they are listed lazily and contents are never read
here; only the small knowledge Markdown files are, on demand (:func:`read_knowledge_text`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, loaded
from daycare_gui.stores.common.files.read import Root, check_inside, read_text, subdirs
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem

HOME_FOLDERS = ("desktop", "documents", "developer", "downloads", "knowledge")
KNOWLEDGE_FILES = ("SOUL.md", "USER.md", "AGENTS.md", "TOOLS.md", "MEMORY.md")


@dataclass(frozen=True)
class UserHome(RecordMixin):
    user_id: str
    path: str  # <users dir>/<uid>
    home: str  # .../home
    folders: tuple[str, ...]  # which of HOME_FOLDERS exist
    has_skills: bool
    has_apps: bool


@dataclass(frozen=True)
class KnowledgeFile(RecordMixin):
    user_id: str | None  # None for the legacy global ``<dataDir>/<NAME>.md``
    name: str
    path: str
    size: int | None
    mtime: float | None


def read_user_homes(paths: DaycarePaths) -> Loaded[UserHome]:
    items, problems = [], []
    seen: set[str] = set()
    for users_dir in paths.users_dirs:
        dirs, more = subdirs(users_dir, root=paths)
        problems.extend(more)
        for d in dirs:
            real = os.path.realpath(d.path)
            if real in seen:
                continue
            seen.add(real)
            home = d.path / "home"
            folders = tuple(f for f in HOME_FOLDERS if (home / f).is_dir())
            items.append(
                UserHome(
                    d.name,
                    str(d.path),
                    str(home),
                    folders,
                    (d.path / "skills").is_dir(),
                    (d.path / "apps").is_dir(),
                )
            )
    return loaded(items, problems)


def _stat(path: Path) -> tuple[int | None, float | None]:
    try:
        st = path.stat()
    except OSError:
        return None, None
    return st.st_size, st.st_mtime


def read_knowledge_files(paths: DaycarePaths) -> Loaded[KnowledgeFile]:
    """Knowledge files of every user plus the legacy global ones in the data dir (metadata only)."""
    homes, problems = read_user_homes(paths)
    problems = list(problems)
    items: list[KnowledgeFile] = []
    for h in homes:
        for name in KNOWLEDGE_FILES:
            p = Path(h.home) / "knowledge" / name
            if p.is_file() and check_inside(p, paths, problems):
                items.append(KnowledgeFile(h.user_id, name, str(p), *_stat(p)))
    for name in KNOWLEDGE_FILES:
        p = paths.data_dir / name
        if p.is_file() and check_inside(p, paths, problems):
            items.append(KnowledgeFile(None, name, str(p), *_stat(p)))
    return loaded(items, problems)


def read_knowledge_text(path: str | os.PathLike, *, root: Root = None) -> tuple[str | None, list[Problem]]:
    return read_text(path, root=root)



__all__ = [
    "HOME_FOLDERS",
    "KNOWLEDGE_FILES",
    "UserHome",
    "KnowledgeFile",
    "read_user_homes",
    "read_knowledge_files",
    "read_knowledge_text",
]
