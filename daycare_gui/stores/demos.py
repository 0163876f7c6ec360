"""Each store kind's demo, by kind name: what ``daycare-gui demo --kind`` and the window's Open Demo write.

Daycare's demo (files and SQLite, or PGlite) has its own options and lives in ``core.demo`` and
``stores.daycare.pg.demo``; every other kind's lives in its package as ``demo.write_demo(dest, now_ms=…)``,
loaded by name as the registry loads kinds, so this module imports no kind.
"""

from __future__ import annotations

import importlib
from pathlib import Path

# kind → the module whose write_demo(dest, *, now_ms) writes its demo into dest (missing or empty)
OTHER_KINDS = {
    "linggen": "daycare_gui.stores.linggen.demo",
    "agentstack": "daycare_gui.stores.agentstack.demo",
    "cianaparrot": "daycare_gui.stores.cianaparrot.demo",
}


# Daycare's small demo (files and SQLite), as the window's Open Demo writes it; its other generations and
# sizes are the command line's options.
DAYCARE_DEMO = "daycare_gui.stores.daycare.demo"


def write_kind_demo(kind: str, dest: Path, now_ms: int) -> None:
    """Write ``kind``'s demo into ``dest``, dated relative to ``now_ms``."""
    module = DAYCARE_DEMO if kind == "daycare" else OTHER_KINDS[kind]
    importlib.import_module(module).write_demo(dest, now_ms=now_ms)


def current_minute_ms() -> int:
    """The wall clock floored to the minute, in ms: a ``now_ms`` that makes a demo look fresh today."""
    import time

    return time.time_ns() // 60_000_000_000 * 60_000
