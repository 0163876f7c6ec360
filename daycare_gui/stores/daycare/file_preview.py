"""What the Files page shows for one file: Markdown, text (the first 256 KiB) or, for binary files, only
name, size and type. Reads stay inside the data dir (a path that leaves it is refused, not followed).
"""

from __future__ import annotations

import codecs
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path

from daycare_gui.stores.common.files import read as _read
from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.common.files.read import Root, check_inside
from daycare_gui.stores.daycare.files.homes import KNOWLEDGE_FILES

PREVIEW_LIMIT = 256 * 1024
MARKDOWN_SUFFIXES = (".md", ".markdown")
_SNIFF = 8192  # bytes looked at to decide "binary"


@dataclass(frozen=True)
class FilePreview:
    path: str
    name: str
    kind: str  # "markdown", "text", "binary", "missing", "refused", "folder" or "error"
    size: int | None
    mime: str | None
    text: str | None = None
    truncated: bool = False  # only the first PREVIEW_LIMIT bytes were read
    message: str | None = None  # why there is no text (refused, unreadable, binary)
    frontmatter: str | None = None  # Markdown only: the YAML block, kept out of ``text`` (the body)

    @property
    def is_knowledge(self) -> bool:
        return self.name in KNOWLEDGE_FILES

    def note(self) -> str:
        """A line for the viewer's header: size, type and whether the text is cut."""
        size = "" if self.size is None else f"{self.size:,} bytes"
        parts = [p for p in (size, self.mime or "") if p]
        if self.truncated:
            parts.append(f"showing the first {PREVIEW_LIMIT // 1024} KiB only")
        if self.message:
            parts.append(self.message)
        return " · ".join(parts)


def _looks_binary(head: bytes) -> bool:
    if b"\0" in head:
        return True
    try:
        # The sniffed slice may end inside a multi-byte character; an incremental decoder allows that.
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        return True
    return False


def preview_file(path: str | os.PathLike, *, root: Root, limit: int = PREVIEW_LIMIT) -> FilePreview:
    p = Path(path)
    name = p.name
    mime = mimetypes.guess_type(name)[0]
    if not os.path.lexists(p):
        return FilePreview(str(p), name, "missing", None, mime, message="the file is gone")
    problems: list = []
    if not check_inside(p, root, problems):
        return FilePreview(str(p), name, "refused", None, mime, message=problems[0].message)
    if p.is_dir():
        return FilePreview(str(p), name, "folder", None, "inode/directory")
    size = _read.file_info(p)[0]
    try:
        with _read.open_binary(p) as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        return FilePreview(str(p), name, "error", size, mime, message=f"cannot read: {exc.strerror or exc}")
    truncated = len(raw) > limit
    raw = raw[:limit]
    if _looks_binary(raw[:_SNIFF]):
        return FilePreview(str(p), name, "binary", size, mime or "application/octet-stream",
                           message="binary file; contents not shown")
    text = codecs.getincrementaldecoder("utf-8-sig")(errors="replace").decode(raw, final=not truncated)
    if not name.lower().endswith(MARKDOWN_SUFFIXES):
        return FilePreview(str(p), name, "text", size, mime or "text/plain", text, truncated)
    # Rendered Markdown would turn a YAML frontmatter block into a rule and a heading; show the body.
    doc = parse_markdown(text, p)
    frontmatter = doc.frontmatter_raw if doc.has_frontmatter else None
    return FilePreview(str(p), name, "markdown", size, mime or "text/markdown", doc.body if frontmatter is not None
                       else text, truncated, frontmatter=frontmatter)


@dataclass(frozen=True)
class FolderListing:
    path: str
    entries: tuple  # HomeEntry, folders first then by name
    more: int  # entries left out beyond the limit
    problems: tuple


def list_folder(path: str | os.PathLike, *, root: Root, limit: int = 5000) -> FolderListing:
    """One folder of a user's home for the tree: at most ``limit`` entries, sorted, folders first."""
    from daycare_gui.stores.daycare.files.homes import list_home_folder

    problems: list = []
    entries, more = [], 0
    for entry in list_home_folder(path, problems, root=root):
        if len(entries) < limit:
            entries.append(entry)
        else:
            more += 1
    entries.sort(key=lambda e: (not e.is_dir, e.name.lower()))
    return FolderListing(str(path), tuple(entries), more, tuple(problems))
