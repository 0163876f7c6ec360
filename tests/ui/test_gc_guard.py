"""Cyclic garbage holding QObjects is collected on the GUI thread, by the GUI timer, never on a worker."""

import gc
import threading

from PySide6.QtCore import QObject

from daycare_gui.ui import gc_guard


class Cyclic(QObject):
    pass


def _cycle(destroyed_on: list) -> None:
    """A QObject only the cycle collector can free; records the thread it is destroyed on."""
    obj = Cyclic()
    obj.me = obj
    obj.destroyed.connect(lambda *_: destroyed_on.append(threading.get_ident()))


def test_a_worker_allocating_never_collects(qtbot, qapp):
    gc_guard.install(qapp)
    assert not gc.isenabled()
    destroyed_on = []
    _cycle(destroyed_on)

    def allocate():  # what a worker does: lots of allocation, which would trigger a collection
        junk = [[i] for i in range(200_000)]
        del junk

    t = threading.Thread(target=allocate)
    t.start()
    t.join()
    assert destroyed_on == []  # nothing was collected on the worker thread
    gc.collect()
    assert destroyed_on == [threading.get_ident()]


def test_the_gui_timer_collects_a_cycle_by_itself(qtbot, qapp):
    collector = gc_guard.install(qapp)
    before = collector.collections
    destroyed_on = []
    _cycle(destroyed_on)
    # Allocate past the young generation's threshold, as a busy GUI does; kept alive so they count.
    junk = [[] for _ in range(2 * gc.get_threshold()[0])]
    qtbot.waitUntil(lambda: bool(destroyed_on), timeout=5000)  # no gc.collect() here: the timer ran it
    assert destroyed_on == [threading.get_ident()]
    assert collector.collections > before
    del junk


class _FakeGc:
    def __init__(self, counts, sizes=(0, 0, 0), found=0):
        self.counts, self.collected, self.sizes, self.found = counts, [], list(sizes), found

    def get_count(self):
        return self.counts

    def get_objects(self, generation=None):
        return [None] * self.sizes[generation]

    def collect(self, generation=2):
        self.collected.append(generation)
        return self.found


def test_the_check_follows_the_collector_of_this_python(qtbot, qapp, monkeypatch):
    collector = gc_guard.install(qapp)
    threshold = collector.thresholds[0]
    monkeypatch.setattr(collector, "_long_lived", 0)
    monkeypatch.setattr(collector, "_promoted", 0)
    for incremental, counts, expected in [
        (False, (threshold + 1, 0, 0), [0]),  # up to 3.13: the generation whose count passed its threshold
        (False, (0, 0, collector.thresholds[2] + 1), [2]),
        (False, (0, 0, 0), []),
        (True, (threshold + 1, 0, 0), [1]),  # 3.14: young objects plus one slice of the old generation
        (True, (0, 50, 50), []),  # the old generation's counters do not mean "collect now" there
    ]:
        fake = _FakeGc(counts)
        monkeypatch.setattr(gc_guard, "gc", fake)
        monkeypatch.setattr(gc_guard, "INCREMENTAL", incremental)
        collector.check()
        assert fake.collected == expected, (incremental, counts)


def test_a_full_collection_waits_until_the_old_generation_grew_by_a_quarter(qtbot, qapp, monkeypatch):
    """As Python's own collector does: a full collection walks everything the program keeps (a large store's
    Jump To list is 21,000 objects, ~28 ms), so it runs only once a quarter more has been kept since."""
    collector = gc_guard.install(qapp)
    monkeypatch.setattr(gc_guard, "INCREMENTAL", False)
    monkeypatch.setattr(collector, "_long_lived", 40_000)  # (restored after the test: the collector is shared)
    monkeypatch.setattr(collector, "_promoted", 0)
    old, middle = collector.thresholds[2] + 1, collector.thresholds[1] + 1
    fake = _FakeGc((0, 0, old))
    monkeypatch.setattr(gc_guard, "gc", fake)
    collector.check()
    assert fake.collected == []  # due by the count, but nothing new was kept: no 28 ms pause
    fake = _FakeGc((0, middle, old), sizes=(700, 6_000, 0), found=200)
    monkeypatch.setattr(gc_guard, "gc", fake)
    collector.check()
    assert fake.collected == [1]  # the middle generation instead; 6,500 objects survived it into the old one
    assert collector._promoted == 6_500
    collector.check()
    assert fake.collected == [1, 1]  # 6,500 is not yet a quarter of 40,000: the middle one again
    assert collector._promoted == 13_000  # and now it is
    fake = _FakeGc((0, 0, old), sizes=(0, 0, 52_000))
    monkeypatch.setattr(gc_guard, "gc", fake)
    collector.check()
    assert fake.collected == [2]
    assert (collector._long_lived, collector._promoted) == (52_000, 0)  # counted afresh after it


def test_a_build_kept_is_frozen_and_thawed_when_the_store_closes(qtbot, qapp, monkeypatch):
    """What a store's open builds to keep (its Jump To list: 21,000 entries) is frozen by the first young
    collection that finds it alive, so no later collection walks it again (one did, for 45 ms, in the middle
    of a scroll); cyclic garbage frozen with it is collected once the store is closed."""
    collector = gc_guard.install(qapp)
    monkeypatch.setattr(gc_guard, "INCREMENTAL", False)  # (3.14's collector is not frozen from)
    destroyed_on = []
    old = Cyclic()  # a cycle that lived long enough to reach the old generation, then became garbage
    old.me = old
    old.destroyed.connect(lambda *_: destroyed_on.append(threading.get_ident()))
    gc.collect(1)
    del old
    frozen_before = gc.get_freeze_count()
    kept = [[i] for i in range(2 * gc_guard.FREEZE_SURVIVORS)]  # the build, kept by its pane
    try:
        gc.collect(1)
        assert destroyed_on == []  # (the young collections cannot see it)
        kept.extend([[i] for i in range(2 * gc_guard.FREEZE_SURVIVORS)])
        while gc.get_count()[0] <= collector.thresholds[0]:
            kept.append([])
        collector.check()
        assert gc.get_freeze_count() >= frozen_before + 2 * gc_guard.FREEZE_SURVIVORS
        young_and_old = {id(o) for g in range(3) for o in gc.get_objects(g)}
        assert id(kept[-1]) not in young_and_old  # no collection walks the build now
        gc.collect()
        assert destroyed_on == []  # frozen with it: kept until the store is closed
    finally:
        del kept
        collector.thaw()
        collector.check()
    assert destroyed_on == [threading.get_ident()]  # the store closed: collected, on this thread
    assert collector.frozen == 0


def test_closing_a_store_thaws_what_was_frozen_for_it(qtbot, window, demo_store, monkeypatch):
    from tests.ui.conftest import open_and_wait

    thawed = []
    monkeypatch.setattr(gc_guard, "thaw", lambda: thawed.append(True))
    open_and_wait(qtbot, window, demo_store)
    assert thawed == []
    window.close_store()
    assert thawed == [True]
