"""Agents, skills, flat-layout missions and plans as Markdown documents.

``agents/<name>.md``, ``skills/<name>.md``, ``skills/<name>/SKILL.md`` and ``missions/<id>/mission.md`` are
editable with the shared editor; plans are shown read-only (Linggen rewrites them while an agent works).
A save writes nothing when the bytes are unchanged; unless forced it refuses while Linggen runs (it has no
file locking), when the frontmatter is broken (Linggen would skip the file) and when the text starts with a
byte-order mark (the editor keeps the file's mark, which hides the frontmatter from Linggen), naming every
such reason in one refusal; it refuses when the file changed since it was read, and replaces the file
atomically.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from daycare_gui.stores.api import Documents, WriteConflict, WriteRefused
from daycare_gui.stores.common.backups import BACKUP_DIR, backup_copy
from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    OutsideStoreError,
    refuse_outside,
    refuse_read_only,
    save_atomic,
    sha256_of,
)
from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.linggen.byte_order_mark import (
    AGENT_UNREAD,
    BOM,
    MISSION_UNREAD,
    REMOVE_BOM,
    save_keeps_bom,
    starts_with_bom,
)
from daycare_gui.stores.linggen.layout import HomePaths
from daycare_gui.stores.linggen.readers import list_dirs, list_files
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import DocRef

AGENTS, SKILLS, MISSIONS, PLANS = "Agents", "Skills", "Missions", "Plans"
_PLANS_READONLY = "Linggen rewrites plan files while an agent works on them"


def find_documents(home: HomePaths, problems: ProblemLog) -> list[DocRef]:
    docs: list[DocRef] = []
    for path in list_files(home.agents, problems, ".md"):
        docs.append(DocRef(f"agent:{path.stem}", path.stem, path, AGENTS))
    for path in list_files(home.skills, problems, ".md"):
        docs.append(DocRef(f"skill:{path.stem}", path.stem, path, SKILLS))
    for folder in list_dirs(home.skills, problems):
        skill = folder / "SKILL.md"
        if skill.is_file():
            docs.append(DocRef(f"skill:{folder.name}/", folder.name, skill, SKILLS))
        else:
            problems.add(folder, "skill folder without SKILL.md: Linggen does not load it", severity="warning")
    for folder in list_dirs(home.missions, problems):
        md = folder / "mission.md"
        if md.is_file():
            docs.append(DocRef(f"mission:{folder.name}", folder.name, md, MISSIONS))
    for path in list_files(home.plans, problems, ".md"):
        docs.append(DocRef(f"plan:{path.name}", path.stem, path, PLANS, editable=False,
                           readonly_reason=_PLANS_READONLY))
    return docs


def check_frontmatter(docs: list[DocRef], problems: ProblemLog) -> int:
    """List broken frontmatter of agents and skills (Linggen skips those files); how many. Flat missions
    are read, listed and counted by :mod:`.missions`, which needs their frontmatter anyway: checking them
    here too counted each broken ``mission.md`` twice."""
    bad = 0
    for doc in docs:
        if doc.group in (PLANS, MISSIONS) or doc.path is None:
            continue
        try:
            data = read_regular(doc.path)
        except OSError as exc:
            problems.add(doc.path, f"cannot read file: {exc.strerror or exc}")
            continue
        bom = starts_with_bom(data)
        if bom:  # the frontmatter behind the mark is checked too: both must be fixed
            problems.add(doc.path, f"{AGENT_UNREAD}; {REMOVE_BOM}", line=1)
        parsed = parse_markdown(data[len(BOM) if bom else 0:].decode("utf-8", errors="replace"), doc.path)
        problems.extend(parsed.problems)
        if parsed.problems or bom:
            bad += 1
    return bad


class LinggenDocuments(Documents):
    def __init__(self, docs: list[DocRef], blocked: Callable[[], str | None], home: Path | None = None) -> None:
        self.docs = docs
        self.blocked = blocked
        self.home = home  # where the backups go (<home>/.daycare-gui-backups)

    def documents(self) -> list[DocRef]:
        return list(self.docs)

    def read(self, ref: DocRef) -> bytes:
        try:
            return read_regular(ref.path) if ref.path else b""
        except OSError:
            return b""

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *, force: bool = False) -> Path | None:
        known = next((d for d in self.docs if d.id == ref.id), None)
        if known is None or known.path != ref.path:
            raise WriteRefused(f"{ref.title} is not a document of this store")
        if not known.editable or known.path is None:
            raise WriteRefused(known.readonly_reason or f"{known.title} cannot be edited")
        path = known.path
        if self.home is not None:  # a link planted in the home must not lead a save into the user's own files
            try:
                refuse_outside(path, [self.home])
            except OutsideStoreError as exc:
                raise WriteRefused(str(exc)) from exc
        try:
            current = read_regular(path)
        except FileNotFoundError:
            current = None
        except OSError as exc:
            raise WriteRefused(f"cannot read {path}: {exc.strerror or exc}") from exc
        if current is not None and current == data and expected_sha256 == sha256_of(current):
            return None  # unchanged: not a byte is written
        refuse_read_only(path)  # before the questions below: no "save anyway" could write it
        if not force:
            # Every reason at once: one "save anyway" skips all of them, so the user must have heard all.
            problem = _frontmatter_problem(data, path)
            skipped = f"{problem}; Linggen would skip this file until that is fixed" if problem else None
            reasons = [r for r in (self.blocked(), _bom_kept(data, known.group), skipped) if r]
            if reasons:
                raise WriteRefused("\n\n".join(reasons))
        if expected_sha256 is not None and (current is None or sha256_of(current) != expected_sha256):
            raise WriteConflict(str(ConflictError(path, current)))  # (before a backup of bytes not replaced)
        # Linggen keeps no copies: the old text is kept before it is replaced.
        try:
            saved = self._backup(current, path) if current is not None else None
        except OSError as exc:
            raise WriteRefused(f"could not back up {path.name} ({exc.strerror or exc}); nothing was written") from exc
        try:
            save_atomic(path, data, expected_sha256=expected_sha256)
        except ConflictError as exc:
            raise WriteConflict(str(exc)) from exc
        return saved

    def _backup(self, current: bytes, path: Path) -> Path | None:
        if self.home is None:
            return None
        try:
            name = "__".join(path.relative_to(self.home).parts)
        except ValueError:
            name = path.name
        return backup_copy(current, path, self.home / BACKUP_DIR, name)


def _bom_kept(data: bytes, group: str) -> str | None:
    """The editor puts a file's byte-order mark back on save (it cannot be typed away), and the mark hides
    the frontmatter from Linggen: the save says so rather than keep it silently."""
    if not starts_with_bom(data):
        return None
    return save_keeps_bom(MISSION_UNREAD if group == MISSIONS else AGENT_UNREAD)


def _frontmatter_problem(data: bytes, path: Path) -> str | None:
    """What is wrong with the frontmatter behind any byte-order mark (the mark is :func:`_bom_kept`'s)."""
    try:
        text = data[len(BOM):].decode("utf-8") if starts_with_bom(data) else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"the text is not UTF-8 (byte {exc.start})"
    parsed = parse_markdown(text, path)
    if parsed.problems:
        p = parsed.problems[0]
        return f"line {p.line}: {p.message}" if p.line else p.message
    return None
