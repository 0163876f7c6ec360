"""Shared panes bound to capabilities, for any store kind, and the navigation built from them.

A kind without a UI module of its own gets exactly the sections its opened store offers: Overview and
Problems always, then Conversations, Search, Tasks, Documents, one section per Collection, and Storage
(tables and migrations).
Nothing here asks which kind it has.
"""

from __future__ import annotations

import importlib

from daycare_gui.stores import api
from daycare_gui.ui.panes.registry import PaneSpec


def sections_for(opened) -> tuple[PaneSpec, ...]:
    """The navigation for ``opened``: its kind's own sections when it registers a UI module, else the
    shared ones its capabilities call for."""
    from daycare_gui.stores.registry import load_kind

    module_name = getattr(load_kind(opened.kind), "ui_module", None)
    if module_name:
        try:
            return tuple(importlib.import_module(module_name).sections(opened))
        except (ImportError, AttributeError):
            pass  # a kind's UI that does not load still opens with the shared panes
    return generic_sections(opened)


def counts_for(opened, specs) -> dict[str, int | None]:
    """The navigation's counts (on the background worker): a kind with its own UI module counts its own
    sections (``section_counts``), and the shared ones are counted from capabilities."""
    from daycare_gui.stores.registry import load_kind

    module_name = getattr(load_kind(opened.kind), "ui_module", None)
    if module_name:
        try:
            return importlib.import_module(module_name).section_counts(opened, specs)
        except (ImportError, AttributeError):
            pass
    return section_counts(opened, specs)


def route_for(opened, entry) -> tuple[str, object]:
    """Where a quick-open entry (or a deep link) opens: (section id, the target its pane opens). A kind
    with its own UI module routes its entries there (``jump_route``); the shared panes route by kind."""
    from daycare_gui.stores.registry import load_kind

    module_name = getattr(load_kind(opened.kind), "ui_module", None)
    if module_name:
        try:
            return importlib.import_module(module_name).jump_route(opened, entry)
        except (ImportError, AttributeError):
            pass
    return generic_route(entry)


GENERIC_SECTIONS = {"agent": "conversations", "session": "conversations", "message": "conversations",
                    "task": "tasks", "doc": "documents", "table": "storage", "files": "files"}


def generic_route(entry) -> tuple[str, object]:
    if entry.kind == "section":
        return entry.key, None
    target = entry.ref if entry.ref is not None else entry.key
    if entry.collection:  # a row of a kind's list (a PostgreSQL store's users and mini apps)
        return f"collection:{entry.collection}", target
    return GENERIC_SECTIONS.get(entry.kind, ""), target


def generic_sections(opened) -> tuple[PaneSpec, ...]:
    out = [PaneSpec("overview", "Overview", "generic.overview", "StoreOverviewPane", icon="go-home")]
    conversations = opened.capability(api.Conversations)
    if conversations is not None:
        out.append(PaneSpec("conversations", conversations.thread_label, "generic.conversations",
                            "ConversationsPane", icon="internet-group-chat"))
    if opened.capability(api.SearchSource) is not None:  # the id Ctrl+Shift+F goes to, as for Daycare
        out.append(PaneSpec("search", "Search", "generic.search", "SourceSearchPane", icon="edit-find"))
    if opened.capability(api.Tasks) is not None:
        out.append(PaneSpec("tasks", "Scheduled tasks", "generic.tasks", "TasksPane", icon="appointment-new"))
    if opened.capability(api.Automations) is not None:  # scheduled runs: what ran, whether it worked
        out.append(PaneSpec("automations", "Automations", "generic.automations", "AutomationsPane",
                            icon="view-calendar-list"))
    if opened.capability(api.Documents) is not None:
        out.append(PaneSpec("documents", "Documents", "generic.documents", "DocumentsPane",
                            icon="accessories-text-editor"))
    if opened.capability(api.Files) is not None:
        out.append(PaneSpec("files", "Files", "generic.files", "FilesPane", icon="folder"))
    collections = opened.capability(api.Collections)
    if collections is not None:
        try:
            listed = collections.collections()
        except Exception:  # a kind's bug must not stop the window from opening
            listed = []
        keyed = isinstance(collections, api.Listing)  # filtered by the store: the keyed list pane
        for c in listed:
            if c.detail:  # a child list: shown under its parent's rows
                continue
            module, cls = ("generic.listing", "ListingPane") if keyed and c.keyed and not c.tree else \
                ("generic.collection", "CollectionPane")
            out.append(PaneSpec(f"collection:{c.id}", c.title, module, cls,
                                icon=c.icon or "view-list-details", arg=c, group=c.group))
    if opened.capability(api.Usage) is not None:
        out.append(PaneSpec("costs", "Costs", "generic.costs", "CostsPane", icon="view-list-details"))
    if opened.capability(api.Tables) is not None or opened.capability(api.Storage) is not None:
        out.append(PaneSpec("storage", "Storage", "generic.storage", "StoragePane", icon="drive-harddisk"))
    if opened.capability(api.Actions) is not None:
        out.append(PaneSpec("actions", "Checks and repairs", "generic.actions", "ActionsPane",
                            icon="preferences-system"))
    out.append(PaneSpec("problems", "Problems", "generic.problems", "ProblemsPane", icon="dialog-warning"))
    return tuple(out)


def section_counts(opened, specs: tuple[PaneSpec, ...]) -> dict[str, int | None]:
    """Counts for the navigation, computed on the background worker."""
    caps = {"conversations": api.Conversations, "tasks": api.Tasks, "documents": api.Documents,
            "storage": api.Tables, "files": api.Files, "automations": api.Automations}
    out: dict[str, int | None] = {}
    for spec in specs:
        try:
            if spec.id in caps:
                cap = opened.capability(caps[spec.id])
                out[spec.id] = cap.count() if cap is not None else None
            elif spec.id.startswith("collection:"):
                cap = opened.capability(api.Collections)
                items = cap.items(spec.arg.id)  # (a tree's own items, not its group rows)
                out[spec.id] = items if items is not None else cap.size(spec.arg.id)
        except Exception:  # counts are a courtesy: a failing one stays blank
            out[spec.id] = None
    out["problems"] = len(opened.problems)
    return out
