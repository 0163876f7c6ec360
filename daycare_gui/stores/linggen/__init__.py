"""Linggen (linggen/linggen-agent, Rust, files only) as a store kind.

A Linggen home (``~/.linggen`` or ``$LINGGEN_HOME``) in either layout — per-project
(``projects/<encoded path>/sessions|runs|missions``) or the later flat one (``sessions/<id>/``,
``missions/<id>/mission.md``), or both side by side — opened read-only: projects by the path in their
``project.json``, sessions as conversations, runs as a tree, missions, plans, agent overrides, masked
credentials; agents, skills and flat missions editable as documents, tool permissions as a list.
"""

from daycare_gui.stores.linggen.demo import write_demo
from daycare_gui.stores.linggen.kind import KIND, LinggenKind, LinggenStore

__all__ = ["KIND", "LinggenKind", "LinggenStore", "write_demo"]
