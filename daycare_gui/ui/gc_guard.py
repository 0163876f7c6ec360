"""Collect Python's cyclic garbage on the GUI thread only.

Panes and models form reference cycles (widgets hold callbacks that hold the widgets). Python's cycle
collector runs in whichever thread happens to allocate when a threshold is crossed — often a worker
thread busy building rows — and would then destroy those QObjects on that thread while the GUI thread
still has events posted to them: a crash in QApplication::notify. So automatic collection is switched
off and a timer on the GUI thread collects instead, by generation, as often as Python would have.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

_installed: GuiThreadCollector | None = None


class GuiThreadCollector(QObject):
    def __init__(self, interval_ms: int = 250, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def check(self) -> None:
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.thresholds[generation]:
                gc.collect(generation)
                return


def install(app: QObject) -> GuiThreadCollector:
    """Once per process, owned by the application object."""
    global _installed
    if _installed is None:
        _installed = GuiThreadCollector(parent=app)
    return _installed
