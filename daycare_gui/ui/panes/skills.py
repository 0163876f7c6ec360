"""Skills: every SKILL.md Daycare can load, where it comes from (user, config, plugin, home) and its body."""

from __future__ import annotations

from daycare_gui.core.files.skills import Skill
from daycare_gui.core.queries.names import Names, load_names
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.editors.pane_actions import EditActions
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.widgets.browse_pane import BrowsePane

SOURCE_WORDS = {"user": "a user's skills folder", "config": "the config dir", "plugin": "a plugin folder",
                "home": "~/.agents/skills"}


def _sandbox(value) -> str:
    return "" if value is None else ("yes" if value else "no")


def _source(skill: Skill, names: Names) -> str:
    if skill.source == "user" and skill.user_id:
        return f"user {names.user(skill.user_id)}"
    if skill.source == "plugin" and skill.plugin_id:
        return f"plugin {skill.plugin_id}"
    return skill.source


class SkillsPane(BrowsePane):
    pane_id = "skills"
    title = "Skills"
    noun = "skill"
    filter_placeholder = "Filter skills by name, description, source or path (Ctrl+F)"

    @property
    def columns(self) -> list[Column]:
        # a user's skill names the user (self.names arrives with the list), the id in the tooltip
        return [
            Column("Name", lambda s: s.name, tooltip=lambda s: s.id),
            Column("Source", lambda s: _source(s, self.names), tooltip=lambda s: s.user_id or s.root),
            Column("Sandbox", lambda s: _sandbox(s.sandbox)),
            Column("Permissions", lambda s: ", ".join(s.permissions)),
            Column("Description", lambda s: s.description or ""),
            Column("Path", lambda s: s.path),
        ]

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.edit_actions = EditActions(self, "skill")  # Edit… buttons above the viewer

    def key(self, skill: Skill) -> str:
        return skill.id

    link_kind = "doc"

    def link_key(self, skill: Skill) -> str:
        return skill.path

    def matches(self, skill: Skill, target) -> bool:
        return target in (skill.id, skill.path, skill.name)

    def fetch(self, store) -> list[Skill]:
        return list(store.files().items("skills"))

    def fetch_names(self, store, records) -> Names:
        return load_names(store)

    def describe(self, skill: Skill) -> DetailItem:
        fields = [("Id", skill.id), ("Name", skill.name), ("Description", skill.description or ""),
                  ("Sandbox", _sandbox(skill.sandbox) or "(not set)"),
                  ("Permissions", ", ".join(skill.permissions) or "(none)"),
                  ("Tools", ", ".join(skill.tools)), ("Category", skill.category or ""),
                  ("Source", f"{_source(skill, self.names)} — {SOURCE_WORDS.get(skill.source, skill.source)}"),
                  ("Path", skill.path), ("Root", skill.root)]
        if skill.user_id:
            fields.append(("User", self.names.user_field(skill.user_id)))
        fields += [(f"Frontmatter {k}", str(v)) for k, v in skill.extra.items()]
        return DetailItem(f"Skill {skill.name}", tuple(fields), skill.to_dict())

    def present(self, skill: Skill) -> None:
        # The body is not part of the scanned record; read the file (in the worker) like any document.
        self.show_document(skill.path, skill.name)
