"""Notices when the open store changes on disk and says so — it never reloads by itself.

Atomic saves by other programs replace files (a new inode), which drops them from
QFileSystemWatcher; we watch folders too and re-add file paths after every change.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from daycare_gui.core.paths import DaycarePaths


class StoreWatcher(QObject):
    changed = Signal(str)  # a human description of what changed

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._on_change)
        self._watcher.directoryChanged.connect(self._on_change)
        self._debounce = QTimer(self, singleShot=True, interval=400)
        self._debounce.timeout.connect(self._emit)
        self._last = ""
        self._paths: DaycarePaths | None = None
        self.suspended = False

    def watch(self, paths: DaycarePaths | None) -> None:
        # A change still waiting out the debounce belongs to what was watched before (an upgrade just
        # swapped the database, say): the store about to be read from disk already includes it.
        self._debounce.stop()
        existing = self._watcher.files() + self._watcher.directories()
        if existing:
            self._watcher.removePaths(existing)
        self._paths = paths
        if paths is not None:
            self._add_all()

    # Editable documents are watched one by one (a folder watch does not see a file inside a subfolder
    # change); the cap keeps a huge store from exhausting the system's watch descriptors.
    MAX_DOCUMENTS = 2000
    DOCUMENT_GLOBS = ("cron/*/TASK.md", "cron/*/MEMORY.md", "heartbeat/*.md")
    HOME_GLOBS = ("apps/*/*.md", "skills/**/SKILL.md", "home/knowledge/*.md")

    def _candidates(self) -> list[Path]:
        p = self._paths
        files = [p.db_path, Path(str(p.db_path) + "-wal"), p.settings_path, p.auth_path]
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
        have = set(self._watcher.files() + self._watcher.directories())
        new = [str(x) for x in self._candidates() if str(x) not in have]
        if new:
            self._watcher.addPaths(new)

    def _on_change(self, path: str) -> None:
        if self.suspended or self._paths is None:
            return
        self._last = path
        self._add_all()  # re-watch replaced files
        self._debounce.start()

    def _emit(self) -> None:
        name = Path(self._last).name
        what = "The database changed" if name.startswith("daycare.db") else f"{name} changed"
        self.changed.emit(f"{what} on disk.")
