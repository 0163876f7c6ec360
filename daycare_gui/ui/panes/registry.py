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
    PaneSpec("users", "Users", "users", "UsersPane", icon="system-users"),
    PaneSpec("agents", "Agents", "agents", "AgentsPane", icon="applications-system"),
    PaneSpec("history", "Conversation", "generic.session", "SessionPane", in_nav=False),
    PaneSpec("search", "Search", "generic.search", "SourceSearchPane", in_nav=False),
    PaneSpec("inbox", "Inbox", "inbox", "InboxPane", icon="mail-message"),
    # the shared tasks page, one group each (jump routes stay ("cron" | "heartbeat", id))
    PaneSpec("cron", "Cron tasks", "generic.tasks", "TasksPane", icon="appointment-new", arg="cron"),
    PaneSpec("heartbeat", "Heartbeat tasks", "generic.tasks", "TasksPane", icon="view-refresh", arg="heartbeat"),
    PaneSpec("automations", "Automations", "generic.automations", "AutomationsPane", icon="view-calendar-list"),
    PaneSpec("apps", "Apps", "apps", "AppsPane", icon="applications-other"),
    PaneSpec("skills", "Skills", "generic.documents", "DocumentsPane", icon="applications-science",
             arg=("skills", "Skills")),
    PaneSpec("memory", "Memory", "generic.documents", "DocumentsPane", icon="accessories-text-editor",
             arg=("memory", "Memory")),
    PaneSpec("channels", "Channels", "subsystems", "ChannelsPane", icon="internet-group-chat"),
    PaneSpec("signals", "Signals", "subsystems", "SignalsPane", icon="dialog-information"),
    PaneSpec("processes", "Processes", "subsystems", "ProcessesPane", icon="utilities-system-monitor"),
    PaneSpec("expose", "Expose", "subsystems", "ExposePane", icon="network-server"),
    PaneSpec("system_prompts", "System prompts", "subsystems", "SystemPromptsPane", icon="document-properties"),
    PaneSpec("settings", "Settings and auth", "generic.documents", "DocumentsPane", icon="preferences-system",
             arg=("settings", "Settings")),
    PaneSpec("files", "Files", "generic.files", "FilesPane", icon="folder"),
    PaneSpec("storage", "Storage", "generic.storage", "StoragePane", icon="drive-harddisk"),
    PaneSpec("problems", "Problems", "generic.problems", "ProblemsPane", icon="dialog-warning"),
)

BY_ID = {p.id: p for p in PANES}


def sections(opened) -> tuple[PaneSpec, ...]:
    """Daycare's sections (this module is the Daycare kind's ``ui_module``): its own panes for the legacy
    and SQLite generations, the shared ones for a PGlite or PostgreSQL store."""
    if getattr(opened, "core", None) is not None:
        return PANES
    from daycare_gui.ui.panes.generic import generic_sections

    return generic_sections(opened)


# Where Daycare's own panes open a quick-open entry of each kind (``stores.daycare.directory`` makes them).
_JUMP_SECTIONS = {"agent": "agents", "user": "users", "app": "apps", "table": "storage"}


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
