"""Skills: every ``SKILL.md`` (file name matched case-insensitively) below each skill root.

Roots: ``<users dir>/<uid>/skills`` ("user"), ``<configDir>/skills`` ("config"), plugin data folders
("plugin") and, only when asked, ``~/.agents/skills`` ("home": outside the data dir, so never scanned
implicitly). Metadata follows Daycare's ``skillResolve``: a missing name falls back to the folder name.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from daycare_gui.stores.common.files.base import Loaded, RecordMixin, loaded, split_known
from daycare_gui.stores.common.files.frontmatter import read_markdown
from daycare_gui.stores.common.files.read import Root, subdirs, walk_files
from daycare_gui.stores.daycare.paths import DaycarePaths
from daycare_gui.stores.problems import Problem

SKILL_FILE = "skill.md"


@dataclass(frozen=True)
class Skill(RecordMixin):
    id: str  # "<source>:<relative folder>" like Daycare's skill ids
    name: str
    description: str | None
    sandbox: bool | None
    permissions: tuple[str, ...]
    tools: tuple[str, ...]
    category: str | None
    path: str
    root: str
    source: str  # "user", "config", "plugin" or "home"
    user_id: str | None = None
    plugin_id: str | None = None
    raw: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)


def _strings(value) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return ()
    out: list[str] = []
    for v in value:
        if isinstance(v, str) and v.strip() and v.strip() not in out:
            out.append(v.strip())
    return tuple(out)


def _sandbox(value) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return None


def parse_skill(path: Path, root_dir: Path, source: str, *, root: Root = None, user_id=None, plugin_id=None):
    doc, problems = read_markdown(path, root=root)
    if doc is None:
        return None, problems
    meta = doc.meta
    rel = os.path.relpath(path.parent, root_dir).replace(os.sep, "/")
    rel = "" if rel == "." else rel
    slug = rel or "skill"
    folder_name = path.parent.name if rel else root_dir.name
    name = meta.get("name").strip() if isinstance(meta.get("name"), str) and meta["name"].strip() else None
    segments = [s for s in rel.split("/") if s]
    category = (
        re.sub(r"-+", "-", re.sub(r"[\s_]+", "-", segments[0].strip().lower())) if len(segments) > 1 else None
    )
    prefix = f"plugin:{plugin_id}/" if source == "plugin" else f"{source}:"
    if user_id and source == "user":
        prefix = f"user:{user_id}/"
    desc = meta.get("description")
    skill = Skill(
        id=prefix + slug,
        name=name or re.sub(r"[-_]+", " ", folder_name).strip(),
        description=desc.strip() if isinstance(desc, str) and desc.strip() else None,
        sandbox=_sandbox(meta.get("sandbox")),
        permissions=_strings(meta.get("permissions")),
        tools=_strings(meta.get("tools")),
        category=category or None,
        path=str(path),
        root=str(root_dir),
        source=source,
        user_id=user_id,
        plugin_id=plugin_id,
        raw=dict(meta),
        extra=split_known(meta, {"name", "description", "sandbox", "permissions", "tools"}),
    )
    return skill, problems


def skill_roots(paths: DaycarePaths, *, include_home_skills: bool = False, home: Path | None = None):
    """(folder, source, user id, plugin id) for every place skills may live."""
    roots: list[tuple[Path, str, str | None, str | None]] = []
    for users_dir in paths.users_dirs:
        for entry in subdirs(users_dir, root=paths)[0]:
            roots.append((entry.path / "skills", "user", entry.name, None))
    roots.append((paths.config_dir / "skills", "config", None, None))
    for entry in subdirs(paths.plugins_dir, root=paths)[0]:
        roots.append((entry.path, "plugin", None, entry.name))
    if include_home_skills:
        roots.append(((home or Path.home()) / ".agents" / "skills", "home", None, None))
    return roots


def read_skills(
    paths: DaycarePaths, *, include_home_skills: bool = False, home: Path | None = None
) -> Loaded[Skill]:
    items: list[Skill] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for root_dir, source, user_id, plugin_id in skill_roots(
        paths, include_home_skills=include_home_skills, home=home
    ):
        # ~/.agents/skills is outside the store: the user asked for it, so confine reads to that folder.
        guard: Root = root_dir if source == "home" else paths
        for f in walk_files(root_dir, root=guard, problems=problems):
            if f.name.lower() != SKILL_FILE:
                continue
            real = os.path.realpath(f)
            if real in seen:
                continue
            seen.add(real)
            skill, more = parse_skill(f, root_dir, source, root=guard, user_id=user_id, plugin_id=plugin_id)
            problems.extend(more)
            if skill is not None:
                items.append(skill)
    return loaded(items, problems)
