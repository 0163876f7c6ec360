"""How Daycare's SQLite and legacy stores lay out the window: section ids, titles and order as Daycare's
users have always found them (deep links name these ids), each shown by a shared pane; and where a
quick-open entry or a deep link opens among them. Qt-free: the window maps ``Section.shows`` to a pane."""

from __future__ import annotations

from daycare_gui.stores.records import JumpEntry, Section

SECTIONS: tuple[Section, ...] = (
    Section("overview", "Overview", "overview", icon="go-home"),
    Section("collection:users", "Users", "collection", arg="users", icon="system-users"),
    Section("agents", "Agents", "conversations", icon="applications-system"),
    Section("history", "Conversation", "session", in_nav=False),
    Section("search", "Search", "search", in_nav=False),
    Section("inbox", "Inbox", "collection", arg="inbox", icon="mail-message"),
    Section("cron", "Cron tasks", "tasks", arg="cron", icon="appointment-new"),
    Section("heartbeat", "Heartbeat tasks", "tasks", arg="heartbeat", icon="view-refresh"),
    Section("automations", "Automations", "automations", icon="view-calendar-list"),
    Section("apps", "Apps", "collection", arg="apps", icon="applications-other"),
    Section("skills", "Skills", "documents", arg=("skills", "Skills"), icon="applications-science"),
    Section("memory", "Memory", "documents", arg=("memory", "Memory"), icon="accessories-text-editor"),
    Section("channels", "Channels", "collection", arg="channels", icon="internet-group-chat"),
    Section("signals", "Signals", "collection", arg=("signals", "subscriptions", "delayed"),
            icon="dialog-information"),
    Section("processes", "Processes", "collection", arg="processes", icon="utilities-system-monitor"),
    Section("expose", "Expose", "collection", arg="expose", icon="network-server"),
    Section("system_prompts", "System prompts", "collection", arg="system_prompts", icon="document-properties"),
    Section("settings", "Settings and auth", "documents", arg=("settings", "Settings"), icon="preferences-system"),
    Section("files", "Files", "files", icon="folder"),
    Section("costs", "Costs", "costs", icon="view-list-details"),
    Section("storage", "Storage", "storage", icon="drive-harddisk"),
    Section("problems", "Problems", "problems", icon="dialog-warning"),
)

# Where a quick-open entry of each kind opens (``stores.daycare.directory`` makes them).
_BY_KIND = {"agent": "agents", "user": "collection:users", "app": "apps", "table": "storage"}


def route(entry: JumpEntry, *, legacy: bool) -> tuple[str, object]:
    """(section id, target) for a quick-open entry or a deep link on a SQLite or legacy store."""
    if entry.kind == "section":
        return entry.key, None
    if entry.kind == "session":
        return "history", entry.ref
    if entry.kind == "message":  # a search hit: the history at that record (a legacy one: its session)
        ref = entry.ref.ref
        if legacy:
            number = ref.session_id.rpartition("#")[2]
            return "history", ("legacy", ref.thread_id, int(number) - 1 if number.isdigit() else 0)
        record = entry.ref.message_id
        return "history", (ref.thread_id, ref.session_id, int(record) if record.isdigit() else None)
    if entry.kind in ("task", "doc") and isinstance(entry.ref, tuple):
        return entry.ref  # ("cron" | "heartbeat" | "memory" | "skills" | "settings" | "agents", key)
    if entry.collection:
        return (entry.collection if entry.collection in {s.id for s in SECTIONS}
                else f"collection:{entry.collection}"), entry.ref if entry.ref is not None else entry.key
    return _BY_KIND.get(entry.kind, ""), entry.ref if entry.ref is not None else entry.key
