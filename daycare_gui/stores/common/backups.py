"""Copies of a file's bytes kept before we replace them, for systems that keep no backups of their own.

A copy is written atomically as ``<name>.<time>[.<n>].bak`` in a folder for its owner only, never over an
earlier copy, with its original's permission bits (a 0600 MEMORY.md must not get a world-readable copy).
"""

from __future__ import annotations

import time
from pathlib import Path

from daycare_gui.stores.api import WriteRefused
from daycare_gui.stores.common.edit.atomic import save_atomic
from daycare_gui.stores.common.edit.copies import permission_bits, private_folder

BACKUP_DIR = ".daycare-gui-backups"


def backup_copy(current: bytes, target: Path, folder: Path, name: str) -> Path:
    """Keep ``current`` (the bytes of ``target`` about to be replaced) in ``folder`` under ``name``; the copy's
    path. Raises OSError when it cannot be written (the caller then writes nothing)."""
    folder = private_folder(folder)
    mode = permission_bits(target)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1000):
        path = folder / (f"{name}.{stamp}" + (f".{n}" if n else "") + ".bak")
        if not path.exists():
            save_atomic(path, current, expected_sha256=None, new_mode=mode)
            return path
    raise WriteRefused(f"could not choose a backup name in {folder}")
