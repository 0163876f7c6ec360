"""What is said of an opened store as a whole, and what a repeated command may answer from instead of
opening it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from pathlib import Path

from daycare_gui.stores.deferred_dataclass import deferred


@deferred
class KeptTarget:
    """A store a repeated command (``search``, ``inspect``) may answer from what its last run kept, because
    reading it live is dear (a PGlite copy and a Node process): ``StoreKind.kept_target``."""

    store: str  # the store's real path: what the kept answers are keyed by
    roots: tuple[Path, ...]  # the folders its answers come from, fingerprinted before a kept answer is used
    opened_as: dict  # the store's paths as this run spells them (another spelling is read live once)
    engine: Callable[[], dict]  # the system's engine now, as ``inspect`` reports it ({"running": …, "detail": …})
    # folders inside ``roots`` the open fingerprints on its own (a PGlite folder, before its copy): taken in
    # the same walk as the roots and handed over (tree_fingerprint.handed_over), not walked a second time
    fingerprinted_again: tuple[Path, ...] = ()


@deferred
class StoreSummary:
    """What the overview, the status bar and ``inspect`` say about an opened store."""

    kind: str
    generation: str  # the kind's own word for the storage layout ("sqlite", "flat", "checkpoints-v2")
    title: str  # the path or URL, secrets masked
    engine_running: bool = False
    engine_detail: str = ""
    open_mode: str = ""  # how it was opened ("immutable", "snapshot copy", "read-only transaction")
    notes: tuple[str, ...] = ()
    facts: tuple[tuple[str, str], ...] = ()  # labelled lines for the overview
    extra: dict = field(default_factory=dict, compare=False)
