"""The workspace's Markdown: IDENTITY.md, AGENT.md, MEMORY.md (loaded by the agent at start-up) and skills.

Skills live in ``workspace/skills/<name>/SKILL.md`` (the compose file mounts the repository's ``skills/``
there; a bare checkout keeps them in ``skills/`` beside the config). Saving is refused while the bot runs
unless the user insists, backs the old text up under the data folder, and is atomic and conflict-checked.
"""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.api import Documents, WriteRefused
from daycare_gui.stores.cianaparrot.layout import WORKSPACE_DOCS
from daycare_gui.stores.cianaparrot.safe_write import replace_file
from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.records import DocRef


class CianaDocuments(Documents):
    def __init__(self, store) -> None:
        self.store = store

    def _skill_dirs(self) -> list[Path]:
        L = self.store.layout
        dirs = []
        if L.workspace is not None:
            dirs.append(L.workspace / "skills")
        if L.root is not None:
            dirs.append(L.root / "skills")
        seen, out = set(), []
        for d in dirs:
            try:
                key = d.resolve()
            except OSError:
                continue
            if d.is_dir() and key not in seen:
                seen.add(key)
                out.append(d)
        return out

    def documents(self) -> list[DocRef]:
        L = self.store.layout
        out = []
        if L.workspace is not None:
            for name in WORKSPACE_DOCS:
                path = L.workspace / name
                if path.is_file():
                    out.append(DocRef(f"workspace/{name}", name, path, "Workspace", frontmatter=False))
        for folder in self._skill_dirs():
            try:
                entries = sorted(folder.iterdir())
            except OSError:
                continue
            for entry in entries:
                skill = entry / "SKILL.md"
                if entry.is_dir() and skill.is_file():
                    out.append(DocRef(f"skills/{entry.name}", entry.name, skill, "Skills", frontmatter=True))
        return out

    def read(self, ref: DocRef) -> bytes:
        return read_regular(ref.path) if ref.path else b""  # (a pipe planted as SKILL.md: refused, never waited on)

    def _is_ours(self, ref: DocRef) -> bool:
        """``ref`` is one of :meth:`documents` (same id and same file, links resolved): a ref made elsewhere,
        or stale, must not make us overwrite a file outside the deployment."""
        try:
            target = os.path.realpath(ref.path)
            return any(doc.id == ref.id and os.path.realpath(doc.path) == target for doc in self.documents())
        except (OSError, TypeError, ValueError):
            return False

    def save(self, ref: DocRef, data: bytes, expected_sha256: str | None, *, force: bool = False) -> Path | None:
        if ref.path is None or not ref.editable:
            raise WriteRefused(ref.readonly_reason or f"{ref.title} cannot be edited")
        if not self._is_ours(ref):
            raise WriteRefused(f"{ref.path} is not one of this deployment's documents ({ref.id}); "
                               "nothing was written")
        L = self.store.layout
        return replace_file(Path(ref.path), data, expected_sha256, blocked=self.store.writes_blocked(),
                            force=force, data_dir=L.data_dir, root=L.root, within=(L.workspace,))
