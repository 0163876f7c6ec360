"""Every write CianaParrot's files get from us: refused while the bot runs, conflict-checked, backed up,
atomic.

The bot rewrites its JSON files in place (no temp file, no rename) and keeps no backups, so before we
replace a file its current bytes are copied to ``<data dir>/.daycare-gui-backups/``. That folder is outside
the agent's sandboxed workspace, so the agent never sees (or loads) the copies; it is its owner's only, and
each copy keeps its original's permission bits.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.api import WriteConflict, WriteRefused
from daycare_gui.stores.common.backups import BACKUP_DIR, backup_copy
from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    OutsideStoreError,
    refuse_outside,
    refuse_read_only,
    save_atomic,
    sha256_of,
)
from daycare_gui.stores.common.regular_files import read_regular


def backup_dir(data_dir: Path | None, target: Path) -> Path:
    return (data_dir if data_dir is not None and data_dir.is_dir() else target.parent) / BACKUP_DIR


def backup(current: bytes, target: Path, data_dir: Path | None, root: Path | None) -> Path:
    """Copy ``current`` (the bytes being replaced) to a new, uniquely named backup file, atomically."""
    try:
        name = "__".join(target.relative_to(root).parts) if root is not None else target.name
    except ValueError:
        name = target.name
    return backup_copy(current, target, backup_dir(data_dir, target), name)


def current_bytes(target: Path) -> bytes | None:
    """What a write would replace: the file's bytes, or None when there is no file yet. A folder in the
    file's place, or a file that cannot be read, is refused (nothing was written)."""
    try:
        return read_regular(target)
    except FileNotFoundError:
        return None
    except IsADirectoryError as exc:
        raise WriteRefused(f"{target} is a folder, not a file; nothing was written") from exc
    except OSError as exc:
        raise WriteRefused(f"cannot read {target.name} ({exc.strerror or exc})") from exc


def replace_file(target: Path, data: bytes, expected_sha256: str | None, *, blocked: str | None, force: bool,
                 data_dir: Path | None, root: Path | None, within: tuple[Path | None, ...] = ()) -> Path | None:
    """Write ``data`` to ``target`` if it still has ``expected_sha256`` (None: it must not exist yet).
    ``within``: the deployment's folders; a file that a symbolic link leads out of them is refused, forced
    or not (a link planted in a folder we were sent must not make us write into the user's own files).
    Returns the backup's path (None when there was nothing to back up)."""
    folders = [f for f in (root, data_dir, *within) if f is not None]
    try:
        refuse_outside(target, folders or None)
    except OutsideStoreError as exc:
        raise WriteRefused(str(exc)) from exc
    # First: a file the user marked read-only is refused whatever the answer to a question (no backup).
    refuse_read_only(target)
    if blocked and not force:
        raise WriteRefused(f"{blocked}; it may overwrite or be confused by this change. Stop the bot first, "
                           "or insist to write anyway")
    current = current_bytes(target)
    if expected_sha256 is None and current is not None:
        raise WriteConflict(f"{target} appeared since it was read; nothing was written")
    if expected_sha256 is not None and (current is None or sha256_of(current) != expected_sha256):
        raise WriteConflict(f"{target} changed since it was read; nothing was written")
    if current == data:
        return None  # unchanged bytes stay untouched (no backup, no rewrite)
    try:
        saved = backup(current, target, data_dir, root) if current is not None else None
    except OSError as exc:
        raise WriteRefused(f"could not back up {target.name} ({exc.strerror or exc}); nothing was written") from exc
    try:
        save_atomic(target, data, expected_sha256=expected_sha256)
    except ConflictError as exc:
        raise WriteConflict(f"{exc}; nothing was written") from exc
    except OSError as exc:
        raise WriteRefused(f"could not write {target.name} ({exc.strerror or exc}); it is unchanged") from exc
    return saved
