"""Collect Python's cyclic garbage on the GUI thread only.

Panes and models form reference cycles (widgets hold callbacks that hold the widgets). Python's cycle
collector runs in whichever thread happens to allocate when a threshold is crossed — often a worker
thread busy building rows — and would then destroy those QObjects on that thread while the GUI thread
still has events posted to them: a crash in QApplication::notify. So automatic collection is switched
off and a timer on the GUI thread collects instead, as often as Python would have.

That includes Python's rule for the oldest generation: a full collection walks every object the program
keeps (a large store's Jump To list alone is 21,000 objects: ~28 ms), so Python makes one only once the
old generation has grown by a quarter since the last. The timer keeps the same count.

How "as often" reads the collector's counters depends on the Python version: up to 3.13 there are three
generations, each collected when its count passes its threshold; 3.14's incremental collector has a
young generation and an old one scanned a slice at a time, where ``gc.collect(1)`` is what an automatic
collection does (the young objects plus one slice of the old ones).
"""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QObject, QTimer

INCREMENTAL = sys.version_info >= (3, 14)

_installed: GuiThreadCollector | None = None


class GuiThreadCollector(QObject):
    def __init__(self, interval_ms: int = 250, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.collections = 0  # how many collections this timer ran
        gc.disable()
        # What exists by now (modules, classes, functions: the imports) lives as long as the program:
        # leave it out of every collection, so the timer's collections walk only what came later.
        gc.freeze()
        self._long_lived = 0  # objects in the oldest generation after the last full collection
        self._promoted = 0  # objects moved into it since (the survivors of collections of the middle one)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def check(self) -> None:
        counts = gc.get_count()
        if INCREMENTAL:
            if counts[0] > self.thresholds[0]:
                gc.collect(1)
                self.collections += 1
            return
        for generation in (2, 1, 0):
            if counts[generation] <= self.thresholds[generation]:
                continue
            if generation == 2 and self._promoted < self._long_lived / 4:
                continue  # the old generation has not grown by a quarter: a younger one instead
            if generation == 1:
                young = len(gc.get_objects(0)) + len(gc.get_objects(1))
                self._promoted += max(0, young - gc.collect(1))
            else:
                gc.collect(generation)
                if generation == 2:
                    self._long_lived, self._promoted = len(gc.get_objects(2)), 0
            self.collections += 1
            return


def install(app: QObject) -> GuiThreadCollector:
    """Once per process, owned by the application object; returns the collector."""
    global _installed
    if _installed is None:
        _installed = GuiThreadCollector(parent=app)
    return _installed
