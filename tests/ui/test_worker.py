"""The DB worker: results arrive on the GUI thread, stale answers are dropped, long jobs cancel, a cancelled
query lets go of the thread, channels stay few, and shutting down never waits for a running job."""

import sqlite3
import threading
import time

import pytest

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.ui.worker import LOW, DbWorker, retired_threads_running

ENDLESS = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
           "SELECT count(*) FROM c")


@pytest.fixture
def worker(qtbot):
    w = DbWorker("test-worker")
    yield w
    w.shutdown()


def _flush(qtbot, worker):
    """Answers arrive in order: once a request submitted now is answered, every earlier one was too."""
    done = []
    worker.submit("flush", lambda: True, on_result=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=10000)


def test_result_arrives_on_the_gui_thread(qtbot, worker):
    got = []
    main = threading.get_ident()
    worker.submit("c", lambda: threading.get_ident(), on_result=lambda tid: got.append((tid, threading.get_ident())))
    qtbot.waitUntil(lambda: bool(got), timeout=3000)
    worker_tid, delivered_tid = got[0]
    assert worker_tid != main and delivered_tid == main


def test_newer_request_on_a_channel_drops_the_older_answer(qtbot, worker):
    got = []
    gate = threading.Event()
    worker.submit("c", lambda: (gate.wait(5), "old")[1], on_result=got.append)
    worker.submit("c", lambda: "new", on_result=got.append)
    gate.set()
    qtbot.waitUntil(lambda: "new" in got, timeout=3000)
    assert got == ["new"]  # "old" was answered first (same thread, in order) and dropped


def test_errors_are_reported_not_raised(qtbot, worker):
    errors = []
    worker.submit("c", lambda: 1 / 0, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=3000)
    assert "ZeroDivisionError" in errors[0]


def test_long_job_reports_progress_and_cancels(qtbot, worker):
    progress, results = [], []
    steps_run = []

    def job(report, cancelled):
        for i in range(1000):
            if cancelled():
                return "cancelled"
            steps_run.append(i)
            report(i, 1000, "step")
            time.sleep(0.002)
        return "finished"

    worker.submit_long("long", job, on_result=results.append, on_progress=lambda d, t, m: progress.append(d))
    qtbot.waitUntil(lambda: len(progress) > 3, timeout=3000)
    worker.cancel("long")
    _flush(qtbot, worker)
    assert results == []  # the cancelled job's answer is stale and dropped
    assert len(steps_run) < 1000  # it stopped between steps


def test_a_normal_request_overtakes_queued_background_loads(qtbot, worker):
    order = []
    gate = threading.Event()
    worker.submit("block", lambda: gate.wait(2))  # keeps the thread busy while we queue
    for i in range(3):
        worker.submit(f"bg{i}", lambda i=i: order.append(f"bg{i}"), priority=LOW)
    worker.submit("page", lambda: order.append("page"))
    gate.set()
    qtbot.waitUntil(lambda: len(order) == 4, timeout=3000)
    assert order[0] == "page" and order[1:] == ["bg0", "bg1", "bg2"]


def test_one_channel_keeps_several_requests_in_flight_and_cancels_them_together(qtbot, worker):
    got = []
    gate = threading.Event()
    worker.submit("block", lambda: gate.wait(5))
    for i in range(3):
        worker.submit("chunks", lambda i=i: i, on_result=got.append, supersede=False)
    gate.set()
    qtbot.waitUntil(lambda: len(got) == 3, timeout=3000)
    assert sorted(got) == [0, 1, 2]  # none made the others stale

    got.clear()
    gate.clear()
    ran = []
    worker.submit("block", lambda: gate.wait(5))
    for i in range(3):
        worker.submit("chunks", lambda i=i: ran.append(i), on_result=got.append, supersede=False)
    worker.cancel("chunks")  # e.g. the model's keys changed
    gate.set()
    _flush(qtbot, worker)
    assert got == [] and ran == []  # queued requests of a cancelled channel are not even run


def test_channels_stay_few_however_many_requests_were_made(qtbot, worker):
    got = []
    for i in range(500):
        worker.submit(f"page-{i}", lambda i=i: i, on_result=got.append)
    qtbot.waitUntil(lambda: len(got) == 500, timeout=10000)
    assert worker.channels_in_use() == 0  # nothing in flight, nothing remembered
    worker.cancel_all()
    assert worker.channels_in_use() == 0


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "daycare.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    database = ReadOnlyDatabase(path)
    yield database
    database.close()


def test_a_cancelled_request_stops_its_running_query(qtbot, worker, db):
    started = threading.Event()
    answers = []
    worker.submit("search", lambda: (started.set(), db.rows(ENDLESS))[1], on_result=answers.append,
                  on_error=answers.append)
    assert started.wait(5)
    worker.cancel("search")  # the user typed on: the old query is not wanted
    t = time.perf_counter()
    _flush(qtbot, worker)  # the thread is free again long before the endless query could end
    assert time.perf_counter() - t < 5
    assert answers == []


def test_shutdown_does_not_wait_for_a_running_query(qtbot, db):
    worker = DbWorker("test-shutdown")
    started = threading.Event()
    answers = []
    worker.submit("slow", lambda: (started.set(), db.rows(ENDLESS))[1], on_result=answers.append,
                  on_error=answers.append)
    assert started.wait(5)
    t = time.perf_counter()
    worker.shutdown()
    assert time.perf_counter() - t < 0.5
    assert retired_threads_running() >= 1  # still running its query
    db.close()  # what closing the store does: the query is interrupted and the thread ends
    qtbot.waitUntil(lambda: retired_threads_running() == 0, timeout=5000)
    assert answers == []  # nobody is answered after shutdown


def test_an_answer_for_a_worker_taken_apart_without_shutdown_is_dropped_quietly(qtbot, monkeypatch):
    """At exit a window can be taken apart without being closed: its worker's bridge goes while a job is
    still running. The job's answer is dropped, and the thread ends without an error."""
    import shiboken6

    thread_errors = []
    monkeypatch.setattr(threading, "excepthook", thread_errors.append)
    worker = DbWorker("test-worker-gone")
    started, gate = threading.Event(), threading.Event()
    worker.submit("c", lambda: (started.set(), gate.wait(5), "late")[2])
    assert started.wait(5)
    shiboken6.delete(worker._bridge)
    thread = worker._thread
    worker._queue.put((-1, -1, 0, None, False, None))  # then the thread's stop marker
    gate.set()
    thread.join(5)
    assert not thread.is_alive()
    assert thread_errors == []
