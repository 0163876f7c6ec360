"""Each store kind's demo, by kind name: what ``daycare-gui demo --kind`` and the window's Open Demo write.

Every kind's demo lives in its package as ``demo.write_demo(dest, now_ms=…)``, loaded by name as the
registry loads kinds, so this module imports no kind. A demo with options of its own on the command line
(Daycare's ``--scale`` and ``--generation``) says so in its module: ``COMMAND_OPTIONS`` (their names) and
``write_command_demo(dest, *, now_ms, progress, **options)``, which returns the line the command prints and
raises :class:`DemoRefused` for a refusal (nothing left behind).
"""

from __future__ import annotations

import importlib
import shutil
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
DEMOS = {"daycare": DAYCARE_DEMO, **OTHER_KINDS}  # every kind with a demo, the default first

# 2026-03-01T12:00:00Z in ms: the "now" of a demo written with ``--now fixed`` (the same bytes every run).
FIXED_NOW_MS = 1772366400000


class DemoRefused(Exception):
    """A demo not written, in one sentence (the folder is not empty, the engine could not start)."""


def demo_module(kind: str):
    return importlib.import_module(DEMOS[kind])


def command_options(kind: str) -> tuple[str, ...]:
    """The command line's options ``kind``'s demo takes besides ``--now`` (none for most kinds)."""
    return tuple(getattr(demo_module(kind), "COMMAND_OPTIONS", ()))


def write_kind_demo(kind: str, dest: Path, now_ms: int) -> None:
    """Write ``kind``'s demo into ``dest``, dated relative to ``now_ms``."""
    demo_module(kind).write_demo(dest, now_ms=now_ms)


def current_minute_ms() -> int:
    """The wall clock floored to the minute, in ms: a ``now_ms`` that makes a demo look fresh today."""
    import time

    return time.time_ns() // 60_000_000_000 * 60_000


def parse_now(text: str) -> int | None:
    """``--now``: "current" (the wall clock, floored to the minute), "fixed" (``None``: ``FIXED_NOW_MS``), or
    an ISO date or time, UTC unless it names an offset. Raises :class:`ValueError` with what is accepted."""
    import datetime as _dt

    value = text.strip()
    if value == "current":
        return current_minute_ms()
    if value == "fixed":
        return None
    try:
        # Python 3.10's fromisoformat does not read a trailing Z
        when = _dt.datetime.fromisoformat(value[:-1] + "+00:00" if value[-1:] in "Zz" and value else value)
    except ValueError:
        raise ValueError(f"--now {text!r}: use current, fixed, or an ISO date or time such as "
                         "2026-03-01 or 2026-03-01T12:00Z") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.timezone.utc)
    return int(when.timestamp() * 1000)


def refuse_unless_empty(folder: Path) -> None:
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise DemoRefused(f"{folder} is not an empty folder")


def remove_partial(folder: Path, created: bool) -> None:
    """What a demo that failed or was interrupted wrote: the folder if it made it, else what is in it."""
    if created:
        shutil.rmtree(folder, ignore_errors=True)
        return
    for child in folder.iterdir() if folder.is_dir() else ():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
