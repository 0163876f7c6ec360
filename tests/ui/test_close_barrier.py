"""A store closes only after the job reading it has ended: closing it beneath a running query freed the
connection under its user and could crash the process (seen with the Jump To index of a CianaParrot store)."""

import threading

from daycare_gui.ui.worker import DbWorker, close_in_background, wait_for_background_work


def test_a_store_closes_only_after_the_running_job_ends(qtbot):
    worker = DbWorker("test-barrier")
    started, release = threading.Event(), threading.Event()
    order: list[str] = []

    def reading():
        started.set()
        release.wait(10)
        order.append("job ended")

    worker.submit("read", reading)
    assert started.wait(10)
    worker.cancel_all()  # as close_store does: the answer is no longer wanted, the job still runs
    closed = threading.Event()
    close_in_background(lambda: (order.append("store closed"), closed.set()), (worker.barrier(),))
    assert not closed.wait(0.3)  # the close waits while the job still reads the store
    release.set()
    assert closed.wait(10)
    assert order == ["job ended", "store closed"]
    worker.shutdown()
    assert wait_for_background_work(10)


def test_a_barrier_of_a_held_or_shut_down_worker_does_not_wait(qtbot):
    held = DbWorker("test-held")
    held.hold()
    assert held.barrier().wait(5)  # nothing runs on a held worker: nothing to wait for
    held.release()
    held.shutdown()
    assert held.barrier().is_set()
    assert wait_for_background_work(10)
