"""The head starts under way (:mod:`~daycare_gui.stores.daycare.pg.head_start` begins them): what the open asks
whether one is begun, takes, or discards. Below the open and everything it imports: it imports none of them
(the work each head start runs is handed in), so the open can ask here without an import circle.
"""

from __future__ import annotations

import atexit
import os
import threading

_lock = threading.Lock()
_started: dict[str, _HeadStart] = {}  # the .pglite folder's real path → its head start
_discarding: list[_HeadStart] = []  # given up by a cancelled open, being discarded on a thread of their own


class _HeadStart:
    def __init__(self, folder, work) -> None:
        self.folder = folder
        self.result = None  # (PgliteServer, CopyState | None) once served
        self._work = work  # folder → that pair, or None; raises what the open will say again
        self._discarded = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="pglite-head-start", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.result = self._work(self.folder)
        except Exception:  # whatever failed here fails again in the open, and is said there
            self.result = None

    def wait(self, cancelled) -> None:
        while self._thread.is_alive() and not cancelled():
            self._thread.join(0.05)

    def discard(self) -> None:
        """Stop the server and remove its copy (when the copy is made; a thread still copying is waited for)."""
        self._thread.join()
        # A cancelled open's thread and the exit may both discard it: the second waits until the first has
        # closed the server and removed the copy (an exit that went on meanwhile dropped that thread mid-way,
        # and the copy was left in the temporary folder).
        with self._discarded:
            result, self.result = self.result, None
            if result is not None:
                result[0].close(kill=True)


def begin(folder, work) -> None:
    """Run ``work(folder)`` on a thread of its own, once per folder, until the open takes its answer."""
    with _lock:
        if os.path.realpath(folder) not in _started:
            _started[os.path.realpath(folder)] = _HeadStart(folder, work)


def begun(folder) -> bool:
    """A head start of ``folder`` is under way or done, not taken yet."""
    with _lock:
        return os.path.realpath(folder) in _started


def take(folder, cancelled=lambda: False, progress=None):
    """The head start of ``folder`` (a ``(PgliteServer, CopyState | None)`` pair), waited for, now the caller's
    to close; None when there is none, it failed, or the wait was cancelled (the copy is removed then)."""
    with _lock:
        head = _started.pop(os.path.realpath(folder), None)
    if head is None:
        return None
    if progress and head._thread.is_alive():
        progress(0, 0, "Copying the store and starting PGlite…")
    head.wait(cancelled)
    if cancelled():
        # Discarded on a thread so the cancel returns at once, and listed, so that an exit meanwhile (the
        # window told to stop while it opened) waits for it: a daemon thread is dropped at exit, and its
        # copy with it was left in the temporary folder.
        with _lock:
            _discarding.append(head)
        threading.Thread(target=_discard_given_up, args=(head,), name="pglite-head-discard", daemon=True).start()
        return None
    result, head.result = head.result, None
    return result


def _discard_given_up(head: _HeadStart) -> None:
    head.discard()
    with _lock:
        if head in _discarding:
            _discarding.remove(head)


def discard_all() -> None:
    """Every head start no open took, or a cancelled open gave up: stopped and its copy removed (at exit, or
    when the open decided against one)."""
    with _lock:
        heads = [*_started.values(), *_discarding]
        _started.clear()
        _discarding.clear()
    for head in heads:
        head.discard()


atexit.register(discard_all)
