"""Memory: the memory plugin's entities (one Markdown file each, ``## record`` sections) and whether
INDEX.md lists them — the plugin ignores entities it does not list."""

from __future__ import annotations

from daycare_gui.core.files.plugins import MemoryEntity
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.editors.pane_actions import EditActions
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.widgets.browse_pane import BrowsePane


def _index_status(entity: MemoryEntity) -> str:
    return "listed" if entity.listed_in_index else "not listed (ignored)"


def entity_markdown(entity: MemoryEntity) -> str:
    parts = []
    if entity.prefix.strip():
        parts.append(entity.prefix.strip() + "\n")
    if entity.description:
        parts.append(f"*{entity.description}*\n")
    for record in entity.records:
        parts.append(f"## {record.title}\n\n{record.body}\n")
    if not entity.records:
        parts.append("*No `## record` sections.*")
    return "\n".join(parts)


class MemoryPane(BrowsePane):
    pane_id = "memory"
    title = "Memory"
    noun = "entity"
    filter_placeholder = "Filter memory entities by name or description (Ctrl+F)"
    columns = [
        Column("Entity", lambda e: e.entity, tooltip=lambda e: e.path),
        Column("Name", lambda e: e.name or ""),
        Column("Records", lambda e: len(e.records), align_right=True),
        Column("INDEX.md", _index_status),
        Column("Plugin", lambda e: e.instance_id),
        Column("Description", lambda e: e.description or ""),
    ]

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.edit_actions = EditActions(self, "memory")  # Edit… buttons above the viewer

    def key(self, entity: MemoryEntity) -> str:
        return entity.path

    link_kind = "doc"  # keyed by path, like its key

    def matches(self, entity: MemoryEntity, target) -> bool:
        return target in (entity.path, entity.entity)

    def fetch(self, store) -> list[MemoryEntity]:
        return list(store.files().items("memory_entities"))

    def state(self, entity: MemoryEntity) -> str | None:
        return None if entity.listed_in_index else "ignored"

    def describe(self, entity: MemoryEntity) -> DetailItem:
        fields = [("Entity", entity.entity), ("Name", entity.name or ""), ("Description", entity.description or ""),
                  ("Records", str(len(entity.records))), ("INDEX.md", _index_status(entity)),
                  ("Plugin instance", entity.instance_id), ("Path", entity.path)]
        fields += [("Record", r.title) for r in entity.records]
        fields += [(f"Frontmatter {k}", str(v)) for k, v in entity.extra.items()]
        return DetailItem(f"Memory {entity.name or entity.entity}", tuple(fields), entity.to_dict(),
                          markdown=entity_markdown(entity))

    def present(self, entity: MemoryEntity) -> None:
        note = f"{entity.path} · {count(len(entity.records), 'record')} · INDEX.md: {_index_status(entity)}"
        self.viewer.show_markdown(entity.name or entity.entity, entity_markdown(entity), note, entity.path)
