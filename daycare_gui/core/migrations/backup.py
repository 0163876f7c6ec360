"""Consistent copies of a Daycare database, taken without writing to it."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path


def open_readonly(db_path: Path) -> sqlite3.Connection:
    """Read a database without writing anything next to it where possible.

    Without a ``-wal`` file all committed data is in the main file, so ``immutable=1`` reads it and creates
    nothing. With a ``-wal`` file, ``mode=ro`` is needed to see the WAL's committed frames.
    """
    wal = db_path.with_name(db_path.name + "-wal")
    flag = "mode=ro" if wal.exists() else "immutable=1"
    return sqlite3.connect(f"{db_path.resolve().as_uri()}?{flag}", uri=True, isolation_level=None)


def copy_database(db_path: Path, dest: Path) -> Path:
    """Online-backup ``db_path`` (including committed WAL content) into a new file ``dest``."""
    if dest.exists():
        raise FileExistsError(f"{dest} already exists")
    src = open_readonly(db_path)
    try:
        dst = sqlite3.connect(str(dest))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return dest


def default_backup_path(db_path: Path, when: datetime | None = None) -> Path:
    """``<db dir>/daycare.db.backup-<UTC timestamp>``, made unique if that name is taken."""
    stamp = (when or datetime.now(timezone.utc)).strftime("%Y%m%dT%H%M%SZ")
    candidate = db_path.with_name(f"{db_path.name}.backup-{stamp}")
    n = 1
    while candidate.exists():
        candidate = db_path.with_name(f"{db_path.name}.backup-{stamp}-{n}")
        n += 1
    return candidate


def remove_wal_files(path: Path) -> None:
    for suffix in ("-wal", "-shm"):
        try:
            path.with_name(path.name + suffix).unlink()
        except FileNotFoundError:
            pass


def remove_database_files(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    remove_wal_files(path)
