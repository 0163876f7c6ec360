"""Counts for the navigation tree, computed together off the GUI thread."""

from __future__ import annotations

from daycare_gui.stores.common.sqlite_ro import DatabaseError
from daycare_gui.stores.daycare.sqlite.store import Store

# navigation id → (tables summed, file collections summed when no table exists)
NAV_SOURCES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "collection:users": (("users",), ()),  # the shared list pane's section
    "agents": (("agents",), ("legacy_agents",)),
    "inbox": (("inbox",), ()),
    "cron": (("tasks_cron",), ("cron_tasks",)),
    "heartbeat": (("tasks_heartbeat",), ("heartbeat_tasks",)),
    "apps": ((), ("apps",)),
    "skills": ((), ("skills",)),
    "memory": ((), ("memory_entities",)),
    "channels": (("channels",), ("channels",)),
    "signals": (("signals_events", "signals_subscriptions", "signals_delayed"), ("signal_events", "delayed_signals")),
    "processes": (("processes",), ("processes",)),
    "expose": (("expose_endpoints",), ("expose_endpoints",)),
    "system_prompts": (("system_prompts",), ()),
    "settings": ((), ("settings", "auth_entries")),
    "files": ((), ("user_homes",)),
}


def nav_counts(store: Store) -> dict[str, int | None]:
    inventory = store.files()
    store.check_json_columns()  # so the Problems count includes unreadable JSON values
    file_counts = inventory.counts()
    out: dict[str, int | None] = {}
    from_tables = _table_sums(store)
    for nav_id, (tables, collections) in NAV_SOURCES.items():
        if nav_id in from_tables:
            out[nav_id] = from_tables[nav_id]
        elif collections:
            out[nav_id] = sum(file_counts.get(c, 0) for c in collections)
        else:
            out[nav_id] = 0 if store.db is not None or not tables else None
    # A task may be a file, a row or both: count what the task pages list (the union), not one side.
    sources = store.task_sources()
    out["cron"] = sum(1 for t in sources if t.kind == "cron")
    out["heartbeat"] = sum(1 for t in sources if t.kind == "heartbeat")
    out["storage"] = len(store.db.tables()) if store.db is not None else 0
    out["problems"] = len(store.problems)
    return out


def table_counts(store: Store) -> dict[str, int]:
    """Only the counts read from database tables (the tasks, a union with files, and everything read from
    files left out): cheap enough to take again each time a live engine writes."""
    return {nav_id: n for nav_id, n in _table_sums(store).items()
            if n is not None and nav_id not in ("cron", "heartbeat")}


def _table_sums(store: Store) -> dict[str, int | None]:
    """nav id → the rows of its tables that the database has (None where counting failed)."""
    out: dict[str, int | None] = {}
    for nav_id, (tables, _collections) in NAV_SOURCES.items():
        present = [t for t in tables if store.has_table(t)]
        if present:
            try:
                out[nav_id] = sum(store.db.count(t) for t in present)
            except DatabaseError:
                out[nav_id] = None
    return out
