"""The status bar's "Loading…", said only of a read the user is kept waiting for."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel


class BusyLabel(QLabel):
    """Says "Loading…" once the page worker has been busy for SHOW_AFTER_MS, and nothing once it is idle.

    Most reads take a few milliseconds. Saying each of them made the status bar flicker with every page
    read while scrolling, and each change of its text laid the status bar out and painted it again, in
    the middle of opening a session. A read that keeps the user waiting is still named."""

    SHOW_AFTER_MS = 300
    TEXT = "Loading…"

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self, singleShot=True, interval=self.SHOW_AFTER_MS)
        self._timer.timeout.connect(lambda: self.setText(self.TEXT))

    def set_busy(self, busy: bool) -> None:
        if busy:  # (the worker reports each change once: busy, then idle)
            self._timer.start()
        else:
            self._timer.stop()
            self.setText("")
