"""Readers for Daycare's file-based storage: JSON, JSONL and Markdown (+ YAML frontmatter).

Layers, bottom up:

- :mod:`.read` — tolerant bytes/text/folder access (UTF-8 with replacement, symlink containment, permission
  errors as Problems); :mod:`.jsonfile`, :mod:`.jsonl`, :mod:`.frontmatter` — format readers.
- Typed, frozen records and one reader per collection, each returning ``Loaded(items, problems)`` and never
  raising on bad data: :mod:`.tasks` (cron, heartbeat), :mod:`.legacy_agents`, :mod:`.subsystems`
  (channels, signals, expose, processes), :mod:`.apps`, :mod:`.skills`, :mod:`.plugins` (memory, database,
  upgrade), :mod:`.homes`, :mod:`.config_files` (settings, auth — masked).
- :mod:`.collections` — :func:`scan_files`, one cheap read-only pass over all of them.
"""

from daycare_gui.core.files.base import Loaded
from daycare_gui.core.files.collections import COLLECTION_NAMES, FileCollection, FileInventory, scan_files
from daycare_gui.core.files.frontmatter import MarkdownDoc, parse_markdown, read_markdown
from daycare_gui.core.files.jsonfile import read_json
from daycare_gui.core.files.jsonl import BadLine, JsonlSummary, iter_jsonl, summarize_jsonl
from daycare_gui.core.files.read import list_dir, read_bytes, read_text

__all__ = [
    "COLLECTION_NAMES",
    "FileCollection",
    "FileInventory",
    "scan_files",
    "Loaded",
    "MarkdownDoc",
    "parse_markdown",
    "read_markdown",
    "read_json",
    "BadLine",
    "JsonlSummary",
    "iter_jsonl",
    "summarize_jsonl",
    "list_dir",
    "read_bytes",
    "read_text",
]
