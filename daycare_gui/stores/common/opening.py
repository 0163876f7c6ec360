"""Progress and cancel for opening a store, without widening every kind's ``open`` signature.

Most stores open in milliseconds; a few take a while (a PGlite folder is copied, PGlite may be installed
once, a Node process started). The caller — the window's worker or a command — wraps the open in
:func:`reporting`; a kind's slow steps call :func:`stage` and :func:`check` (or read :func:`current`), and
nothing happens when nobody listens. The context is per thread (a ``ContextVar``), so two opens on two
threads never mix their progress.

Work an open owes but the store's first page does not need (walking the store's folders for leftovers of
killed writers, to list them as problems) goes through :func:`later`: the window runs it once its first page
is shown; a command, which keeps no such list, has it run at once, inside the open.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from daycare_gui.stores.api import CannotOpen

Progress = Callable[[int, int, str], None]  # done, total (0: unknown), what is happening


class OpenCancelled(CannotOpen):
    """The user cancelled opening; whatever was made for it (a private copy, a process) is gone."""


class EngineRunning(CannotOpen):
    """The system's engine is writing the store, and the caller asked to be told before a copy is taken
    (``while_running="ask"``): offer to wait until it stops, or to open a copy now."""


# What a kind that must copy the store does when the system's engine is running on it:
COPY_NOW = "copy"  # copy at once (it may be a moment behind); the command line's default
WAIT = "wait"  # wait, polling, until the engine stops (cancellable), then copy
ASK = "ask"  # raise EngineRunning before anything is copied, so the caller can ask the user


@dataclass(frozen=True)
class Listener:
    progress: Progress | None = None
    cancelled: Callable[[], bool] = lambda: False
    while_running: str = COPY_NOW
    # The caller's own work a slow open may run on the opening thread while it only waits for another process
    # (PGlite's start): a command importing what it reads next. Called at most once; what it raises is ignored.
    meanwhile: Callable[[], None] | None = None
    later: Callable[[Callable[[], None]], None] | None = None  # keeps the work of :func:`later` (None: run it now)


_NOBODY = Listener()
_current: ContextVar[Listener | None] = ContextVar("daycare_gui_opening", default=None)


@contextmanager
def reporting(progress: Progress | None = None, cancelled: Callable[[], bool] | None = None, *,
              while_running: str = COPY_NOW, meanwhile: Callable[[], None] | None = None,
              later: Callable[[Callable[[], None]], None] | None = None) -> Iterator[None]:
    token = _current.set(Listener(progress, cancelled or (lambda: False), while_running, meanwhile, later))
    try:
        yield
    finally:
        _current.reset(token)


def current() -> Listener:
    return _current.get() or _NOBODY


def stage(done: int, total: int, message: str) -> None:
    listener = current()
    if listener.progress is not None:
        listener.progress(done, total, message)


def later(work: Callable[[], None]) -> None:
    """``work`` once the store's first page is shown, when the caller keeps such work (the window: on its
    background worker, which waits for the first page); otherwise now. It must not raise, and must be safe to
    run on another thread than the open's, at any time while the store is open."""
    keep = current().later
    if keep is None:
        work()
    else:
        keep(work)


def check(what: str = "opening the store") -> None:
    """Raise :class:`OpenCancelled` when the user cancelled."""
    if current().cancelled():
        raise OpenCancelled(f"cancelled while {what}")


class StderrProgress:
    """The command line's listener: each stage once on stderr; on a terminal the running figure of a
    stage (``Copying … 12 of 61 MB``) is rewritten in place."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._stage = ""
        self._pending_cr = False

    def __call__(self, done: int, total: int, message: str) -> None:
        head = message.split("(")[0].strip()  # "Copying the store (3 of 61 MB)…" → its stage
        if head == self._stage:
            if self.tty:
                self.stream.write(f"\r{message}\x1b[K")
                self.stream.flush()
                self._pending_cr = True
            return
        self._stage = head
        self.stream.write(("\n" if self._pending_cr else "") + message + ("" if self.tty else "\n"))
        self._pending_cr = self.tty
        self.stream.flush()

    def finish(self) -> None:
        if self._pending_cr:
            self.stream.write("\n")
            self.stream.flush()
            self._pending_cr = False
