"""Small helpers the signal/channel/expose/process imports share (Daycare repeats them per file)."""

from __future__ import annotations

import os
from pathlib import Path

from daycare_gui.stores.daycare.sqlite.migrations.base import MigrationContext
from daycare_gui.stores.daycare.sqlite.migrations.legacy import is_number, js_floor

# These imports fall back to this literal when no owner row exists (Daycare's `ownerId || "owner"`).
OWNER_FALLBACK = "owner"


def owner_or_fallback(ctx: MigrationContext) -> str:
    return ctx.owner_id() or OWNER_FALLBACK


def number_or_now(value: object, now: int) -> int:
    if is_number(value) and value >= 0:
        return js_floor(value)
    return now


def number_or_none(value: object) -> int | None:
    return js_floor(value) if is_number(value) else None


def sorted_subdirs(folder: Path) -> list[Path]:
    with os.scandir(folder) as it:
        return [Path(e.path) for e in sorted(it, key=lambda e: e.name) if e.is_dir(follow_symlinks=False)]
