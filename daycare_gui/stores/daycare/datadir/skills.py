"""Skills of every source today's Daycare reads, and the copies it derives from them, as documents.

Sources (Daycare 7c3c466c): ``<configDir>/skills/**/SKILL.md`` (config), each user's
``users/<uid>/skills/personal/**/SKILL.md`` (personal) and ``~/.agents/skills/**/SKILL.md`` (outside the
data directory). Before each inference Daycare copies every listed skill into
``users/<uid>/skills/active/<key>/``: those copies are shown read-only and never counted as skills. When a
personal skill is replaced, the folder it had is kept as ``skills-history/<name>/versions/<n>/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

from daycare_gui.stores.common.files.frontmatter import parse_markdown
from daycare_gui.stores.daycare.datadir.reading import read_capped, subfolders, text_of, walk
from daycare_gui.stores.problems import ProblemLog
from daycare_gui.stores.records import DocRef

CONFIG, PERSONAL, AGENTS, ACTIVE, HISTORY = "config", "personal", "agents", "active", "history"
SOURCES = (CONFIG, PERSONAL, AGENTS)  # what Daycare lists as skills (ACTIVE and HISTORY are derived)
ACTIVE_REASON = "Daycare's activation copy, rewritten before each inference"
HISTORY_REASON = "an earlier version Daycare keeps of a personal skill; the current one is editable"
AGENTS_REASON = "a skill in ~/.agents/skills, outside Daycare's data directory (other tools share it)"
SKILL_FILE = "skill.md"


@dataclass(frozen=True)
class SkillDoc:
    ref: DocRef
    source: str  # one of CONFIG, PERSONAL, AGENTS, ACTIVE, HISTORY
    folder: Path  # reads and writes stay inside this folder
    user_id: str = ""


def user_label(folder: Path) -> str:
    """Daycare names a user's folder ``encodeURIComponent(uid)``."""
    return unquote(folder.name)


def _title(data: bytes | None, skill_md: Path, root: Path) -> str:
    if data:
        meta = parse_markdown(text_of(data), skill_md).meta
        name = meta.get("name")
        if isinstance(name, str) and name.strip():
            return name.strip()
    folder = skill_md.parent if skill_md.parent != root else root
    return re.sub(r"[-_]+", " ", folder.name).strip() or "skill"


def _skills_below(root: Path, problems: ProblemLog) -> list[tuple[Path, str, bytes | None]]:
    """(SKILL.md, its folder relative to ``root``, its bytes) for each skill below ``root``."""
    out = []
    for path in walk(root, problems):
        if path.name.lower() != SKILL_FILE:
            continue
        rel = path.parent.relative_to(root).as_posix()
        out.append((path, "" if rel == "." else rel, read_capped(path, root, problems)))
    return out


def find_skills(config_dir: Path, users_dirs: tuple[Path, ...], home: Path | None,
                problems: ProblemLog) -> list[SkillDoc]:
    docs: list[SkillDoc] = []
    root = config_dir / "skills"
    for path, rel, data in _skills_below(root, problems):
        ref = DocRef(f"skill:config:{rel}", _title(data, path, root), path, f"Skills · config ({root})",
                     source=CONFIG)
        docs.append(SkillDoc(ref, CONFIG, root))
    for users_dir in users_dirs:
        for user in subfolders(users_dir, problems):
            uid = user_label(user)
            docs += _user_skills(user, uid, problems)
    if home is not None:
        root = home / ".agents" / "skills"
        for path, rel, data in _skills_below(root, problems):
            ref = DocRef(f"skill:agents:{rel}", _title(data, path, root), path,
                         "Skills · ~/.agents/skills (outside the data directory)", editable=False,
                         readonly_reason=AGENTS_REASON, source=AGENTS)
            docs.append(SkillDoc(ref, AGENTS, root))
    return docs


def _user_skills(user: Path, uid: str, problems: ProblemLog) -> list[SkillDoc]:
    docs: list[SkillDoc] = []
    root = user / "skills" / "personal"
    for path, rel, data in _skills_below(root, problems):
        ref = DocRef(f"skill:user:{uid}/{rel}", _title(data, path, root), path, f"Skills · personal ({uid})",
                     source=PERSONAL)
        docs.append(SkillDoc(ref, PERSONAL, root, uid))
    root = user / "skills" / "active"
    for path, rel, data in _skills_below(root, problems):
        ref = DocRef(f"skill-active:{uid}/{rel}", f"{_title(data, path, root)} ({rel})", path,
                     f"Skills · activation copies ({uid})", editable=False, readonly_reason=ACTIVE_REASON,
                     source=ACTIVE, derived_from=f"skill:{rel}")
        docs.append(SkillDoc(ref, ACTIVE, root, uid))
    history = user / "skills-history"
    for skill in subfolders(history, problems):
        versions = subfolders(skill / "versions", problems)
        for version in sorted(versions, key=lambda v: (not v.name.isdigit(), int(v.name) if v.name.isdigit()
                                                       else 0, v.name)):
            for path, rel, _data in _skills_below(version, problems):
                where = f"/{rel}" if rel else ""
                ref = DocRef(f"skill-version:{uid}/{skill.name}/{version.name}{where}",
                             f"{skill.name} version {version.name}{where}", path,
                             f"Skills · earlier versions ({uid})", editable=False, readonly_reason=HISTORY_REASON,
                             source=HISTORY, derived_from=f"skill:user:{uid}/{skill.name}")
                docs.append(SkillDoc(ref, HISTORY, version, uid))
    return docs
