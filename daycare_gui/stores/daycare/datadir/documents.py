"""Skills and agents' prompt files as documents; config and personal skills saved as Daycare reads them.

A save writes nothing when the bytes are unchanged; unless forced it refuses while Daycare's engine runs
(it reads skills before each inference and may replace a personal one) and when the frontmatter is broken
(Daycare would skip the skill); it refuses when the file changed since it was read, keeps the old bytes
in ``<dataDir>/.daycare-gui-backups`` (outside every skills folder, so Daycare never lists a backup as a
skill) and replaces the file atomically, inside its skills folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from daycare_gui.stores.api import Documents, WriteConflict, WriteRefused
from daycare_gui.stores.common.backups import BACKUP_DIR, backup_copy
from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    OutsideStoreError,
    ReadOnlyError,
    refuse_read_only,
    save_atomic,
    sha256_of,
)
from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.common.folder_files import inside
from daycare_gui.stores.daycare.datadir.agent_files import find_agent_files
from daycare_gui.stores.daycare.datadir.reading import read_capped
from daycare_gui.stores.daycare.datadir.skills import ACTIVE, HISTORY, PERSONAL, SkillDoc, find_skills
from daycare_gui.stores.daycare.edit.file_save import save_store_file
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import DocRef, DocVersion, Row

PREFIXES = ("skill:", "skill-active:", "skill-version:", "agent-file:", "config:", "memory:")
# Refs of files of the store that this section does not list, made by the editor window (``file:<path>``)
# and by the apps' list (``app:<id>:PERMISSIONS.md``): saved as any file of the store (edit/file_save.py).
STORE_FILES = ("file:", "app:")


class DataDirDocuments(Documents):
    def __init__(self, paths, problems: ProblemLog, engine_blocked: Callable[[], str | None],
                 home: Path | None) -> None:
        self.paths = paths  # DaycarePaths
        self.problems = problems
        self.engine_blocked = engine_blocked
        self.home = home  # where ~/.agents/skills is looked for (None: not looked for)
        self._docs: list[SkillDoc] | None = None

    @staticmethod
    def owns(ref: DocRef) -> bool:
        return ref.id.startswith(PREFIXES + STORE_FILES)

    def files(self) -> list[SkillDoc]:
        if self._docs is None:
            self._docs = self._find()
        return self._docs

    def _find(self) -> list[SkillDoc]:
        """Today's layout (skills/personal, skills/active, skills-history); the SQLite and legacy
        generations' adapter finds its skills and memory through the core's inventory instead."""
        from daycare_gui.stores.daycare.datadir.config_docs import config_docs

        p = self.paths
        users = tuple(d for d in p.users_dirs if d.parent == p.data_dir) or p.users_dirs
        return (find_skills(p.config_dir, users, self.home, self.problems)
                + find_agent_files(p.agents_dir, self.problems)
                + config_docs(p.config_dir, p.settings_path, p.auth_path))

    def refresh(self) -> None:
        self._docs = None

    def documents(self) -> list[DocRef]:
        return [d.ref for d in self.files()]

    def count(self) -> int | None:
        # Activation copies and earlier versions are Daycare's derived copies of skills already listed.
        return sum(1 for d in self.files() if d.source not in (ACTIVE, HISTORY) and not d.ref.derived_from)

    def _known(self, ref: DocRef) -> SkillDoc | None:
        return next((d for d in self.files() if d.ref.id == ref.id and d.ref.path == ref.path), None)

    def _bytes(self, known: SkillDoc | None) -> bytes | None:
        if known is None or known.ref.path is None:
            return None
        return read_capped(known.ref.path, known.folder, self.problems)

    def read(self, ref: DocRef) -> bytes:
        known = self._known(ref)
        if known is None or known.ref.secret:  # credentials: their bytes never leave this class
            return b""
        return self._bytes(known) or b""

    def outline(self, ref: DocRef) -> list[Row]:
        from daycare_gui.stores.daycare.datadir import doc_fields

        known = self._known(ref)
        return doc_fields.outline(known, self._bytes(known)) if known is not None and known.ref.secret else []

    def fields(self, ref: DocRef):
        from daycare_gui.stores.daycare.datadir import doc_fields

        known = self._known(ref)
        return doc_fields.fields(known, self._bytes(known)) if known is not None else ()

    def update_fields(self, ref: DocRef, changes: dict, expected_sha256: str | None, *,
                      force: bool = False) -> Path | None:
        """Each change spliced into the bytes as they are; ``expected_sha256`` None (a settings file, whose
        bytes the window never holds) means the bytes read here, so only a write in between conflicts."""
        from daycare_gui.stores.daycare.datadir import doc_fields

        known = self._known(ref)
        current = self._bytes(known)
        if known is None or current is None:
            raise WriteRefused(f"{ref.title} cannot be read; nothing was written")
        if expected_sha256 is not None and sha256_of(current) != expected_sha256:
            raise WriteConflict(str(ConflictError(known.ref.path, current)))
        data = doc_fields.spliced(known, current, changes)
        return self.save(known.ref, data, sha256_of(current), force=force)

    # -- the file editor: Daycare's form for any file of the store (a task's TASK.md too, which this section
    # does not list) --------------------------------------------------------------------------------------
    def form(self, ref: DocRef):
        from daycare_gui.stores.daycare.edit.forms import form_for_path

        return form_for_path(ref.path) if ref.path is not None else super().form(ref)

    def versions(self, ref: DocRef) -> list[DocVersion]:
        """A personal skill's earlier versions (skills-history), oldest first, each with what changed."""
        from daycare_gui.stores.daycare.datadir.skill_versions import version_entries

        known = self._known(ref)
        if known is None or known.source not in (PERSONAL,):
            return []
        mine = [d for d in self.files() if d.ref.derived_from == ref.id and d.source == HISTORY]
        notes = {e.key: e.values[3] for e in version_entries([known, *mine], self.problems)}
        return [DocVersion(d.ref.id, d.ref.title, note=notes.get(d.ref.id, "")) for d in mine]

    def read_version(self, ref: DocRef, version_id: str) -> bytes:
        known = next((d for d in self.files() if d.ref.id == version_id and d.ref.derived_from == ref.id), None)
        return self._bytes(known) or b""

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *, force: bool = False) -> Path | None:
        known = self._known(ref)
        if known is None and ref.id.startswith(STORE_FILES) and ref.path is not None:
            return save_store_file(Path(ref.path), data, expected_sha256, force=force, paths=self.paths)
        if known is None:
            raise WriteRefused(f"{ref.title} is not a document of this store")
        if not known.ref.editable or known.ref.path is None:
            raise WriteRefused(known.ref.readonly_reason or f"{known.ref.title} cannot be edited")
        path = known.ref.path
        if not inside(path, known.folder):  # a link planted since the listing: nothing is written through it
            raise WriteRefused(f"{path} leads out of its skills folder; nothing was written")
        current = read_capped(path, known.folder)
        if current is not None and current == data and expected_sha256 == sha256_of(current):
            return None  # unchanged: not a byte is written
        try:
            refuse_read_only(path)
        except ReadOnlyError as exc:
            raise WriteRefused(str(exc)) from exc
        if not force:
            shape = _frontmatter_problem(data, path) if known.ref.frontmatter else None
            reasons = [r for r in (self.engine_blocked(), shape) if r]
            if reasons:
                raise WriteRefused("\n\n".join(reasons))
        if expected_sha256 is not None and (current is None or sha256_of(current) != expected_sha256):
            raise WriteConflict(str(ConflictError(path, current)))
        saved = None
        if current is not None:
            try:
                name = "__".join(path.relative_to(self.paths.data_dir).parts)
            except ValueError:
                name = "__".join(path.parts[-4:])
            try:
                saved = backup_copy(current, path, self.paths.data_dir / BACKUP_DIR, name)
            except OSError as exc:
                raise WriteRefused(f"could not back up {path.name} ({exc.strerror or exc}); nothing was written") \
                    from exc
        try:
            save_atomic(path, data, expected_sha256=expected_sha256, within=[known.folder])
        except ConflictError as exc:
            raise WriteConflict(str(exc)) from exc
        except (OutsideStoreError, ReadOnlyError) as exc:
            raise WriteRefused(str(exc)) from exc
        self.refresh()
        return saved


def _frontmatter_problem(data: bytes, path: Path) -> str | None:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return f"the text is not UTF-8 (byte {exc.start})"
    parsed = parse_markdown(text, path)
    if parsed.problems:
        p = parsed.problems[0]
        where = f"line {p.line}: " if p.line else ""
        return f"{where}{p.message}; Daycare would skip this skill until that is fixed"
    return None
