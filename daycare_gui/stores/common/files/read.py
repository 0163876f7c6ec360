"""Tolerant low-level file access: text, bytes and folder listings that report Problems instead of raising.

Every reader of a store's files goes through here, so three rules hold everywhere:

- nothing is written, ever (files are opened ``rb``, folders only listed);
- a file or folder reached through a symlink that resolves outside the store's folders is refused, so a
  crafted data dir cannot make the GUI display (or later edit) arbitrary files;
- decoding errors and permission errors become :class:`Problem` values; the text is still returned
  (decoded with replacement characters) so nothing is hidden from the user;
- only regular files are opened (:func:`daycare_gui.stores.common.regular_files.open_regular`): a named pipe would block the read for ever and a
  device (``/dev/zero``) never ends, so either is refused with a Problem that names what it is.

``root`` arguments accept a store's own paths object (:class:`Containing`: its ``contains`` decides), one
folder, several folders, or ``None`` (no containment check: used for explicit user requests such as ``~/.agents/skills``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.problems import Problem


@runtime_checkable
class Containing(Protocol):
    """A store's paths that decide themselves what lies inside the store (a data dir and folders
    of an older layout, for one)."""

    def contains(self, path: Path) -> bool: ...


Root = Containing | str | os.PathLike | Sequence[str | os.PathLike] | None

LEAVES_MESSAGE = "path leaves the data directory"


def open_binary(path: Path):
    """The one place files are opened (through :func:`open_regular`); tests monkeypatch it to simulate
    unreadable files when run as root."""
    return open_regular(path)


def scandir(path: Path):
    """The one place folders are listed; monkeypatched by tests like :func:`open_binary`."""
    return os.scandir(path)


def _root_dirs(root: Root) -> tuple[Path, ...]:
    if root is None or isinstance(root, Containing):
        return ()
    if isinstance(root, (str, os.PathLike)):
        return (Path(root),)
    return tuple(Path(r) for r in root)


def is_inside(path: Path, root: Root) -> bool:
    """True when ``path`` (symlinks resolved) stays inside ``root``; always True without a root."""
    if root is None:
        return True
    if isinstance(root, Containing):
        return root.contains(path)
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError):  # (ValueError: a NUL in the name)
        return False
    for base in _root_dirs(root):
        base_real = Path(os.path.realpath(base))
        if real == base_real or base_real in real.parents:
            return True
    return False


def check_inside(path: Path, root: Root, problems: list[Problem]) -> bool:
    """Like :func:`is_inside`, but records the refusal as a Problem."""
    if is_inside(path, root):
        return True
    try:
        target = os.path.realpath(path)
    except OSError:
        target = "?"
    problems.append(Problem(str(path), None, f"{LEAVES_MESSAGE} (resolves to {target}); not read"))
    return False


def _os_error(path: Path, exc: OSError, what: str) -> Problem:
    reason = exc.strerror or exc.__class__.__name__
    return Problem(str(path), None, f"cannot {what}: {reason}")


def read_bytes(path: str | os.PathLike, *, root: Root = None) -> tuple[bytes | None, list[Problem]]:
    """The file's bytes, or None when missing (no problem), refused or unreadable (a problem)."""
    p = Path(path)
    problems: list[Problem] = []
    if not os.path.lexists(p):
        return None, problems
    if not check_inside(p, root, problems):
        return None, problems
    try:
        with open_binary(p) as fh:
            return fh.read(), problems
    except FileNotFoundError:
        # A dangling symlink or a file removed between the check and the open: absent, not broken.
        return None, problems
    except IsADirectoryError:
        problems.append(Problem(str(p), None, "expected a file, found a folder"))
        return None, problems
    except OSError as exc:
        problems.append(_os_error(p, exc, "read file"))
        return None, problems


def decode_text(raw: bytes, path: str | os.PathLike) -> tuple[str, list[Problem]]:
    """UTF-8 (a leading BOM is dropped); invalid bytes become U+FFFD and one Problem names the first one."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
        text = raw[bom:].decode("utf-8", errors="replace")
        return text, [
            Problem(
                str(path),
                _line_of(raw, exc.start),
                f"not UTF-8 (byte {exc.start}); shown with replacement characters",
            )
        ]


def _line_of(raw: bytes, offset: int) -> int:
    return raw.count(b"\n", 0, offset) + 1


def read_text(path: str | os.PathLike, *, root: Root = None) -> tuple[str | None, list[Problem]]:
    """The file decoded as UTF-8 (see :func:`decode_text`), or None when missing/refused/unreadable."""
    raw, problems = read_bytes(path, root=root)
    if raw is None:
        return None, problems
    text, more = decode_text(raw, path)
    return text, problems + more


@dataclass(frozen=True)
class DirEntry:
    """One folder entry, from a single ``lstat``-free scandir pass (contents are never read)."""

    name: str
    path: Path
    is_dir: bool
    is_file: bool
    is_symlink: bool


def list_dir(path: str | os.PathLike, *, root: Root = None) -> tuple[list[DirEntry], list[Problem]]:
    """Entries of a folder sorted by name; a missing folder is simply empty (absence is normal in a store)."""
    p = Path(path)
    problems: list[Problem] = []
    if not os.path.lexists(p):
        return [], problems
    if not check_inside(p, root, problems):
        return [], problems
    entries: list[DirEntry] = []
    try:
        with scandir(p) as it:
            for e in it:
                try:
                    is_dir = e.is_dir()
                    is_file = e.is_file()
                    is_link = e.is_symlink()
                except OSError:
                    is_dir = is_file = is_link = False
                entries.append(DirEntry(e.name, Path(e.path), is_dir, is_file, is_link))
    except FileNotFoundError:
        return [], problems
    except NotADirectoryError:
        problems.append(Problem(str(p), None, "expected a folder, found a file"))
        return [], problems
    except OSError as exc:
        problems.append(_os_error(p, exc, "list folder"))
        return [], problems
    entries.sort(key=lambda e: e.name)
    return entries, problems


def subdirs(path: str | os.PathLike, *, root: Root = None) -> tuple[list[DirEntry], list[Problem]]:
    entries, problems = list_dir(path, root=root)
    # A symlinked subfolder that leaves the store is refused here, once, rather than per file inside it.
    dirs = [e for e in entries if e.is_dir and (not e.is_symlink or check_inside(e.path, root, problems))]
    return dirs, problems


def walk_files(top: str | os.PathLike, *, root: Root = None, problems: list[Problem]) -> Iterator[Path]:
    """Every file below ``top`` (depth first, sorted). Symlinked folders are not followed, so link loops
    cannot hang a scan; problems (unreadable subfolders) are appended as found."""
    stack = [Path(top)]
    while stack:
        folder = stack.pop()
        entries, more = list_dir(folder, root=root)
        problems.extend(more)
        dirs = []
        for e in entries:
            if e.is_dir and not e.is_symlink:
                dirs.append(e.path)
            elif e.is_file:
                yield e.path
        stack.extend(reversed(dirs))


def file_info(path: str | os.PathLike) -> tuple[int | None, float | None]:
    """(size, mtime) without following the content; (None, None) if it cannot be stat-ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None, None
    return (st.st_size if stat.S_ISREG(st.st_mode) else None), st.st_mtime


def existing(paths: Iterable[Path]) -> list[Path]:
    """``paths`` that exist, without duplicates that resolve to the same real folder."""
    out: list[Path] = []
    seen: set[str] = set()
    for p in paths:
        if not p.exists():
            continue
        real = os.path.realpath(p)
        if real in seen:
            continue
        seen.add(real)
        out.append(p)
    return out

