"""Shared panes bound to capabilities, for any store kind, and the navigation built from them.

A kind may name and order its sections (``OpenedStore.sections``: Daycare keeps the ids its deep links have
always used); each is shown by the shared pane for what it shows, and left out when the store does not
offer its capability. A kind that names none gets one section per capability offered: Overview and
Problems always, then Conversations, Search, Tasks, Automations, Documents, Files, one section per
Collection, Costs, and Storage (tables, migrations and space). Nothing here asks which kind it has.
"""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.ui.panes.registry import PaneSpec

# What each kind of section shows: its shared pane, and the capability without which it is left out.
PANES_FOR = {
    "overview": ("generic.overview", "StoreOverviewPane", None),
    "conversations": ("generic.conversations", "ConversationsPane", api.Conversations),
    "session": ("generic.session", "SessionPane", api.Conversations),
    "search": ("generic.search", "SourceSearchPane", api.SearchSource),
    "tasks": ("generic.tasks", "TasksPane", api.Tasks),
    "automations": ("generic.automations", "AutomationsPane", api.Automations),
    "documents": ("generic.documents", "DocumentsPane", api.Documents),
    "files": ("generic.files", "FilesPane", api.Files),
    "costs": ("generic.costs", "CostsPane", api.Usage),
    "actions": ("generic.actions", "ActionsPane", api.Actions),
    "problems": ("generic.problems", "ProblemsPane", None),
}


def sections_for(opened) -> tuple[PaneSpec, ...]:
    """The navigation for ``opened``: the sections its kind names (``OpenedStore.sections``), each shown by
    the shared pane for what it shows, or else one section per capability offered."""
    try:
        named = opened.sections()
    except Exception:  # a kind's bug must not stop the window from opening: the shared layout
        named = None
    return generic_sections(opened) if named is None else tuple(_specs_of(opened, named))


def _specs_of(opened, sections):
    listed = None
    for section in sections:
        if section.shows == "collection":
            if listed is None:
                cap = opened.capability(api.Collections)
                try:
                    listed = {c.id: c for c in cap.collections()} if cap is not None else {}
                except Exception:
                    listed = {}
            spec = _collection_spec(opened, section, listed)
        elif section.shows == "tasks" and isinstance(section.arg, str) and not _has_group(opened, section.arg):
            spec = None  # a task group this store does not keep (today's Daycare has no heartbeats)
        elif section.shows == "storage":
            spec = (PaneSpec(section.id, section.title, "generic.storage", "StoragePane", section.in_nav,
                             section.icon, section.arg, section.group, section.shows)
                    if opened.capability(api.Tables) is not None or opened.capability(api.Storage) is not None
                    else None)
        else:
            module, cls, needs = PANES_FOR[section.shows]
            spec = (PaneSpec(section.id, section.title, module, cls, section.in_nav, section.icon, section.arg,
                             section.group, section.shows)
                    if needs is None or opened.capability(needs) is not None else None)
        if spec is not None:
            yield spec


def _has_group(opened, group: str) -> bool:
    cap = opened.capability(api.Tasks)
    if cap is None:
        return False
    try:
        groups = cap.groups()
    except Exception:  # a kind's bug: show the section, its page says what it finds
        return True
    return not groups or group in {kind for kind, _title in groups}


def _collection_spec(opened, section, listed: dict):
    """A section over one list (or sibling lists as tabs): left out when the store has none of them (a
    legacy store has no users); a list read whole gets the collection pane with its ``Collection``."""
    ids = section.arg if isinstance(section.arg, tuple) else (section.arg,)
    found = [listed[i] for i in ids if i in listed]
    if not found:
        return None
    keyed = isinstance(opened.capability(api.Collections), api.Listing) and all(c.keyed and not c.tree
                                                                               for c in found)
    module, cls, arg = (("generic.listing", "ListingPane", section.arg) if keyed
                        else ("generic.collection", "CollectionPane", found[0]))
    return PaneSpec(section.id, section.title, module, cls, section.in_nav, section.icon or found[0].icon, arg,
                    section.group, section.shows)


def counts_for(opened, specs) -> dict[str, int | None]:
    """The navigation's counts (on the background worker)."""
    return section_counts(opened, specs)


def route_for(opened, entry) -> tuple[str, object]:
    """Where a quick-open entry (or a deep link) opens: (section id, the target its pane opens). A kind
    that names its sections routes its entries among them (``OpenedStore.route``)."""
    try:
        found = opened.route(entry)
    except Exception:
        found = None
    return found if found is not None else generic_route(entry)


def link_route(opened, link) -> tuple[str, object] | None:
    """Where a row's link leads, routed as quick open routes (a session to the store's conversation page, a
    row to the section showing its list, the thread list filtered or at one thread); None for a link that
    opens no section (a document's editor)."""
    from daycare_gui.stores.records import JumpEntry

    if link.target == "session":
        ref = link.value
        return route_for(opened, JumpEntry("session", ref.session_id, ref.session_id, ref=ref))
    if link.target == "row":
        cid, key = link.value
        return route_for(opened, JumpEntry("row", str(key), str(key), ref=key, collection=cid))
    if link.target in ("threads", "thread"):
        return route_for(opened, JumpEntry("agent", "", ""))[0], link.value
    return None


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
    out = [PaneSpec("overview", "Overview", "generic.overview", "StoreOverviewPane", icon="go-home",
                    shows="overview")]
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
    """Counts for the navigation, computed on the background worker: each section counts what it shows
    (a task group's tasks, a documents shelf's documents, a list's items: ``count_of`` a group or shelf,
    which a kind answers with a count query rather than listing everything). A section of sibling lists
    counts them all, as its page does once open (and is folded away as empty only when every tab is)."""
    caps = {"conversations": api.Conversations, "tasks": api.Tasks, "documents": api.Documents,
            "storage": api.Tables, "files": api.Files, "automations": api.Automations}
    out: dict[str, int | None] = {}
    for spec in specs:
        shows = spec.shows or ("collection" if spec.id.startswith("collection:") else spec.id)
        try:
            if shows == "collection":
                out[spec.id] = _list_count(opened.capability(api.Collections), spec.arg)
            elif shows == "tasks" and isinstance(spec.arg, str):
                out[spec.id] = opened.capability(api.Tasks).count_of(spec.arg)
            elif shows == "documents" and isinstance(spec.arg, tuple):
                out[spec.id] = opened.capability(api.Documents).count_of(spec.arg[1])
            elif shows in caps:
                cap = opened.capability(caps[shows])
                out[spec.id] = cap.count() if cap is not None else None
        except Exception:  # counts are a courtesy: a failing one stays blank
            out[spec.id] = None
    out["problems"] = len(opened.problems)
    return out


def _list_count(cap, arg) -> int | None:
    if hasattr(arg, "id"):
        ids = (arg.id,)
    else:
        listed = {c.id for c in cap.collections()}
        ids = tuple(i for i in (arg if isinstance(arg, tuple) else (arg,)) if i in listed)
    total = 0
    for cid in ids:
        items = cap.items(cid)  # (a tree's own items, not its group rows)
        total += items if items is not None else cap.size(cid)
    return total
