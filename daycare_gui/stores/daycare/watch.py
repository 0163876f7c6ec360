"""What changes on disk when Daycare writes its store: the paths the window's watcher follows.

The database and its ``-wal`` are listed side by side (the watcher takes such a pair for the database, which
pages follow live); the settings, the auth file and the folders whose listing changes when Daycare adds or
removes something; and the editable documents one by one, because a folder watch does not see a file inside
a subfolder change. Missing paths are listed too: the watcher skips what does not exist.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.daycare.paths import DaycarePaths

# Editable documents are listed one by one; the cap keeps a huge store from exhausting watch descriptors.
MAX_DOCUMENTS = 2000
DOCUMENT_GLOBS = ("cron/*/TASK.md", "cron/*/MEMORY.md", "heartbeat/*.md")
HOME_GLOBS = ("apps/*/*.md", "skills/**/SKILL.md", "home/knowledge/*.md")


def sqlite_watch_paths(p: DaycarePaths) -> tuple[Path, ...]:
    """A folder or SQLite store: its database, settings, folders and documents."""
    files = [p.db_path, Path(str(p.db_path) + "-wal"), p.settings_path, p.auth_path]
    dirs = [p.root, p.data_dir, p.config_dir, *p.users_dirs, p.workspace_dir, p.agents_dir,
            *(d / sub for d in p.legacy_dirs for sub in ("cron", "heartbeat"))]
    documents: list[Path] = []
    for base in p.legacy_dirs:
        for pattern in DOCUMENT_GLOBS:
            documents.extend(base.glob(pattern))
    documents.extend(p.workspace_dir.glob("apps/*/*.md"))
    for users in p.users_dirs:
        for pattern in HOME_GLOBS:
            documents.extend(users.glob(f"*/{pattern}"))
    return tuple(dict.fromkeys([*files, *dirs, *documents[:MAX_DOCUMENTS]]))


def pglite_watch_paths(p: DaycarePaths) -> tuple[Path, ...]:
    """A PGlite store: what PostgreSQL writes when Daycare commits — the WAL segments in ``pg_wal/`` (written
    in place, so each one is listed), the folder itself (a new or recycled segment), ``global/pg_control`` (a
    checkpoint) — and the settings beside it. The window reads a private copy, so any of these means "reopen
    to see it"."""
    data = p.pglite_path
    wal = data / "pg_wal"
    try:
        segments = sorted(x for x in wal.iterdir() if x.name != "archive_status")
    except OSError:
        segments = []
    return tuple(dict.fromkeys([data, wal, *segments[:MAX_DOCUMENTS], data / "global" / "pg_control",
                                p.settings_path, p.data_dir]))
