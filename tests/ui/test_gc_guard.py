"""Cyclic garbage holding QObjects is collected on the GUI thread, never on a worker thread."""

import gc
import threading

from PySide6.QtCore import QObject


def test_automatic_collection_is_off_and_the_gui_timer_collects(qtbot):
    from daycare_gui.ui import gc_guard

    collector = gc_guard._installed
    assert collector is not None and not gc.isenabled()
    destroyed_on = []

    class Cyclic(QObject):
        pass

    obj = Cyclic()
    obj.me = obj  # a cycle: only the cycle collector can free it
    obj.destroyed.connect(lambda *_: destroyed_on.append(threading.get_ident()))
    del obj

    def allocate():  # what a worker does: lots of allocation, which would trigger a collection
        junk = [[i] for i in range(200_000)]
        del junk

    t = threading.Thread(target=allocate)
    t.start()
    t.join()
    assert destroyed_on == []  # nothing was collected on the worker thread
    gc.collect()  # the GUI timer does this (by generation); here at once
    assert destroyed_on == [threading.get_ident()]
