"""Every navigation section in one place: id, title, where its pane lives.

Panes are imported lazily, the first time they are shown, so start-up only pays for what is seen.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class PaneSpec:
    id: str
    title: str
    module: str  # under daycare_gui.ui.panes
    cls: str
    in_nav: bool = True
    icon: str = ""  # a freedesktop theme icon name, with a fallback in the view
    arg: object = None  # handed to the pane as ``ctx.arg`` (a generic pane's collection id, say)
    group: str = ""  # shown under a collapsed group node in the navigation ("History")


PANES: tuple[PaneSpec, ...] = (
    PaneSpec("overview", "Overview", "generic.overview", "StoreOverviewPane", icon="go-home"),
    PaneSpec("collection:users", "Users", "generic.collection", "CollectionPane", icon="system-users"),  # arg: _shared
    PaneSpec("agents", "Agents", "generic.conversations", "ConversationsPane", icon="applications-system"),
    PaneSpec("history", "Conversation", "generic.session", "SessionPane", in_nav=False),
    PaneSpec("search", "Search", "generic.search", "SourceSearchPane", in_nav=False),
    PaneSpec("inbox", "Inbox", "generic.listing", "ListingPane", icon="mail-message", arg="inbox"),
    # the shared tasks page, one group each (jump routes stay ("cron" | "heartbeat", id))
    PaneSpec("cron", "Cron tasks", "generic.tasks", "TasksPane", icon="appointment-new", arg="cron"),
    PaneSpec("heartbeat", "Heartbeat tasks", "generic.tasks", "TasksPane", icon="view-refresh", arg="heartbeat"),
    PaneSpec("automations", "Automations", "generic.automations", "AutomationsPane", icon="view-calendar-list"),
    PaneSpec("apps", "Apps", "generic.listing", "ListingPane", icon="applications-other", arg="apps"),
    PaneSpec("skills", "Skills", "generic.documents", "DocumentsPane", icon="applications-science",
             arg=("skills", "Skills")),
    PaneSpec("memory", "Memory", "generic.documents", "DocumentsPane", icon="accessories-text-editor",
             arg=("memory", "Memory")),
    PaneSpec("channels", "Channels", "generic.listing", "ListingPane", icon="internet-group-chat", arg="channels"),
    PaneSpec("signals", "Signals", "generic.listing", "ListingPane", icon="dialog-information",
             arg=("signals", "subscriptions", "delayed")),
    PaneSpec("processes", "Processes", "generic.listing", "ListingPane", icon="utilities-system-monitor",
             arg="processes"),
    PaneSpec("expose", "Expose", "generic.listing", "ListingPane", icon="network-server", arg="expose"),
    PaneSpec("system_prompts", "System prompts", "generic.listing", "ListingPane", icon="document-properties",
             arg="system_prompts"),
    PaneSpec("settings", "Settings and auth", "generic.documents", "DocumentsPane", icon="preferences-system",
             arg=("settings", "Settings")),
    PaneSpec("files", "Files", "generic.files", "FilesPane", icon="folder"),
    PaneSpec("costs", "Costs", "generic.costs", "CostsPane", icon="view-list-details"),  # the shared page (#37)
    PaneSpec("storage", "Storage", "generic.storage", "StoragePane", icon="drive-harddisk"),
    PaneSpec("problems", "Problems", "generic.problems", "ProblemsPane", icon="dialog-warning"),
)

BY_ID = {p.id: p for p in PANES}


def sections(opened) -> tuple[PaneSpec, ...]:
    """Daycare's sections (this module is the Daycare kind's ``ui_module``): its own panes for the legacy
    and SQLite generations, the shared ones for a PGlite or PostgreSQL store."""
    if getattr(opened, "core", None) is not None:
        return tuple(s for s in (_shared(opened, spec) for spec in PANES) if s is not None)
    from daycare_gui.ui.panes.generic import generic_sections

    return generic_sections(opened)


def _shared(opened, spec: PaneSpec) -> PaneSpec | None:
    """A Daycare section a shared pane shows, with the collection it lists (None: the store has none, as a
    legacy store has no users yet); every other section as it is."""
    if spec.module != "generic.collection":
        return spec
    from dataclasses import replace

    from daycare_gui.stores.api import Collections

    cap = opened.capability(Collections)
    wanted = spec.id.split(":", 1)[1]
    found = next((c for c in (cap.collections() if cap is not None else []) if c.id == wanted), None)
    return replace(spec, arg=found) if found is not None else None


# Where Daycare's own panes open a quick-open entry of each kind (``stores.daycare.directory`` makes them).
_JUMP_SECTIONS = {"agent": "agents", "user": "collection:users", "app": "apps", "table": "storage"}


def jump_route(opened, entry) -> tuple[str, object]:
    """(section id, target) for a quick-open entry or a deep link; the shared panes' routes for a PGlite or
    PostgreSQL store."""
    from daycare_gui.ui.panes.generic import generic_route

    if getattr(opened, "core", None) is None:
        return generic_route(entry)
    if entry.kind == "section":
        return entry.key, None
    if entry.kind == "session":
        return "history", entry.ref
    if entry.kind == "message":  # a search hit: the history at that record (a legacy one: its session)
        ref = entry.ref.ref
        if opened.core.db is None:
            number = ref.session_id.rpartition("#")[2]
            return "history", ("legacy", ref.thread_id, int(number) - 1 if number.isdigit() else 0)
        record = entry.ref.message_id
        return "history", (ref.thread_id, ref.session_id, int(record) if record.isdigit() else None)
    if entry.kind in ("task", "doc") and isinstance(entry.ref, tuple):
        return entry.ref  # ("cron" | "heartbeat" | "memory" | "skills", key)
    return _JUMP_SECTIONS.get(entry.kind, ""), entry.ref if entry.ref is not None else entry.key


def section_counts(opened, specs) -> dict[str, int | None]:
    """Counts for Daycare's own sections (table counts); the shared panes' from their capabilities."""
    if getattr(opened, "core", None) is None:
        from daycare_gui.ui.panes.generic import section_counts as shared

        return shared(opened, specs)
    from daycare_gui.core.counts import nav_counts
    from daycare_gui.ui.panes.generic import section_counts as shared

    return {**shared(opened, specs), **nav_counts(opened.core)}


def pane_class(spec: PaneSpec):
    """The pane class, or a placeholder when its module is not there (keeps the window usable)."""
    try:
        module = importlib.import_module(f"daycare_gui.ui.panes.{spec.module}")
        return getattr(module, spec.cls)
    except (ImportError, AttributeError):
        from daycare_gui.ui.panes.placeholder import placeholder_for

        return placeholder_for(spec)
