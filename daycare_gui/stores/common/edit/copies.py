"""Copies we keep of a user's files (backups, the trash) are never more open than the original.

A new file gets the umask's default mode (usually 0644) and a new folder 0755, so the backup of a 0600
MEMORY.md would be readable by every account on the machine. A copy takes its original's permission bits
and the folders that hold copies are made for their owner only.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

PRIVATE_FOLDER = 0o700


def permission_bits(path: str | os.PathLike) -> int:
    """``path``'s read/write/execute bits (set-id and sticky bits dropped: a copy needs none of them)."""
    return stat.S_IMODE(os.stat(path).st_mode) & 0o777


def private_folder(folder: Path) -> Path:
    """``folder`` (its parent must exist), created for its owner only. One made wider before (by an earlier
    version) is narrowed, since the copies in it may be private; one we may not change is left as it is."""
    folder.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
    try:
        if stat.S_IMODE(folder.stat().st_mode) & 0o077:
            os.chmod(folder, PRIVATE_FOLDER)
    except OSError:
        pass
    return folder

