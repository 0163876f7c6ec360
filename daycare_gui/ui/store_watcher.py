"""Notices when the open store changes on disk and says so — it never reloads by itself.

What is watched is what the open store names (``OpenedStore.watch_paths()``): the window knows no kind. A
listed path that holds a database and whose ``-wal`` is listed beside it is a *database*: a write to either is
a "database changed", which pages able to show new rows follow by themselves; anything else changed is
reported for the banner. Only regular files and folders are watched: a path that is (or links to) a pipe, a
socket or a device is left alone, and nothing is ever opened.

Atomic saves by other programs replace files (a new inode), which drops them from
QFileSystemWatcher; we watch folders too and ask the store again for its paths after a burst of changes.

A live engine keeps SQLite busy beside the database: the write-ahead log grows with every commit, and the
shared-memory index (``-shm``) and rollback journal (``-journal``) change or come and go even when nothing a
user could see changed. So ``-shm``/``-journal`` events are ignored; a folder event whose only news is one of
SQLite's side files appearing or going is not a change of the store; a ``-wal`` write is one "database
changed". Nothing is re-listed per event: a burst is reported (and the store asked again for its paths, if a
document or folder changed) once, ``DEBOUNCE_MS`` after its first event, however long it lasts.

Pages that follow a live writer listen to ``database_changed`` instead: it comes sooner (``LIVE_MS`` after
the first write of a burst, again not restarted, so a steady writer gets one every ``LIVE_MS``) and only for
the database. ``changed`` still reports every burst; ``database_only`` says whether it held nothing else, and
``last_paths`` which paths it touched.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

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


class Watched(Protocol):
    """What the watcher follows: an open store, asked for its paths when watching starts and after a burst."""

    def watch_paths(self) -> Iterable[Path]: ...


def _signature(path: str) -> tuple | None:
    """What a file looks like from outside (no read): a change another program makes changes it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _size(path: Path) -> int:
    """0 for a file gone meanwhile: a WAL vanishes when its last connection closes (the bot's, a prune's)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _watchable(path: Path) -> bool:
    """A regular file or a folder (after links): never a pipe, socket or device, and nothing missing."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(mode) or stat.S_ISDIR(mode)


class StoreWatcher(QObject):
    changed = Signal(str)  # a human description of what changed
    database_changed = Signal()  # the database (or its WAL) was written: live pages read what is new

    # The cap keeps a huge store from exhausting the system's watch descriptors.
    MAX_PATHS = 2500

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
        self._burst: set[str] = set()
        self.last_paths: frozenset[str] = frozenset()  # what the last burst reported by ``changed`` touched
        self._rescan = False
        self._listings: dict[str, frozenset] = {}
        self._signatures: dict[str, tuple | None] = {}  # each watched file as last seen
        self._own = False  # a write of the window's own is under way: what it changes is not news
        self._store: Watched | None = None
        self._database: frozenset[Path] = frozenset()  # each database listed with its -wal, and that -wal
        self.suspended = False
        self.scans = 0  # how often the store was asked for paths to watch (once per watch and per burst)
        self.ignored = 0  # events dropped as SQLite's side-file churn

    def watch(self, store: Watched | None) -> None:
        # A change still waiting out the debounce belongs to what was watched before (an upgrade just
        # swapped the database, say): the store about to be read from disk already includes it.
        self._debounce.stop()
        existing = self._watcher.files() + self._watcher.directories()
        if existing:
            self._watcher.removePaths(existing)
        self._live.stop()
        self._other = False
        self._burst = set()
        self._store = store
        self._database = frozenset()
        self._listings = {}
        self._signatures = {}
        self._own = False
        if store is not None:
            self._add_all()

    # The window's own saves: a page that wrote shows what it wrote, so the watcher takes the store as it is
    # once the write is done for what it has seen. Events of the write, however late they come, then find
    # nothing new; another program's change after it still does.
    # (A flag, not a count: a save superseded on the worker never reports back, and must not leave the watcher
    # deaf; the end of any save ends them all, at worst letting an overlapping one's change bring the banner.)
    def own_write_started(self) -> None:
        self._own = True

    def own_write_done(self) -> None:
        self._own = False
        if self._store is None:
            return
        # Watched afresh: a save may have swapped whole files or folders (a watch would stay on the old inode).
        existing = self._watcher.files() + self._watcher.directories()
        if existing:
            self._watcher.removePaths(existing)
        self._signatures, self._listings = {}, {}
        self._add_all()

    def _database_files(self) -> frozenset[Path]:
        return self._database

    def _candidates(self) -> list[Path]:
        try:
            listed = [Path(p) for p in self._store.watch_paths()]
        except OSError:  # a folder went while the store listed it: the next burst asks again
            listed = []
        names = {str(p) for p in listed}
        database = set()
        for p in listed:
            wal = str(p) + "-wal"
            if wal in names:
                database.update((p, Path(wal)))
        self._database = frozenset(database)
        unique = list(dict.fromkeys(listed))
        return [p for p in unique[: self.MAX_PATHS] if _watchable(p)]

    def _add_all(self) -> None:
        self.scans += 1
        have = set(self._watcher.files() + self._watcher.directories())
        new = [str(x) for x in self._candidates() if str(x) not in have]
        if new:
            self._watcher.addPaths(new)
        for path in self._watcher.files():
            if path not in self._signatures:
                self._signatures[path] = _signature(path)
        for folder in self._watcher.directories():
            if folder not in self._listings:
                self._listings[folder] = _listing(folder)

    def _watch_database_files(self) -> bool:
        """Watch the database and its WAL again if they (re)appeared; True when a WAL came back with data."""
        have = set(self._watcher.files())
        wal_with_data = False
        for path in sorted(self._database_files()):
            if str(path) not in have and _watchable(path):
                self._watcher.addPath(str(path))
                if path.name.endswith("-wal") and _size(path) > 0:
                    wal_with_data = True
        return wal_with_data

    def _on_change(self, path: str) -> None:
        if self.suspended or self._store is None:
            return
        if path.endswith(NOISE) or self._own:
            self.ignored += 1
            return
        seen, now = self._signatures.get(path), _signature(path)
        if now is not None and now == seen:  # news already taken (a late event of the window's own write)
            self.ignored += 1
            return
        self._signatures[path] = now
        if Path(path) not in self._database_files():
            self._rescan = True  # a replaced document must be watched again
        self._note(path)

    def _on_folder_change(self, folder: str) -> None:
        if self.suspended or self._store is None:
            return
        if self._own:
            self.ignored += 1
            return
        listing = _listing(folder)
        if listing == self._listings.get(folder):
            # Only SQLite's side files came or went (a checkpoint, a reader's -shm). A WAL that appeared
            # holding commits is a database change; anything else is not.
            if self._watch_database_files():
                self._note(str(next(p for p in sorted(self._database_files()) if p.name.endswith("-wal"))))
            else:
                self.ignored += 1
            return
        self._listings[folder] = listing
        self._rescan = True
        self._note(folder)

    def _note(self, path: str) -> None:
        self._last = path
        self._burst.add(path)
        if Path(path) in self._database_files():
            if not self._live.isActive():
                self._live.start()
        else:
            self._other = True
        if not self._debounce.isActive():  # not restarted: a steady writer must not postpone it for ever
            self._debounce.start()

    def _emit(self) -> None:
        if self._store is None:
            return
        if self._rescan:
            self._rescan = False
            self._add_all()
        else:
            self._watch_database_files()
        self.database_only, self._other = not self._other, False
        self.last_paths, self._burst = frozenset(self._burst), set()
        name = Path(self._last).name
        what = "The database changed" if Path(self._last) in self._database_files() else f"{name} changed"
        self.changed.emit(f"{what} on disk.")

    def _emit_database(self) -> None:
        if self._store is not None and not self.suspended:
            self.database_changed.emit()
