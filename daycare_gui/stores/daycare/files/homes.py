"""Per-user homes (``<users dir>/<uid>/home/``) and the knowledge files agents read.

Home folders can hold anything (downloads, code), so they are listed lazily and contents are never read
here; only the small knowledge Markdown files are, on demand (:func:`read_knowledge_text`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.files import read as _read
from daycare_gui.stores.common.files.base import Loaded, RecordMixin, loaded
from daycare_gui.stores.common.files.read import Root, check_inside, read_text, subdirs
from daycare_gui.stores.common.problems import Problem
from daycare_gui.stores.daycare.paths import DaycarePaths

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


@dataclass(frozen=True)
class HomeEntry(RecordMixin):
    name: str
    path: str
    size: int | None  # None for folders and unreadable entries
    mtime: float | None
    is_dir: bool
    is_symlink: bool


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


def list_home_folder(
    path: str | os.PathLike, problems: list[Problem] | None = None, *, root: Root = None
) -> Iterator[HomeEntry]:
    """Yield the entries of one folder as found (not sorted: sorting would need them all in memory).

    Only ``stat`` is called, never ``open``. Problems (refused or unreadable folder) go to ``problems``.
    """
    p = Path(path)
    sink: list[Problem] = [] if problems is None else problems
    if not os.path.lexists(p) or not check_inside(p, root, sink):
        return
    try:
        it = _read.scandir(p)
    except OSError as exc:
        sink.append(Problem(str(p), None, f"cannot list folder: {exc.strerror or exc.__class__.__name__}"))
        return
    with it:
        for e in it:
            try:
                is_link = e.is_symlink()
                st = e.stat(follow_symlinks=False) if is_link else e.stat()
                is_dir = e.is_dir()
            except OSError:
                yield HomeEntry(e.name, e.path, None, None, False, False)
                continue
            yield HomeEntry(e.name, e.path, None if is_dir else st.st_size, st.st_mtime, is_dir, is_link)


__all__ = [
    "HOME_FOLDERS",
    "KNOWLEDGE_FILES",
    "UserHome",
    "KnowledgeFile",
    "HomeEntry",
    "read_user_homes",
    "read_knowledge_files",
    "read_knowledge_text",
    "list_home_folder",
]
