"""Saving a file of a Daycare store that the Documents section does not list (a task's TASK.md, an app's
APP.md or PERMISSIONS.md): what ``DataDirDocuments.save`` does for the refs the editor window makes of them.

Like a listed document's save: nothing is written when the bytes are unchanged; a file marked read-only,
or reached through a link out of the store's folders, is refused; unless forced, so is a save while
Daycare's engine runs on the store (asked of the pid file and socket now, never of what was seen at open);
a file changed since it was read is a conflict; the old bytes are kept in ``<dataDir>/.daycare-gui-backups``
before the atomic replace.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.api import WriteConflict, WriteRefused
from daycare_gui.stores.common.backups import BACKUP_DIR, backup_copy
from daycare_gui.stores.common.edit.atomic import (
    ConflictError,
    OutsideStoreError,
    ReadOnlyError,
    refuse_outside,
    refuse_read_only,
    save_atomic,
    sha256_of,
)
from daycare_gui.stores.common.regular_files import read_regular
from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason, store_folders


def save_store_file(path: Path, data: bytes, expected_sha256: str | None, *, force: bool, paths) -> Path | None:
    """Replace ``path``, a file of the store at ``paths`` (DaycarePaths); the backup's path, or None."""
    folders = store_folders(path, paths)
    try:
        refuse_outside(path, folders)  # (a link planted since the file was opened: nothing is written)
        current = read_regular(path)
    except FileNotFoundError:
        current = None
    except OutsideStoreError as exc:
        raise WriteRefused(exc.strerror) from exc
    except OSError as exc:
        raise WriteRefused(f"cannot read {path}: {exc.strerror or exc}") from exc
    if current is not None and current == data and expected_sha256 == sha256_of(current):
        return None  # unchanged: not a byte is written
    try:
        refuse_read_only(path)
    except ReadOnlyError as exc:
        raise WriteRefused(exc.strerror) from exc
    engine = None if force else engine_running_reason(file=path, paths=paths)
    if engine:
        raise WriteRefused(engine)
    if expected_sha256 is not None and (current is None or sha256_of(current) != expected_sha256):
        raise WriteConflict(str(ConflictError(path, current)))
    saved = None
    if current is not None:
        try:
            saved = backup_copy(current, path, paths.data_dir / BACKUP_DIR, _backup_name(path, folders or []))
        except OSError as exc:
            raise WriteRefused(f"could not back up {path.name} ({exc.strerror or exc}); nothing was written") \
                from exc
    try:
        save_atomic(path, data, expected_sha256=expected_sha256, within=folders)
    except ConflictError as exc:
        raise WriteConflict(str(exc)) from exc
    except (OutsideStoreError, ReadOnlyError) as exc:
        raise WriteRefused(exc.strerror) from exc
    return saved


def _backup_name(path: Path, folders: list[Path]) -> str:
    """``cron__daily-digest__TASK.md``: the file's place in the deepest store folder holding it."""
    for folder in sorted(folders, key=lambda f: len(Path(f).parts), reverse=True):
        try:
            return "__".join(Path(path).relative_to(folder).parts)
        except ValueError:
            continue
    return "__".join(Path(path).parts[-3:])
