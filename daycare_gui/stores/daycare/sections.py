"""How every Daycare generation lays out the window: one table of sections (ids, titles, icons, order) as
Daycare's users have always found them (deep links name these ids), each shown by a shared pane; and where a
quick-open entry, a deep link or a search hit opens among them. Qt-free: the window maps ``Section.shows``
to a pane and leaves out a section whose lists or task group the store does not have.

The SQLite and legacy generations and today's (PGlite, PostgreSQL) share :data:`SECTIONS`, so a user who
upgrades finds each concept under the same name in the same place: a collection section names the lists of
every generation that hold it (SQLite's ``apps``, today's ``mini_apps`` with its code folders as a second
tab), a tasks section its group (Daycare's SQLite stores keep heartbeats, today's webhooks instead). What
only today's Daycare has (key/values, the observation log, row versions, the extra
files of its data directory) follows the shared sections, before Problems (:func:`today_sections`). The
history from before PGlite is part of today's Agents (``pg.before_pglite``), so it has no section."""

from __future__ import annotations

from daycare_gui.stores.records import Collection, JumpEntry, Section

SECTIONS: tuple[Section, ...] = (
    Section("overview", "Overview", "overview", icon="go-home"),
    Section("collection:users", "Users", "collection", arg="users", icon="system-users"),
    Section("agents", "Agents", "conversations", icon="applications-system"),
    Section("history", "Conversation", "session", in_nav=False),
    Section("search", "Search", "search", icon="edit-find"),
    Section("inbox", "Inbox", "collection", arg="inbox", icon="mail-message"),
    Section("cron", "Cron tasks", "tasks", arg="cron", icon="appointment-new"),
    Section("heartbeat", "Heartbeat tasks", "tasks", arg="heartbeat", icon="view-refresh"),
    Section("webhook", "Webhooks", "tasks", arg="webhook", icon="network-server"),
    Section("automations", "Automations", "automations", icon="view-calendar-list"),
    Section("apps", "Apps", "collection", arg=("apps", "mini_apps", "files:apps"), icon="applications-other"),
    Section("skills", "Skills", "documents", arg=("skills", "Skills"), icon="applications-science"),
    Section("memory", "Memory", "documents", arg=("memory", "Memory"), icon="accessories-text-editor"),
    Section("channels", "Channels", "collection", arg="channels", icon="internet-group-chat"),
    Section("signals", "Signals", "collection", arg=("signals", "subscriptions", "delayed"),
            icon="dialog-information"),
    Section("processes", "Processes", "collection", arg=("processes", "files:processes"),
            icon="utilities-system-monitor"),
    Section("expose", "Expose", "collection", arg="expose", icon="network-server"),
    Section("system_prompts", "System prompts", "collection", arg="system_prompts", icon="document-properties"),
    # SYSTEM.md, INFERENCE.md and compaction notes beside each agent (datadir.agent_files)
    Section("agent_files", "Prompt files", "documents", arg=("agent_files", "Agents' prompt files"),
            icon="document-properties"),
    Section("settings", "Settings and auth", "documents", arg=("settings", "Settings", "Settings and auth"),
            icon="preferences-system"),
    Section("files", "Files", "files", icon="folder"),
    Section("costs", "Costs", "costs", icon="view-list-details"),
    Section("storage", "Storage", "storage", icon="drive-harddisk"),
    Section("problems", "Problems", "problems", icon="dialog-warning"),
)

def _lists_of(section: Section) -> tuple[str, ...]:
    return section.arg if isinstance(section.arg, tuple) else (section.arg,)


def _by_list(sections: tuple[Section, ...]) -> dict[str, str]:
    """Collection id → the section showing it."""
    return {cid: s.id for s in sections if s.shows == "collection" for cid in _lists_of(s)}


def today_sections(collections: list[Collection]) -> tuple[Section, ...]:
    """Today's Daycare (PGlite, PostgreSQL): the shared sections, then each list only it has (those no
    shared section shows, in the groups the lists name: "Versions", "Data directory"), before Problems,
    which stays last as in every window."""
    shown = _by_list(SECTIONS)
    extra = []
    for c in collections:
        if c.detail or c.id in shown:  # a channel's members and messages are shown under the channel
            continue
        extra.append(Section(f"collection:{c.id}", c.title, "collection", arg=c.id,
                             icon=c.icon or "view-list-details", group=c.group))
    extra.sort(key=lambda s: bool(s.group))  # grouped lists after the single ones, as the navigation shows them
    *shared, problems = SECTIONS
    return (*shared, *extra, problems)


# Where a quick-open entry of each kind opens (``stores.daycare.directory`` makes them).
_BY_KIND = {"agent": "agents", "user": "collection:users", "app": "apps", "table": "storage"}

# Today's documents by the prefix of their id (``datadir.documents``; a row of the documents table has none).
_DOC_PREFIXES = (("skill", "skills"), ("agent-file:", "agent_files"), ("config:", "settings"))


def today_doc_section(doc_id: str) -> str:
    """The section a document of today's Daycare stands in (its skills, prompt files, settings, memory)."""
    return next((section for prefix, section in _DOC_PREFIXES if doc_id.startswith(prefix)), "memory")


def route(entry: JumpEntry, *, legacy: bool = False, today: bool = False) -> tuple[str, object]:
    """(section id, target) for a quick-open entry, a deep link or a search hit on a Daycare store: a
    legacy store (``legacy``), a SQLite one, or today's PGlite or PostgreSQL (``today``)."""
    if entry.kind == "section":
        return entry.key, None
    if entry.kind == "session":
        return "history", entry.ref
    if entry.kind == "message":  # a search hit: the history at that record (a legacy one: its session)
        if today:
            return "history", entry.ref  # its MessageTarget, with the record's position as a hint
        ref = entry.ref.ref
        if legacy:
            number = ref.session_id.rpartition("#")[2]
            return "history", ("legacy", ref.thread_id, int(number) - 1 if number.isdigit() else 0)
        record = entry.ref.message_id
        return "history", (ref.thread_id, ref.session_id, int(record) if record.isdigit() else None)
    if entry.kind in ("task", "doc") and isinstance(entry.ref, tuple):
        return entry.ref  # ("cron" | "heartbeat" | "webhook" | "memory" | "skills" | "settings" | "agents", key)
    target = entry.ref if entry.ref is not None else entry.key
    if entry.collection:  # a row of one of the store's lists: the section showing that list
        return _by_list(SECTIONS).get(entry.collection, f"collection:{entry.collection}"), target
    if today and entry.kind == "doc":
        return today_doc_section(str(entry.key)), target
    return _BY_KIND.get(entry.kind, ""), target
