"""What the memory lists, the search and the memory edit share about one entry: the columns read, the
fields an edit compares, and how a namespace is keyed and shown.

Kept below all three so the edit (which re-reads the entry and searches for it) need not import the lists
that call it: memory, search and edits imported each other before.
"""

from __future__ import annotations

from daycare_gui.stores.agentstack import values as v

SESSION_PREFIX = "session:"  # a session's own namespace: "session:" + its id
NULL_NS = "\x00null"


def ns_key(namespace) -> str:
    return "ns:" + (NULL_NS if namespace is None else str(namespace))


def ns_label(namespace) -> str:
    return "(no namespace)" if namespace is None else str(namespace)


def memory_select(store) -> str:
    cols = ("id", "key", "namespace", "content", "embedding", "metadata", "agent_id", "created_at", "updated_at")
    return "rowid AS rowid, " + ", ".join(store.col("memory", c) for c in cols)


def memory_state(rec: dict) -> dict:
    """The fields an edit compares: what was read must still be what is stored."""
    return {"key": rec.get("key"), "namespace": rec.get("namespace"), "content": rec.get("content"),
            "metadata": v.shown_json(rec.get("metadata")), "agent_id": rec.get("agent_id"),
            "updated_at": rec.get("updated_at")}
