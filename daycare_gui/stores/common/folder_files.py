"""The Files capability over plain folders: any kind names its roots, this lists and previews them safely.

A folder beside a store is untrusted input: it may hold a link out of it, a pipe, a gigabyte log. So a
folder is listed without following links to folders (a link is listed, and said to lead out when it
does), a file is opened only when it is regular and stays inside its root (links resolved), and never
read past ``limit`` bytes: its head, or its end for a log (``tail``). Names a kind asks to hide (a
credentials file) are never listed, and their bytes never read. Every kind's Files (Daycare's homes and
databases too) is this one class: the same link, size and binary rules everywhere.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from daycare_gui.stores.api import Files
from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.common.files.read import is_inside
from daycare_gui.stores.common.regular_files import open_regular
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.records import FileEntry, FilePreview, FileRoot

LIST_LIMIT = 5000  # entries one folder shows; the rest are counted on a line of their own
PREVIEW_LIMIT = 256 * 1024  # bytes of a file a preview reads at the most
MARKDOWN_SUFFIXES = (".md", ".markdown")
_SNIFF = 8192  # bytes looked at to decide "binary"
LINK_OUT = "leads out of the folder; not followed"


@dataclass(frozen=True)
class FolderRoot:
    """A root, where it is on disk, and what its folders hold that the kind knows of."""

    root: FileRoot
    path: Path
    hidden: frozenset[str] = frozenset()  # names never listed nor read, at any depth (secrets.json)
    notes: dict[str, str] = field(default_factory=dict)  # name → note ("knowledge file: agents read it")
    opens_as: Callable[[str, Path], str | None] | None = None  # (rel, path) → a store to open, or None
    only: tuple[str, ...] = ()  # when set, the root's own level lists only these names


def inside(path: str | os.PathLike, folder: str | os.PathLike) -> bool:
    """Whether ``path``, links resolved, lies in ``folder`` (the one containment check of the readers)."""
    return is_inside(Path(path), folder)


def _clean_rel(rel: str) -> str | None:
    """``rel`` as names below the root, or None when it climbs out (``..``) or is absolute."""
    if not rel:
        return ""
    parts = PurePosixPath(rel.replace("\\", "/")).parts
    if not parts or parts[0] == "/" or any(p in ("..", "") for p in parts):
        return None
    return "/".join(p for p in parts if p != ".")


def looks_binary(head: bytes) -> bool:
    """A NUL, or bytes that are not UTF-8, in the first bytes of a file: not text to show."""
    if b"\0" in head:
        return True
    try:
        # The sniffed slice may end inside a multi-byte character; an incremental decoder allows that.
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return True
    return False


class FolderFiles(Files):
    """Files over ``roots``; a kind builds its roots once (cheap: a few stats) and hands them here."""

    def __init__(self, roots: Callable[[], list[FolderRoot]]) -> None:
        self._make = roots
        self._roots: dict[str, FolderRoot] | None = None

    def _all(self) -> dict[str, FolderRoot]:
        if self._roots is None:
            self._roots = {r.root.id: r for r in self._make()}
        return self._roots

    def roots(self) -> list[FileRoot]:
        return [r.root for r in self._all().values()]

    def _locate(self, root_id: str, rel: str) -> tuple[FolderRoot, str, Path] | None:
        root = self._all().get(root_id)
        clean = _clean_rel(rel)
        if root is None or clean is None:
            return None
        names = clean.split("/") if clean else []
        if any(n in root.hidden for n in names) or (names and root.only and names[0] not in root.only):
            return None
        return root, clean, root.path / clean if clean else root.path

    def children(self, root_id: str, rel: str) -> list[FileEntry]:
        found = self._locate(root_id, rel)
        if found is None:
            return [FileEntry("", rel, False, problem="not a folder of this store")]
        root, clean, folder = found
        if not inside(folder, root.path):
            return [FileEntry("", clean, False, problem=LINK_OUT)]
        try:
            with os.scandir(folder) as it:
                listed = sorted(it, key=lambda e: e.name.casefold())
        except FileNotFoundError:
            return []
        except OSError as exc:
            return [FileEntry("", clean, False, problem=f"cannot list: {exc.strerror or exc}")]
        out: list[FileEntry] = []
        more = 0
        for e in listed:
            if e.name in root.hidden or (not clean and root.only and e.name not in root.only):
                continue
            if len(out) >= LIST_LIMIT:
                more += 1
                continue
            out.append(self._entry(root, clean, e))
        out.sort(key=lambda f: (not f.is_dir, f.name.casefold()))
        if more:
            out.append(FileEntry("", clean, False, problem=f"{more:,} more entries not listed"))
        return out

    def _entry(self, root: FolderRoot, parent: str, e: os.DirEntry) -> FileEntry:
        rel = f"{parent}/{e.name}" if parent else e.name
        link = ""
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            return FileEntry(e.name, rel, False, problem="cannot be read")
        is_dir = stat.S_ISDIR(st.st_mode)
        size = st.st_size if stat.S_ISREG(st.st_mode) else None
        if stat.S_ISLNK(st.st_mode):
            if inside(e.path, root.path):
                link = "inside"
                try:  # a link inside the root is shown as what it leads to
                    target = os.stat(e.path)
                    is_dir = stat.S_ISDIR(target.st_mode)
                    size = target.st_size if stat.S_ISREG(target.st_mode) else None
                except OSError:
                    link = "leads nowhere"
            else:
                link = LINK_OUT
        note = root.notes.get(e.name, "")
        opens_as = root.opens_as(rel, Path(e.path)) if (root.opens_as and is_dir and link != LINK_OUT) else None
        return FileEntry(e.name, rel, is_dir and link != LINK_OUT, size, st.st_mtime, opens_as, link, note)

    def preview(self, root_id: str, rel: str, limit: int = PREVIEW_LIMIT, tail: bool = False) -> FilePreview:
        found = self._locate(root_id, rel)
        if found is None:
            return FilePreview(rel, "none", note="not a file of this store")
        root, clean, path = found
        if not inside(path, root.path):
            return FilePreview(clean, "none", note=f"{PurePosixPath(clean).name} {LINK_OUT}")
        try:
            with open_regular(path) as fh:
                size = os.fstat(fh.fileno()).st_size
                if tail and size > limit:
                    fh.seek(size - limit)
                data = fh.read(limit)
        except FileNotFoundError:
            return FilePreview(clean, "none", note="gone since it was listed")
        except OSError as exc:  # a pipe, a device, a folder: never opened
            return FilePreview(clean, "none", note=f"not shown: {exc.strerror or exc}")
        cut = size > limit
        if tail and cut:  # start at a whole line
            at = data.find(b"\n")
            data = data[at + 1:] if 0 <= at < len(data) - 1 else data
        if looks_binary(data[:_SNIFF]):
            return FilePreview(clean, "binary", size=size, note="binary: shown by name and size only")
        # A key pasted into a note is masked like any stored text the window shows.
        text = mask_free_text(data.decode("utf-8-sig", errors="replace"))
        fmt = "markdown" if path.suffix.lower() in MARKDOWN_SUFFIXES else "text"
        if fmt == "markdown" and not tail:
            text = _frontmatter_shown(text, path)
        note = ""
        if cut:
            note = (f"showing the last {limit // 1024} KiB" if tail else f"showing the first {limit // 1024} KiB")
        return FilePreview(clean, fmt, text, size, cut, note)


def _frontmatter_shown(text: str, path: Path) -> str:
    """Rendered Markdown would turn a YAML frontmatter block into a rule and a heading: it is shown as a
    YAML block above the body instead (a skill's name and description stay readable)."""
    doc = parse_markdown(text, path)
    if not doc.has_frontmatter:
        return text
    raw = doc.frontmatter_raw.rstrip("\n")
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", raw)), default=0))  # longer than any inside
    return f"{fence}yaml\n{raw}\n{fence}\n\n{doc.body}"
