"""CianaParrot as a store kind: a Telegram agent built on LangGraph, keeping its conversations in
LangGraph's SQLite checkpointer and its chats' state in small JSON files (seed 004; the as-built notes).

Nothing here imports LangGraph or LangChain: checkpoint payloads are decoded as data (``decode``), never
revived. ``write_demo(dir)`` writes a small realistic deployment.
"""

from daycare_gui.stores.cianaparrot.kind import KIND, CianaParrotKind


def write_demo(directory, *, now_ms=None):
    from daycare_gui.stores.cianaparrot.demo import write_demo as _write

    return _write(directory, now_ms=now_ms)


__all__ = ["KIND", "CianaParrotKind", "write_demo"]
