"""The DB worker: one background thread that runs every query that can be slow.

Requests go in with a *channel* (e.g. ``"agents"``, ``"history"``); a newer request on the same channel
makes older ones stale, and stale answers are dropped instead of delivered. Answers arrive on the GUI
thread through a queued Qt signal, so callbacks may touch widgets. Long jobs get ``progress`` and
``cancelled`` callables and stop between steps when asked.
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


@dataclass
class Job:
    channel: str
    generation: int
    fn: Callable[..., Any]
    on_result: Callable[[Any], None] | None
    on_error: Callable[[str], None] | None
    on_progress: Callable[[int, int, str], None] | None
    long: bool = False
    priority: int = 0  # lower runs first; background key/aggregate loads use LOW
    cancel_flag: threading.Event = field(default_factory=threading.Event)

    def cancelled(self) -> bool:
        return self.cancel_flag.is_set()


NORMAL = 0
LOW = 1  # runs only when no NORMAL request is waiting (row-key loads, prefetch)


class _Bridge(QObject):
    """Lives on the GUI thread; signals emitted from the worker thread are queued to it."""

    result = Signal(object, object)  # job, value
    error = Signal(object, str)  # job, message
    progress = Signal(object, int, int, str)  # job, done, total, message


class DbWorker(QObject):
    busy_changed = Signal(bool)

    def __init__(self, name: str = "db-worker", parent: QObject | None = None) -> None:
        super().__init__(parent)
        # (priority, sequence, job): FIFO within a priority; a page the user waits for overtakes
        # background loads that were queued earlier.
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._sequence = itertools.count()
        self._generations: dict[str, int] = {}
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self._pending = 0
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
        return self._pending > 0

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop the thread; a job still running finishes but its answer is never delivered."""
        self._closed = True
        self.cancel_all()
        self._queue.put((99, next(self._sequence), None))
        self._thread.join(timeout)

    # -- internals -----------------------------------------------------------------------------
    def _bump(self, channel: str) -> int:
        with self._lock:
            gen = next(self._counter)
            self._generations[channel] = gen
            for job in list(self._running_jobs()):
                if job.channel == channel and job.generation != gen:
                    job.cancel_flag.set()
            return gen

    def _running_jobs(self):
        job = getattr(self, "_current", None)
        return [job] if job is not None else []

    def _is_current(self, job: Job) -> bool:
        with self._lock:
            return self._generations.get(job.channel) == job.generation

    def _enqueue(self, job: Job) -> Job:
        self._pending += 1
        if self._pending == 1:
            self.busy_changed.emit(True)
        self._queue.put((job.priority, next(self._sequence), job))
        return job

    def _emit(self, signal, *args) -> None:
        # After shutdown the owner may be gone; an answer then has nobody to go to.
        if not self._closed:
            signal.emit(*args)

    def _run(self) -> None:
        while True:
            _priority, _seq, job = self._queue.get()
            if job is None:
                return
            self._current = job
            try:
                if not self._is_current(job):
                    self._emit(self._bridge.result, job, _STALE)
                    continue
                if job.long:
                    def progress(done, total, message="", _job=job):
                        self._emit(self._bridge.progress, _job, int(done), int(total), str(message))

                    value = job.fn(progress, job.cancelled)
                else:
                    value = job.fn()
                self._emit(self._bridge.result, job, value)
            except Exception as exc:  # reported to the caller, never raised into Qt's event loop
                log.debug("job %s failed: %s", job.channel, traceback.format_exc())
                self._emit(self._bridge.error, job, f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
            finally:
                self._current = None

    def _finish(self) -> None:
        self._pending = max(0, self._pending - 1)
        if self._pending == 0:
            self.busy_changed.emit(False)

    def _deliver_result(self, job: Job, value) -> None:
        self._finish()
        if value is _STALE or not self._is_current(job) or job.on_result is None:
            return
        job.on_result(value)

    def _deliver_error(self, job: Job, message: str) -> None:
        self._finish()
        if self._is_current(job) and job.on_error is not None:
            job.on_error(message)
        elif self._is_current(job):
            log.warning("background job %s failed: %s", job.channel, message)

    def _deliver_progress(self, job: Job, done: int, total: int, message: str) -> None:
        if self._is_current(job) and job.on_progress is not None:
            job.on_progress(done, total, message)


_STALE = object()
