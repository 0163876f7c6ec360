"""Closing a store, or the window, never waits on the GUI thread for a query still running on a worker."""

from __future__ import annotations

import threading
import time

from daycare_gui.ui.worker import retired_threads_running
from tests.ui.conftest import open_and_wait

ENDLESS = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) "
           "SELECT count(*) FROM c")


def _start_endless_queries(window) -> list:
    """An endless query on each of the window's two workers; returns once both run."""
    db = window.opened.core.db
    answers = []
    for worker in (window.worker, window.bg_worker):
        started = threading.Event()
        worker.submit("endless", lambda s=started: (s.set(), db.rows(ENDLESS))[1], on_result=answers.append,
                      on_error=answers.append)
        assert started.wait(10)
    return answers


def test_closing_the_store_lets_running_queries_go(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("search")  # its indexer is a third worker, shut down with the pane
    answers = _start_endless_queries(window)
    t = time.perf_counter()
    window.close_store()
    assert time.perf_counter() - t < 1.0
    assert window.central.currentWidget() is window.welcome
    # the workers are free again: a new request is answered although the endless queries never finished
    done = []
    window.worker.submit("after", lambda: "free", on_result=done.append)
    window.bg_worker.submit("after", lambda: "free", on_result=done.append)
    qtbot.waitUntil(lambda: done == ["free", "free"], timeout=5000)
    assert answers == []  # the interrupted queries answer nobody: their panes are gone


def test_closing_the_window_returns_at_once(qtbot, window, demo_store):
    open_and_wait(qtbot, window, demo_store)
    window.show_section("search")
    _start_endless_queries(window)
    t = time.perf_counter()
    window.close()
    assert time.perf_counter() - t < 1.0  # it used to join each worker for up to 5 s
    qtbot.waitUntil(lambda: retired_threads_running() == 0, timeout=5000)  # and they did stop
