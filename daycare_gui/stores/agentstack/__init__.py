"""AgentStack (blackms/aistack) as a store kind: its SQLite memory database, read-only by default.

Found as ``aistack.db`` (``agentstack.db`` before the 2026-01-24 rename) directly, in ``./data/``, or
through ``memory.path`` of the nearest ``aistack.config.json`` / ``agentstack.config.json`` upwards.
See ``capabilities`` for what it offers; :func:`search_memory` searches memory through the store's own
FTS5 index; :func:`write_demo` writes a small realistic database.
"""

from daycare_gui.stores.agentstack.kind import KIND, AgentStackKind, AgentStackStore


def __getattr__(name: str):
    # The search (and what it imports) loads on first use: every kind is imported to probe each path.
    if name in ("SEARCH_COLUMNS", "search_memory"):
        from daycare_gui.stores.agentstack import search

        return getattr(search, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def write_demo(folder, *, now_ms=None):
    """Write a small AgentStack project (config + data/aistack.db) into ``folder``; returns the db path."""
    from daycare_gui.stores.agentstack.demo import write_demo as _write

    return _write(folder, now_ms=now_ms)


__all__ = ["KIND", "SEARCH_COLUMNS", "AgentStackKind", "AgentStackStore", "search_memory", "write_demo"]
