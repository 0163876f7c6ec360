"""Bounded, link-safe reads of the files beside the store.

A data directory is untrusted input: a SKILL.md may be a pipe, a link out of the folder or a gigabyte of
text. Folders are listed without following links to folders; files are opened only when regular
(:func:`open_regular`), only when they stay inside their folder, and never read past a limit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.folder_files import inside
from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.problems import ProblemLog

TEXT_LIMIT = 2_000_000  # a SKILL.md, SYSTEM.md or settings.json larger than this is not Daycare's own
TAIL_LIMIT = 64_000  # how much of the end of a process.log is shown
WALK_LIMIT = 20_000  # entries one walk visits before it stops (a folder tree someone filled)


def subfolders(folder: Path, problems: ProblemLog | None = None) -> list[Path]:
    """Sub-folders of ``folder`` (sorted; links to folders are not followed, so none leads out)."""
    try:
        with os.scandir(folder) as it:
            entries = [e for e in it if e.is_dir(follow_symlinks=False)]
    except FileNotFoundError:
        return []
    except OSError as exc:
        if problems is not None and not isinstance(exc, NotADirectoryError):
            problems.add(folder, f"cannot list folder: {exc.strerror or exc}")
        return []
    return [Path(e.path) for e in sorted(entries, key=lambda e: e.name)]


def walk(folder: Path, problems: ProblemLog | None = None, limit: int = WALK_LIMIT) -> Iterator[Path]:
    """Regular files below ``folder`` (depth first, sorted), links to folders not followed, at most ``limit``
    entries."""
    stack, seen = [folder], 0
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except FileNotFoundError:
            continue
        except OSError as exc:
            if problems is not None and not isinstance(exc, NotADirectoryError):
                problems.add(current, f"cannot list folder: {exc.strerror or exc}")
            continue
        dirs = []
        for e in entries:
            seen += 1
            if seen > limit:
                if problems is not None:
                    problems.add(folder, f"more than {limit} entries: the rest is not read", severity="warning")
                return
            if e.is_dir(follow_symlinks=False):
                dirs.append(Path(e.path))
            elif e.is_file():  # a link to a file is listed; reading it checks it stays inside
                yield Path(e.path)
        stack.extend(reversed(dirs))


@dataclass(frozen=True)
class FolderSize:
    files: int
    bytes: int
    complete: bool  # False when the walk stopped at its limit


def folder_size(folder: Path, limit: int = WALK_LIMIT) -> FolderSize:
    files = total = seen = 0
    stack = [folder]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as it:
                for e in it:
                    seen += 1
                    if seen > limit:
                        return FolderSize(files, total, False)
                    if e.is_dir(follow_symlinks=False):
                        stack.append(Path(e.path))
                    elif e.is_file(follow_symlinks=False):
                        files += 1
                        try:
                            total += e.stat(follow_symlinks=False).st_size
                        except OSError:
                            pass
        except OSError:
            continue
    return FolderSize(files, total, True)


def read_capped(path: Path, folder: Path, problems: ProblemLog | None = None,
                limit: int = TEXT_LIMIT) -> bytes | None:
    """The bytes of ``path`` (a regular file inside ``folder``), or None with a problem said once."""
    if not inside(path, folder):
        if problems is not None:
            problems.add(path, "leads out of its folder (a link); not read")
        return None
    try:
        with open_regular(path) as fh:
            data = fh.read(limit + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if problems is not None:
            problems.add(path, f"cannot read file: {exc.strerror or exc}")
        return None
    if len(data) > limit:
        if problems is not None:
            problems.add(path, f"larger than {limit // 1_000_000} MB; not read", severity="warning")
        return None
    return data


def read_tail(path: Path, folder: Path, limit: int = TAIL_LIMIT) -> tuple[bytes, bool] | None:
    """The last ``limit`` bytes of ``path`` (from the end: a long log is never read whole) and whether
    the file is longer; None when it is missing, not regular or outside ``folder``."""
    if not inside(path, folder):
        return None
    try:
        with open_regular(path) as fh:
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(0, size - limit))
            data = fh.read(limit)
    except OSError:
        return None
    if size > limit:  # start at a whole line
        cut = data.find(b"\n")
        data = data[cut + 1:] if 0 <= cut < len(data) - 1 else data
    return data, size > limit


def text_of(data: bytes) -> str:
    return data.decode("utf-8-sig", errors="replace")
