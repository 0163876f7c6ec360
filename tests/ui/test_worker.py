"""The DB worker: results arrive on the GUI thread, stale answers are dropped, long jobs cancel."""

import threading
import time

from daycare_gui.ui.worker import DbWorker


def test_result_arrives_on_the_gui_thread(qtbot):
    worker = DbWorker()
    got = []
    main = threading.get_ident()
    worker.submit("c", lambda: threading.get_ident(), on_result=lambda tid: got.append((tid, threading.get_ident())))
    qtbot.waitUntil(lambda: bool(got), timeout=3000)
    worker_tid, delivered_tid = got[0]
    assert worker_tid != main and delivered_tid == main
    worker.shutdown()


def test_newer_request_on_a_channel_drops_the_older_answer(qtbot):
    worker = DbWorker()
    got = []
    worker.submit("c", lambda: (time.sleep(0.2), "old")[1], on_result=got.append)
    worker.submit("c", lambda: "new", on_result=got.append)
    qtbot.waitUntil(lambda: "new" in got, timeout=3000)
    qtbot.wait(300)
    assert got == ["new"]
    worker.shutdown()


def test_errors_are_reported_not_raised(qtbot):
    worker = DbWorker()
    errors = []
    worker.submit("c", lambda: 1 / 0, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=3000)
    assert "ZeroDivisionError" in errors[0]
    worker.shutdown()


def test_long_job_reports_progress_and_cancels(qtbot):
    worker = DbWorker()
    progress, results = [], []
    started = threading.Event()

    def job(report, cancelled):
        for i in range(100):
            started.set()
            if cancelled():
                return "cancelled"
            report(i, 100, "step")
            time.sleep(0.01)
        return "finished"

    worker.submit_long("long", job, on_result=results.append, on_progress=lambda d, t, m: progress.append(d))
    qtbot.waitUntil(lambda: len(progress) > 3, timeout=3000)
    worker.cancel("long")
    qtbot.wait(300)
    assert results == []  # the cancelled job's answer is stale and dropped
    assert len(progress) < 100
    worker.shutdown()


def test_a_normal_request_overtakes_queued_background_loads(qtbot):
    from daycare_gui.ui.worker import LOW

    worker = DbWorker()
    order = []
    gate = threading.Event()
    worker.submit("block", lambda: gate.wait(2))  # keeps the thread busy while we queue
    for i in range(3):
        worker.submit(f"bg{i}", lambda i=i: order.append(f"bg{i}"), priority=LOW)
    worker.submit("page", lambda: order.append("page"))
    gate.set()
    qtbot.waitUntil(lambda: len(order) == 4, timeout=3000)
    assert order[0] == "page" and order[1:] == ["bg0", "bg1", "bg2"]
    worker.shutdown()
