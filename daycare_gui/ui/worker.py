"""The DB worker: one background thread that runs every query that can be slow.

Requests go in with a *channel* (e.g. ``"agents"``, ``"history"``); a newer request on the same channel
makes older ones stale, and stale answers are dropped instead of delivered. Answers arrive on the GUI
thread through a queued Qt signal, so callbacks may touch widgets. Long jobs get ``progress`` and
``cancelled`` callables and stop between steps when asked.

Object lifetime rule: the worker thread must never hold the *last* reference to anything that can own
a QObject (a job's callbacks, or a function bound to a pane). If it did, Python would destroy that
QObject on the worker thread while the GUI thread may still have events posted to it — a crash in
``QApplication::notify``. So the GUI thread keeps every job in ``_jobs`` until its answer is delivered,
the worker drops its own references *before* it reports, and only ids cross the thread boundary.
"""

from __future__ import annotations

import itertools
import logging
import queue
import threading
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)

NORMAL = 0
LOW = 1  # runs only when no NORMAL request is waiting (row-key loads, prefetch)


@dataclass
class Job:
    channel: str
    generation: int
    fn: Callable[..., Any]
    on_result: Callable[[Any], None] | None
    on_error: Callable[[str], None] | None
    on_progress: Callable[[int, int, str], None] | None
    long: bool = False
    priority: int = NORMAL  # lower runs first
    cancel_flag: threading.Event = field(default_factory=threading.Event)
    id: int = 0

    def cancelled(self) -> bool:
        return self.cancel_flag.is_set()


class _Bridge(QObject):
    """Lives on the GUI thread; signals emitted from the worker thread are queued to it."""

    result = Signal(int, object)  # job id, value
    error = Signal(int, str)  # job id, message
    progress = Signal(int, int, int, str)  # job id, done, total, message


class DbWorker(QObject):
    busy_changed = Signal(bool)

    def __init__(self, name: str = "db-worker", parent: QObject | None = None) -> None:
        super().__init__(parent)
        # (priority, sequence, job id, fn, long, cancel flag): FIFO within a priority, so a page the
        # user waits for overtakes background loads queued earlier. No callbacks in here.
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._sequence = itertools.count()
        self._ids = itertools.count(1)
        self._jobs: dict[int, Job] = {}  # GUI-thread side: alive until delivered
        self._generations: dict[str, int] = {}
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._bridge = _Bridge()
        self._bridge.result.connect(self._deliver_result)
        self._bridge.error.connect(self._deliver_error)
        self._bridge.progress.connect(self._deliver_progress)
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # -- GUI-thread API ------------------------------------------------------------------------
    def submit(self, channel: str, fn: Callable[[], Any], on_result=None, on_error=None, *,
               priority: int = NORMAL) -> Job:
        """Run ``fn()`` off the GUI thread; ``on_result(value)`` runs on the GUI thread unless stale."""
        return self._enqueue(Job(channel, self._bump(channel), fn, on_result, on_error, None, priority=priority))

    def submit_long(self, channel: str, fn: Callable[..., Any], on_result=None, on_error=None,
                    on_progress=None) -> Job:
        """Run ``fn(progress, cancelled)``; ``progress(done, total, message)`` reaches ``on_progress``."""
        return self._enqueue(Job(channel, self._bump(channel), fn, on_result, on_error, on_progress, long=True))

    def cancel(self, channel: str) -> None:
        """Make every request on ``channel`` stale (running long jobs see ``cancelled()``)."""
        self._bump(channel)

    def cancel_all(self) -> None:
        """Every request so far becomes stale (used when the store closes: its panes are going away)."""
        for channel in list(self._generations):
            self._bump(channel)

    def is_busy(self) -> bool:
        return bool(self._jobs)

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop the thread; a job still running finishes but its answer is never delivered."""
        self._closed = True
        self.cancel_all()
        self._queue.put((99, next(self._sequence), 0, None, False, None))
        self._thread.join(timeout)
        self._jobs.clear()  # on the GUI thread: the callbacks die here, not on the worker

    # -- internals -----------------------------------------------------------------------------
    def _bump(self, channel: str) -> int:
        with self._lock:
            gen = next(self._counter)
            self._generations[channel] = gen
        for job in self._jobs.values():  # includes the running job: it stays here until delivered
            if job.channel == channel and job.generation != gen:
                job.cancel_flag.set()
        return gen

    def _is_current(self, job: Job) -> bool:
        with self._lock:
            return self._generations.get(job.channel) == job.generation

    def _enqueue(self, job: Job) -> Job:
        job.id = next(self._ids)
        was_idle = not self._jobs
        self._jobs[job.id] = job
        if was_idle:
            self.busy_changed.emit(True)
        self._queue.put((job.priority, next(self._sequence), job.id, job.fn, job.long, job.cancel_flag))
        return job

    def _run(self) -> None:
        while True:
            _priority, _seq, job_id, fn, long, cancelled = self._queue.get()
            if fn is None:
                return
            value, message = _STALE, None
            if not cancelled.is_set():  # a stale request is skipped, and only reported as done
                try:
                    if long:
                        def progress(done, total, msg="", _id=job_id):
                            self._emit(self._bridge.progress, _id, int(done), int(total), str(msg))

                        value = fn(progress, cancelled.is_set)
                        progress = None
                    else:
                        value = fn()
                except Exception as exc:  # reported to the caller, never raised into Qt's event loop
                    log.debug("job %s failed: %s", job_id, traceback.format_exc())
                    message = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                    del exc  # its traceback's frames may reference the function's closure
            # Drop the worker's reference before reporting: the GUI thread must be the last owner.
            fn = None
            if message is not None:
                self._emit(self._bridge.error, job_id, message)
            else:
                self._emit(self._bridge.result, job_id, value)
            value = None

    def _emit(self, signal, *args) -> None:
        # After shutdown the owner may be gone; an answer then has nobody to go to.
        if not self._closed:
            signal.emit(*args)

    def _finish(self, job_id: int) -> Job | None:
        job = self._jobs.pop(job_id, None)
        if not self._jobs:
            self.busy_changed.emit(False)
        return job

    def _deliver_result(self, job_id: int, value) -> None:
        job = self._finish(job_id)
        if job is None or value is _STALE or not self._is_current(job) or job.on_result is None:
            return
        job.on_result(value)

    def _deliver_error(self, job_id: int, message: str) -> None:
        job = self._finish(job_id)
        if job is None or not self._is_current(job):
            return
        if job.on_error is not None:
            job.on_error(message)
        else:
            log.warning("background job %s failed: %s", job.channel, message)

    def _deliver_progress(self, job_id: int, done: int, total: int, message: str) -> None:
        job = self._jobs.get(job_id)
        if job is not None and self._is_current(job) and job.on_progress is not None:
            job.on_progress(done, total, message)


_STALE = object()
