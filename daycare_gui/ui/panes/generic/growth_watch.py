"""Live follow for a kind that names its session's files (``growth_paths``): the conversation view's watch
on them, which has its list read on when the session's ``growth_token`` moved.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QFileSystemWatcher, QTimer

from daycare_gui.stores.records import SessionRef

LIVE_MS = 100  # a kind's growing session is re-checked at most this often, only after its files changed


class GrowthWatch:
    """Follows the session shown while its kind's files change (a kind with ``growth_paths``): after a
    change (at most every LIVE_MS) it asks ``growth_token`` and, when that moved, has the model read on."""

    def __init__(self, view) -> None:
        self.view = view
        self.cap = None
        self.ref: SessionRef | None = None
        self.token = None
        self.busy = self.again = False
        self.watcher = QFileSystemWatcher(view)
        self.timer = QTimer(view, singleShot=True, interval=LIVE_MS)
        self.watcher.fileChanged.connect(self._changed)
        self.timer.timeout.connect(self.check)

    def follow(self, cap, ref: SessionRef) -> None:
        self.stop()
        self.cap, self.ref, self.token, self.busy, self.again = cap, ref, None, False, False
        paths = [str(p) for p in cap.growth_paths(ref) if p.exists()]
        if paths:
            self.watcher.addPaths(paths)
            worker_cap = cap
            self.view.ctx.worker.submit(f"{self.view._channel}-token", lambda: worker_cap.growth_token(ref),
                                        on_result=lambda t, r=ref: self._token(r, t))

    def stop(self) -> None:
        self.timer.stop()
        if self.watcher.files():
            self.watcher.removePaths(self.watcher.files())
        self.ref = None

    def _token(self, ref: SessionRef, token) -> None:
        if ref == self.ref and self.token is None:
            self.token = token

    def _changed(self, path: str) -> None:
        if path not in self.watcher.files() and self.ref is not None and os.path.exists(path):
            self.watcher.addPath(path)  # replaced by an atomic save: watch the new file
        if not self.timer.isActive():  # not restarted: a steady writer is still checked every LIVE_MS
            self.timer.start()

    def check(self) -> None:
        ref, cap = self.ref, self.cap
        if ref is None or ref != self.view.ref:
            return
        if self.busy:
            self.again = True
            return
        self.busy = True
        self.view.ctx.worker.submit(f"{self.view._channel}-token", lambda: cap.growth_token(ref), supersede=False,
                                    on_result=lambda t, r=ref: self._checked(r, t), on_error=lambda _m: self._done())

    def _checked(self, ref: SessionRef, token) -> None:
        moved = ref == self.ref and (token is None or token != self.token)
        if ref == self.ref:
            self.token = token
        if moved:
            self.view.model.follow_writer()
        self._done()

    def _done(self) -> None:
        self.busy = False
        if self.again:
            self.again = False
            self.check()
