"""Readers for Daycare's file-based storage: JSON, JSONL and Markdown (+ YAML frontmatter).

Layers, bottom up:

- :mod:`daycare_gui.stores.common.files` (kind-neutral, shared with the other kinds): ``read`` — tolerant
  bytes/text/folder access (UTF-8 with replacement, symlink containment, permission errors as Problems);
  ``jsonfile``, ``jsonl``, ``frontmatter`` — format readers.
- Typed, frozen records and one reader per collection, each returning ``Loaded(items, problems)`` and never
  raising on bad data: :mod:`.tasks` (cron, heartbeat), :mod:`.legacy_agents`, :mod:`.subsystems`
  (channels, signals, expose, processes), :mod:`.apps`, :mod:`.skills`, :mod:`.plugins` (memory, database,
  upgrade), :mod:`.homes`, :mod:`.config_files` (settings, auth — masked).
- :mod:`.collections` — :func:`scan_files`, one cheap read-only pass over all of them.
"""

# Names are resolved on first use (PEP 562) rather than imported here: importing one reader, say
# ``core.files.legacy_agents`` for the Agents page, must not load every reader (and PyYAML) with it, and a
# package whose __init__ imports its submodules is what makes two threads' first imports collide.
from daycare_gui.stores.common.lazy_exports import lazy_exports

_EXPORTS = {
    "COLLECTION_NAMES": "collections",
    "FileCollection": "collections",
    "FileInventory": "collections",
    "scan_files": "collections",
}

__all__ = list(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
