"""Notices when the open store changes on disk and says so — it never reloads by itself.

Atomic saves by other programs replace files (a new inode), which drops them from
QFileSystemWatcher; we watch folders too and re-add file paths after a burst of changes.

A live engine keeps SQLite busy beside the database: the write-ahead log grows with every commit, and the
shared-memory index (``-shm``) and rollback journal (``-journal``) change or come and go even when nothing a
user could see changed. So ``-shm``/``-journal`` events are ignored; a folder event whose only news is one of
SQLite's side files appearing or going is not a change of the store; a ``-wal`` write is one "database
changed". Nothing is re-globbed per event: a burst is reported (and the store re-scanned, if a document or
folder changed) once, ``DEBOUNCE_MS`` after its first event, however long it lasts.

Pages that follow a live writer listen to ``database_changed`` instead: it comes sooner (``LIVE_MS`` after
the first write of a burst, again not restarted, so a steady writer gets one every ``LIVE_MS``) and only for
the database. ``changed`` still reports every burst; ``database_only`` says whether it held nothing else.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from daycare_gui.core.paths import DaycarePaths

DEBOUNCE_MS = 400
LIVE_MS = 100  # a live view polls at most this often, and only after a write was seen
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")
NOISE = ("-shm", "-journal")  # change without meaning: readers touch them too


def _listing(folder: str) -> frozenset:
    """What a folder holds, SQLite's side files left out (they come and go with every checkpoint)."""
    try:
        with os.scandir(folder) as entries:
            return frozenset((e.name, e.inode()) for e in entries if not e.name.endswith(SQLITE_SIDE_FILES))
    except OSError:
        return frozenset()


class StoreWatcher(QObject):
    changed = Signal(str)  # a human description of what changed
    database_changed = Signal()  # the database (or its WAL) was written: live pages read what is new

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_change)
        self._watcher.directoryChanged.connect(self._on_folder_change)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self._emit)
        self._live = QTimer(self, singleShot=True, interval=LIVE_MS)
        self._live.timeout.connect(self._emit_database)
        self._other = False  # the burst being debounced touched more than the database
        self.database_only = False  # the last burst reported by ``changed`` was the database alone
        self._last = ""
        self._rescan = False
        self._listings: dict[str, frozenset] = {}
        self._paths: DaycarePaths | None = None
        self.suspended = False
        self.scans = 0  # how often the store was globbed for files to watch (once per watch and per burst)
        self.ignored = 0  # events dropped as SQLite's side-file churn

    def watch(self, paths: DaycarePaths | None) -> None:
        # A change still waiting out the debounce belongs to what was watched before (an upgrade just
        # swapped the database, say): the store about to be read from disk already includes it.
        self._debounce.stop()
        existing = self._watcher.files() + self._watcher.directories()
        if existing:
            self._watcher.removePaths(existing)
        self._debounce.stop()
        self._live.stop()
        self._other = False
        self._paths = paths
        self._listings = {}
        if paths is not None:
            self._add_all()

    # Editable documents are watched one by one (a folder watch does not see a file inside a subfolder
    # change); the cap keeps a huge store from exhausting the system's watch descriptors.
    MAX_DOCUMENTS = 2000
    DOCUMENT_GLOBS = ("cron/*/TASK.md", "cron/*/MEMORY.md", "heartbeat/*.md")
    HOME_GLOBS = ("apps/*/*.md", "skills/**/SKILL.md", "home/knowledge/*.md")

    def _database_files(self) -> list[Path]:
        p = self._paths
        return [p.db_path, Path(str(p.db_path) + "-wal")]

    def _candidates(self) -> list[Path]:
        p = self._paths
        files = [*self._database_files(), p.settings_path, p.auth_path]
        dirs = [p.root, p.data_dir, p.config_dir, *p.users_dirs, p.workspace_dir, p.agents_dir,
                *(d / sub for d in p.legacy_dirs for sub in ("cron", "heartbeat"))]
        documents: list[Path] = []
        for base in p.legacy_dirs:
            for pattern in self.DOCUMENT_GLOBS:
                documents.extend(base.glob(pattern))
        documents.extend(p.workspace_dir.glob("apps/*/*.md"))
        for users in p.users_dirs:
            for pattern in self.HOME_GLOBS:
                documents.extend(users.glob(f"*/{pattern}"))
        return [x for x in {*files, *dirs, *documents[: self.MAX_DOCUMENTS]} if x.exists()]

    def _add_all(self) -> None:
        self.scans += 1
        have = set(self._watcher.files() + self._watcher.directories())
        new = [str(x) for x in self._candidates() if str(x) not in have]
        if new:
            self._watcher.addPaths(new)
        for folder in self._watcher.directories():
            if folder not in self._listings:
                self._listings[folder] = _listing(folder)

    def _watch_database_files(self) -> bool:
        """Watch the database and its WAL again if they (re)appeared; True when the WAL came back with data."""
        have = set(self._watcher.files())
        wal_with_data = False
        for path in self._database_files():
            if str(path) not in have and path.exists():
                self._watcher.addPath(str(path))
                if path.name.endswith("-wal") and path.stat().st_size > 0:
                    wal_with_data = True
        return wal_with_data

    def _on_change(self, path: str) -> None:
        if self.suspended or self._paths is None:
            return
        if path.endswith(NOISE):
            self.ignored += 1
            return
        if Path(path) not in self._database_files():
            self._rescan = True  # a replaced document must be watched again
        self._note(path)

    def _on_folder_change(self, folder: str) -> None:
        if self.suspended or self._paths is None:
            return
        listing = _listing(folder)
        if listing == self._listings.get(folder):
            # Only SQLite's side files came or went (a checkpoint, a reader's -shm). A WAL that appeared
            # holding commits is a database change; anything else is not.
            if self._watch_database_files():
                self._note(str(self._database_files()[1]))
            else:
                self.ignored += 1
            return
        self._listings[folder] = listing
        self._rescan = True
        self._note(folder)

    def _note(self, path: str) -> None:
        self._last = path
        if Path(path) in self._database_files():
            if not self._live.isActive():
                self._live.start()
        else:
            self._other = True
        if not self._debounce.isActive():  # not restarted: a steady writer must not postpone it for ever
            self._debounce.start()

    def _emit(self) -> None:
        if self._paths is None:
            return
        if self._rescan:
            self._rescan = False
            self._add_all()
        else:
            self._watch_database_files()
        self.database_only, self._other = not self._other, False
        name = Path(self._last).name
        what = "The database changed" if name.startswith(self._paths.db_path.name) else f"{name} changed"
        self.changed.emit(f"{what} on disk.")

    def _emit_database(self) -> None:
        if self._paths is not None and not self.suspended:
            self.database_changed.emit()
