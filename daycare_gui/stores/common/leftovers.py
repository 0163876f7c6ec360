"""Leftovers of interrupted writes and private copies (see daycare_gui.core.leftovers), for every kind.

``report_and_clean`` is what a kind calls when it opens: leftovers in the folders its writers use are
reported as problems (a save's temporary file is removed by the next save in that folder), and private
snapshot copies of killed processes in the temporary folder are removed at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from daycare_gui.core.leftovers import (
    SAVE,
    SNAPSHOT,
    Leftover,
    clean,
    in_folder,
    in_tree,
    private_folder,
    report,
    snapshot_copies,
    snapshot_prefix,
)

__all__ = ["SAVE", "SNAPSHOT", "Leftover", "clean", "in_folder", "in_tree", "private_folder", "report",
           "report_and_clean", "snapshot_copies", "snapshot_prefix"]


def report_and_clean(problems, folders: Iterable[Path | None], *, snapshots: bool = False) -> list[Leftover]:
    """Report the leftovers directly inside ``folders`` (each once) and, with ``snapshots``, remove the
    private snapshot copies whose process is gone. Never raises; returns what it found."""
    found: list[Leftover] = []
    seen: set[Path] = set()
    for folder in folders:
        if folder is None:
            continue
        folder = Path(folder)
        if folder in seen or not folder.is_dir():
            continue
        seen.add(folder)
        found += in_folder(folder)
    removed: list[Leftover] = []
    if snapshots:  # only those of processes that are gone: a live one is being read right now
        removed = clean(copies := [c for c in snapshot_copies() if c.alive is False])
        found += copies
    report(problems, found, removed)
    return found
