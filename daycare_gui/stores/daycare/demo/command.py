"""Daycare's demo as ``daycare-gui demo`` writes it (``stores.demos``: the options a kind's demo takes):
``--scale`` (small, or large: 1,000 agents, 20,000 sessions, 1,000,000 history records) and
``--generation`` (sqlite: legacy files and daycare.db; pglite: today's Daycare, written by PGlite itself).
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.demos import DemoRefused, refuse_unless_empty, remove_partial

COMMAND_OPTIONS = ("scale", "generation")


def write_command_demo(dest: Path, *, now_ms: int | None, progress=None, scale: str = "small",
                       generation: str = "sqlite") -> str:
    """Write the demo; the line the command prints. Raises DemoRefused (nothing written) or OSError (what
    was written is gone)."""
    from daycare_gui.stores.daycare.demo.writer import DemoError, write_demo

    progress = progress if scale == "large" else None  # a small demo is written in a moment
    if generation == "pglite":
        return _pglite(dest, now_ms, scale, progress)
    try:
        summary = write_demo(dest, scale=scale, now_ms=now_ms, progress=progress)
    except DemoError as exc:
        raise DemoRefused(str(exc)) from None
    return summary.describe()


def _pglite(dest: Path, now_ms: int | None, scale: str, progress) -> str:
    from daycare_gui.stores.api import CannotOpen
    from daycare_gui.stores.daycare.demo.ids import NOW_MS
    from daycare_gui.stores.daycare.pg.demo import write_pglite_demo

    folder = dest / "daycare.pglite"
    refuse_unless_empty(dest)
    created = not dest.exists()
    try:
        counts = write_pglite_demo(folder, now_ms=now_ms if now_ms is not None else NOW_MS, scale=scale,
                                   progress=progress)
    except BaseException as exc:  # (Ctrl+C too) a half-written PGlite folder is no store: it goes
        remove_partial(dest, created)
        if isinstance(exc, (CannotOpen, OSError)):
            raise DemoRefused(str(exc)) from None
        raise
    return f"Wrote a PGlite demo store in {folder}: " + ", ".join(f"{v:,} {k}" for k, v in counts.items())
