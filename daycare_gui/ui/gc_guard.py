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

What a store's open builds to keep (its Jump To list, an agent's 20,000-row session list) is frozen as
soon as a young collection finds it alive: left to the collector, it was walked again by the next
collection of each generation it reached (45 ms in the middle of a scroll, for 21,000 entries), though it
lives as long as the store. Freezing takes every object the collector tracks, so cyclic garbage that waited
in the old generation is kept too, until the store is closed: then everything is thawed and collected once.
"""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QObject, QTimer

INCREMENTAL = sys.version_info >= (3, 14)

_installed: GuiThreadCollector | None = None

# Objects a young collection found alive, at least, for it to freeze them: a build meant to be kept (a
# page of 200 messages is ~600; a large store's lists are tens of thousands)
FREEZE_SURVIVORS = 10_000


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
        self.frozen = 0  # objects frozen since the last thaw (builds kept, see FREEZE_SURVIVORS)
        self._thaw_due = False
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def thaw(self) -> None:
        """What was frozen since start-up may be garbage now (the store it was built for is closed): at the
        next check, collect everything once and freeze what is left (the program's own objects again)."""
        self._thaw_due = True

    def check(self) -> None:
        if self._thaw_due:
            self._thaw_due = False
            if self.frozen:
                gc.unfreeze()
                gc.collect()
                gc.freeze()
                self.frozen, self._long_lived, self._promoted = 0, 0, 0
                self.collections += 1
                return
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
            if generation == 2:
                gc.collect(2)
                self._long_lived, self._promoted = len(gc.get_objects(2)), 0
            else:
                young = len(gc.get_objects(0)) + (len(gc.get_objects(1)) if generation == 1 else 0)
                survivors = max(0, young - gc.collect(generation))
                if survivors >= FREEZE_SURVIVORS:
                    gc.freeze()  # (all the collector tracks: what is older than them too)
                    self.frozen += survivors
                elif generation == 1:
                    self._promoted += survivors
            self.collections += 1
            return


def install(app: QObject) -> GuiThreadCollector:
    """Once per process, owned by the application object; returns the collector."""
    global _installed
    if _installed is None:
        _installed = GuiThreadCollector(parent=app)
    return _installed


def thaw() -> None:
    """The open store is closed: what was frozen for it is collected at the next check (see ``thaw``)."""
    if _installed is not None:
        _installed.thaw()
