"""Documents and Files of a Daycare SQLite or legacy store, through the data directory's shared code.

Skills and memory entities come from the core's file inventory (the roots those generations read:
each user's ``skills/``, ``<configDir>/skills``, plugin folders; ``plugins/<id>/*.md`` with INDEX.md);
settings, auth, agents' prompt files, saving (backup, conflict check, engine check), field splices and
the Files roots are ``stores/daycare/datadir``'s, the same as beside a PGlite store.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.api import EditableField, WriteRefused
from daycare_gui.stores.daycare.datadir.agent_files import find_agent_files
from daycare_gui.stores.daycare.datadir.config_docs import MEMORY, config_docs
from daycare_gui.stores.daycare.datadir.documents import DataDirDocuments
from daycare_gui.stores.daycare.datadir.files import daycare_files
from daycare_gui.stores.daycare.datadir.reading import subfolders
from daycare_gui.stores.daycare.datadir.skills import SkillDoc, user_label
from daycare_gui.stores.records import DocRef

SOURCE_WORDS = {"user": "a user's skills folder", "config": "the config dir", "plugin": "a plugin folder",
                "home": "~/.agents/skills"}
HOME_REASON = "a skill in ~/.agents/skills, outside Daycare's data directory (other tools share it)"
NOT_LISTED = "not in INDEX.md"
SKILLS = "Skills"  # the memory plugin ignores an entity its INDEX.md does not list


def _yes_no(value) -> str:
    return "" if value is None else ("yes" if value else "no")


def skill_source(skill, names: dict[str, str]) -> str:
    if skill.source == "user" and skill.user_id:
        return f"user {names.get(skill.user_id, skill.user_id)}"
    if skill.source == "plugin" and skill.plugin_id:
        return f"plugin {skill.plugin_id}"
    return skill.source


def skill_doc(skill, names: dict[str, str]) -> SkillDoc:
    source = skill_source(skill, names)
    home = skill.source == "home"
    meta = (("Description", skill.description or ""), ("Sandbox", _yes_no(skill.sandbox) or "(not set)"),
            ("Permissions", ", ".join(skill.permissions) or "(none)"), ("Tools", ", ".join(skill.tools)),
            ("Category", skill.category or ""),
            ("Source", f"{source} — {SOURCE_WORDS.get(skill.source, skill.source)}"), ("Root", skill.root))
    ref = DocRef(skill.id, skill.name, Path(skill.path), SKILLS, editable=not home,
                 readonly_reason=HOME_REASON if home else "", source=source, thread_id="", meta=meta)
    return SkillDoc(ref, skill.source, Path(skill.root), skill.user_id or "")


def memory_doc(entity) -> SkillDoc:
    listed = "listed" if entity.listed_in_index else "not listed (ignored)"
    meta = (("Entity", entity.entity), ("Description", entity.description or ""),
            ("Records", str(len(entity.records))), ("INDEX.md", listed), ("Plugin instance", entity.instance_id),
            *(("Record", r.title) for r in entity.records))
    ref = DocRef(f"memory:{entity.path}", entity.name or entity.entity, Path(entity.path), "Memory",
                 source=entity.instance_id, flag="" if entity.listed_in_index else NOT_LISTED, meta=meta)
    return SkillDoc(ref, MEMORY, Path(entity.path).parent)


KNOWLEDGE = "knowledge"  # a user's home/knowledge/MEMORY.md: what every agent of that user reads as memory


def knowledge_memory_docs(users_dirs, names: dict[str, str]) -> list[SkillDoc]:
    """Each user's ``home/knowledge/MEMORY.md`` on the Memory shelf, titled by its user (plain Markdown: no
    frontmatter, edited as text); reads and writes stay in that knowledge folder."""
    out = []
    for users_dir in users_dirs:
        for user in subfolders(users_dir):
            path = user / "home" / "knowledge" / "MEMORY.md"
            if not path.is_file():
                continue
            uid = user_label(user)
            name = names.get(uid, uid)
            ref = DocRef(f"{KNOWLEDGE}:{path}", f"MEMORY.md · {name}", path, "Memory", frontmatter=False,
                         source=f"user {name}", meta=(("User", name), ("Read by", "every agent of this user")))
            out.append(SkillDoc(ref, KNOWLEDGE, path.parent, uid))
    return out


class InventoryDocuments(DataDirDocuments):
    """``core``: the SQLite or legacy store (its file inventory, its users' names, its engine)."""

    def __init__(self, core) -> None:
        super().__init__(core.paths, core.problems, _engine_check(core), None)
        self.core = core

    def _find(self) -> list[SkillDoc]:
        inventory = self.core.files()
        names = user_names(self.core)
        p = self.paths
        return ([skill_doc(s, names) for s in inventory.items("skills")]
                + [memory_doc(e) for e in inventory.items("memory_entities")]
                + knowledge_memory_docs(p.users_dirs, names)
                + find_agent_files(p.agents_dir, self.problems)
                + config_docs(p.config_dir, p.settings_path, p.auth_path))

    def memory_of(self, thread_id: str) -> list[DocRef]:
        """The agent's user's MEMORY.md (what Daycare's agents read as their memory)."""
        if self.core.db is None or not thread_id:
            return []
        rows = self.core.db.rows("SELECT user_id FROM agents WHERE id = :a", {"a": thread_id})
        user_id = rows[0][0] if rows else None
        return [d.ref for d in self.files() if d.source == KNOWLEDGE and user_id and d.user_id == user_id]

    def _known(self, ref: DocRef) -> SkillDoc | None:
        """A document by id, or by its path (the deep links of Daycare's own pages named skills by path)."""
        files = self.files()
        return (next((d for d in files if d.ref.id == ref.id and (ref.path is None or d.ref.path == ref.path)), None)
                or next((d for d in files if ref.path is not None and d.ref.path == ref.path), None))


    # -- New… and Delete… for skills (restored through the store's Trash) ---------------------------------
    def _skill_places(self) -> list[tuple[str, Path]]:
        """Where a new skill may go: the config folder's skills, then each user's (folders Daycare reads)."""
        p = self.paths
        places = [("config skills", p.config_dir / "skills")]
        for users_dir in p.users_dirs:
            places += [(f"user {user.name}", user / "skills") for user in subfolders(users_dir)]
        return places

    def creatable(self, group: str):
        if group != SKILLS:
            return ()
        labels = tuple(label for label, _ in self._skill_places())
        return (EditableField("location", "Where", "choice", labels, default=labels[0]),
                EditableField("name", "Name"), EditableField("description", "Description"))

    def _engine_allows(self, target: Path, force: bool) -> None:
        from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason

        reason = None if force else engine_running_reason(file=target, paths=self.paths)
        if reason:
            raise WriteRefused(reason)

    def create(self, group: str, values: dict, *, force: bool = False) -> Path:
        from daycare_gui.stores.common.edit.errors import InvalidValue
        from daycare_gui.stores.daycare.edit.create import create_skill

        places = dict(self._skill_places())
        if group != SKILLS:
            return super().create(group, values, force=force)
        where = places.get(values.get("location") or "config skills")
        name, description = str(values.get("name") or "").strip(), str(values.get("description") or "").strip()
        if where is None or not name:
            raise WriteRefused("A new skill needs a name and a place Daycare reads skills from.")
        self._engine_allows(where, force)
        try:
            path = create_skill(where, name, description)
        except (InvalidValue, OSError) as exc:  # (FileExistsError: a skill of that name is there already)
            raise WriteRefused(str(exc)) from exc
        self.refresh()
        return path

    def deletable(self, ref: DocRef) -> bool:
        known = self._known(ref)
        return (known is not None and known.source in ("user", "config", "plugin") and known.ref.editable
                and known.ref.path is not None and known.ref.path.parent != known.folder)

    def delete(self, ref: DocRef, *, force: bool = False) -> str:
        from daycare_gui.stores.common.edit.trash import TrashError, TrashIncomplete, move_to_trash, trash_dir

        known = self._known(ref)
        if known is None or not self.deletable(ref):  # (a SKILL.md at a root: its folder is the whole root)
            raise WriteRefused(f"{ref.title} cannot be deleted here")
        folder = known.ref.path.parent
        self._engine_allows(folder, force)
        try:
            move_to_trash(self.paths, folder)
        except TrashIncomplete as exc:  # whole in the trash, part of the original still there: both shown
            self.refresh()
            return str(exc)
        except TrashError as exc:
            raise WriteRefused(str(exc)) from exc
        self.refresh()
        return f"Moved {folder} to the trash ({trash_dir(self.paths)}); Deleted Items restores it."


def _engine_check(core):
    def blocked() -> str | None:
        # Asked of the pid file and socket at each save: an engine started after the store was opened
        # (core.engine is what was seen then) must stop a save too.
        from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason

        return engine_running_reason(paths=core.paths)
    return blocked


def user_names(core) -> dict[str, str]:
    if core.db is None:
        return {}
    from daycare_gui.stores.daycare.sqlite.queries.names import user_names as names_of

    try:
        return names_of(core)
    except Exception:  # names are a courtesy: ids still tell users apart
        return {}


def offer_documents_and_files(store) -> None:
    from daycare_gui.stores.api import Documents, Files

    core = store.core
    store.offer(Documents, InventoryDocuments(core))
    store.offer(Files, daycare_files(core.paths, lambda: user_names(core)))
