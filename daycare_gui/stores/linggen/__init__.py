"""Linggen (linggen/linggen-agent, Rust, files only) as a store kind.

A Linggen home (``~/.linggen`` or ``$LINGGEN_HOME``) in either layout — per-project
(``projects/<encoded path>/sessions|runs|missions``) or the later flat one (``sessions/<id>/``,
``missions/<id>/mission.md``), or both side by side — opened read-only: projects by the path in their
``project.json``, sessions as conversations, runs as a tree, missions, plans, agent overrides, masked
credentials; agents, skills and flat missions editable as documents, tool permissions as a list. Homes
written by Linggen 1.7 (``linggen/linggen``: mission runs recorded from their start, new mission and session
fields, ``activity/`` and ``memory/backups/``) open as well as older ones.

Importing the package loads only the probe (every kind is imported to probe each path); the store and
the demo writer load on first use (PEP 562).
"""

from daycare_gui.stores.linggen.kind import KIND, LinggenKind

__all__ = ["KIND", "LinggenKind", "LinggenStore", "write_demo"]


def __getattr__(name: str):
    if name == "LinggenStore":
        from daycare_gui.stores.linggen.store import LinggenStore

        return LinggenStore
    if name == "write_demo":
        from daycare_gui.stores.linggen.demo import write_demo

        return write_demo
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
