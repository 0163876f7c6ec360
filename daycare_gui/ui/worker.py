"""The DB worker: one background thread that runs every query that can be slow.

Requests go in with a *channel* (e.g. ``"agents"``, ``"history"``); a newer request on the same channel
makes older ones stale, and stale answers are dropped instead of delivered. A model that keeps several
requests in flight (row chunks, pages) uses one channel with ``supersede=False`` and ``cancel``s it when
its data changes. Answers arrive on the GUI thread through a queued Qt signal, so callbacks may touch
widgets. Long jobs get ``progress`` and ``cancelled`` callables and stop between steps when asked; a SQLite
query of a cancelled request stops too (every job runs inside :func:`daycare_gui.stores.common.sqlite_ro.cancellable`).

Nothing waits for the thread: :meth:`DbWorker.shutdown` returns at once. A job still running finishes (or
is interrupted by closing its database) on its own, and the GUI thread keeps what that job references
until the thread has ended (see ``_retire``).

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
import time
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from daycare_gui.stores.common.sqlite_ro import cancellable

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
        # channel → current generation, only for channels with a job in _jobs: bounded by the jobs in
        # flight, however many channels were ever used.
        self._generations: dict[str, int] = {}
        self._live: dict[str, int] = {}  # channel → its jobs in _jobs
        self._counter = itertools.count(1)
        self._bridge = _Bridge()
        self._bridge.result.connect(self._deliver_result)
        self._bridge.error.connect(self._deliver_error)
        self._bridge.progress.connect(self._deliver_progress)
        self._closed = threading.Event()
        self._open = threading.Event()  # cleared by hold(): queued jobs wait until release()
        self._open.set()
        # The thread gets only what it needs, never this object: so this object (and the callbacks it
        # holds) is always freed on the GUI thread.
        self._thread = threading.Thread(target=_serve, args=(self._queue, self._bridge, self._closed, self._open),
                                        name=name, daemon=True)
        self._thread.start()

    # -- GUI-thread API ------------------------------------------------------------------------
    def submit(self, channel: str, fn: Callable[[], Any], on_result=None, on_error=None, *,
               priority: int = NORMAL, supersede: bool = True) -> Job:
        """Run ``fn()`` off the GUI thread; ``on_result(value)`` runs on the GUI thread unless stale.

        ``supersede=False`` keeps the channel's earlier requests current (several in flight at once)."""
        gen = self._bump(channel) if supersede else self._current(channel)
        return self._enqueue(Job(channel, gen, fn, on_result, on_error, None, priority=priority))

    def submit_long(self, channel: str, fn: Callable[..., Any], on_result=None, on_error=None,
                    on_progress=None) -> Job:
        """Run ``fn(progress, cancelled)``; ``progress(done, total, message)`` reaches ``on_progress``."""
        return self._enqueue(Job(channel, self._bump(channel), fn, on_result, on_error, on_progress, long=True))

    def cancel(self, channel: str) -> None:
        """Make every request on ``channel`` stale (running long jobs see ``cancelled()``)."""
        if self._live.get(channel):
            self._bump(channel)

    def cancel_all(self) -> None:
        """Every request so far becomes stale (used when the store closes: its panes are going away)."""
        for job in self._jobs.values():
            job.cancel_flag.set()
        self._generations.clear()  # no job is current any more; a later request starts afresh

    def is_busy(self) -> bool:
        return bool(self._jobs)

    def barrier(self) -> threading.Event:
        """An event set once the job running now (if any) has ended: a store may be closed only then, as
        closing it under a query still reading it can crash the process (a SQLite or PGlite connection
        freed beneath its user). Queued ahead of everything; jobs queued before it are stale after
        :meth:`cancel_all` and are skipped without running."""
        done = threading.Event()
        if self._closed.is_set() or not self._thread.is_alive():
            done.set()
            return done
        # job id 0 is never a delivered job: its answer is dropped by _finish
        self._queue.put((-1, next(self._sequence), 0, done.set, False, threading.Event()))
        return done

    def hold(self) -> None:
        """Queue jobs without running them until :meth:`release` (one already running finishes)."""
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    def channels_in_use(self) -> int:
        """How many channels have requests in flight (stays small: bounded by the requests)."""
        return len(self._generations)

    def shutdown(self) -> None:
        """Stop the thread without waiting for it: a job still running finishes on its own (closing its
        database interrupts a query) and its answer is never delivered."""
        if self._closed.is_set():
            return
        self._closed.set()
        self._open.set()  # a held worker must reach the stop marker
        self.cancel_all()
        self._queue.put((-1, next(self._sequence), 0, None, False, None))  # before anything still queued
        for signal in (self._bridge.result, self._bridge.error, self._bridge.progress):
            signal.disconnect()
        # The thread may still be running a job whose function holds panes: keep that, the queue and
        # the bridge referenced from here until the thread has ended, so the GUI thread frees them.
        _retire(self._thread, (self._queue, self._bridge, self._jobs))
        self._jobs = {}
        self._live.clear()
        self._generations.clear()

    # -- internals -----------------------------------------------------------------------------
    def _current(self, channel: str) -> int:
        gen = self._generations.get(channel)
        if gen is None:
            gen = self._generations[channel] = next(self._counter)
        return gen

    def _bump(self, channel: str) -> int:
        gen = self._generations[channel] = next(self._counter)
        if self._live.get(channel):
            for job in self._jobs.values():  # includes the running job: it stays here until delivered
                if job.channel == channel:
                    job.cancel_flag.set()
        return gen

    def _is_current(self, job: Job) -> bool:
        return self._generations.get(job.channel) == job.generation

    def _enqueue(self, job: Job) -> Job:
        if self._closed.is_set():  # after shutdown nothing runs; the request is simply never answered
            return job
        job.id = next(self._ids)
        was_idle = not self._jobs
        self._jobs[job.id] = job
        self._live[job.channel] = self._live.get(job.channel, 0) + 1
        if was_idle:
            self.busy_changed.emit(True)
        self._queue.put((job.priority, next(self._sequence), job.id, job.fn, job.long, job.cancel_flag))
        return job

    def _finish(self, job_id: int) -> tuple[Job | None, bool]:
        """Forget a delivered job; returns it and whether its answer is still wanted."""
        job = self._jobs.pop(job_id, None)
        if job is None:
            return None, False
        current = self._is_current(job)
        left = self._live.get(job.channel, 1) - 1
        if left > 0:
            self._live[job.channel] = left
        else:
            self._live.pop(job.channel, None)
            self._generations.pop(job.channel, None)
        if not self._jobs:
            self.busy_changed.emit(False)
        return job, current

    def _deliver_result(self, job_id: int, value) -> None:
        job, current = self._finish(job_id)
        if job is None or value is _STALE or not current or job.on_result is None:
            return
        job.on_result(value)

    def _deliver_error(self, job_id: int, message: str) -> None:
        job, current = self._finish(job_id)
        if job is None or not current:
            return
        if job.on_error is not None:
            job.on_error(message)
        else:
            log.warning("background job %s failed: %s", job.channel, message)

    def _deliver_progress(self, job_id: int, done: int, total: int, message: str) -> None:
        job = self._jobs.get(job_id)
        if job is not None and self._is_current(job) and job.on_progress is not None:
            job.on_progress(done, total, message)


def _serve(jobs: queue.PriorityQueue, bridge: _Bridge, closed: threading.Event, gate: threading.Event) -> None:
    """The worker thread. It never holds the last reference to a job's function (see the module doc)."""

    def emit(signal, *args) -> None:
        if not closed.is_set():  # after shutdown the owner may be gone; an answer has nobody to go to
            try:
                signal.emit(*args)
            except RuntimeError:  # the bridge was deleted without a shutdown (a window taken apart at exit)
                pass

    while True:
        _priority, _seq, job_id, fn, long, cancelled = jobs.get()
        if fn is None:
            return
        if job_id == 0:  # a barrier: everything before it has ended (held or closed, it still answers)
            fn()
            fn = None
            continue
        gate.wait()  # a held worker keeps its queue until released
        value, message = _STALE, None
        if not cancelled.is_set() and not closed.is_set():  # a stale request is skipped, reported as done
            try:
                with cancellable(cancelled.is_set):  # its SQLite queries stop once it is cancelled
                    if long:
                        def progress(done, total, msg="", _id=job_id):
                            emit(bridge.progress, _id, int(done), int(total), str(msg))

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
            emit(bridge.error, job_id, message)
        else:
            emit(bridge.result, job_id, value)
        value = None


# Threads of shut-down workers that are still finishing a job, with what the GUI thread keeps for them.
_retired: list[tuple[threading.Thread, object]] = []
_reaping = False


def _retire(thread: threading.Thread, keep: object) -> None:
    _retired.append((thread, keep))
    if not _reaping:
        _reap()


def _reap() -> None:
    """On the GUI thread: let go of what finished threads no longer use; look again while any runs."""
    global _reaping
    _retired[:] = [(thread, keep) for thread, keep in _retired if thread.is_alive()]
    _reaping = bool(_retired)
    if _reaping:
        QTimer.singleShot(50, _reap)


# Stores closing on threads of their own (a PGlite process to stop, a private copy to delete).
_closing: list[threading.Thread] = []


BARRIER_WAIT_S = 30.0  # a job cancelled at close stops its queries at once; one that cannot is waited for


def close_in_background(close: Callable[[], None], after: tuple[threading.Event, ...] = ()) -> None:
    """Run a store's ``close`` on a thread of its own, so the GUI thread waits for nothing; it starts once
    every event in ``after`` is set (the workers' :meth:`DbWorker.barrier`), so no job still reads the
    store while it closes."""
    def run() -> None:
        deadline = time.monotonic() + BARRIER_WAIT_S
        for event in after:
            if not event.wait(max(0.0, deadline - time.monotonic())):
                log.warning("a background job still reads the store after %.0f s; closing it anyway", BARRIER_WAIT_S)
                break
        close()

    thread = threading.Thread(target=run, name="store-close", daemon=True)
    _closing[:] = [t for t in _closing if t.is_alive()] + [thread]
    thread.start()


def wait_for_background_work(timeout: float) -> bool:
    """At exit, after the event loop: wait (``timeout`` seconds at most in all) for stores still closing and
    shut-down workers still finishing a job. Both are daemon threads, which the interpreter cuts short at
    exit: a store's close would then leave its private copy in the temporary folder, a cancelled open the
    copy it was making. True when all have ended."""
    deadline = time.monotonic() + timeout
    for thread in [*_closing, *(thread for thread, _keep in _retired)]:
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(t.is_alive() for t in _closing) and retired_threads_running() == 0


def retired_threads_running() -> int:
    """Worker threads shut down but still finishing a job (they end on their own)."""
    return sum(1 for thread, _keep in _retired if thread.is_alive())


_STALE = object()
