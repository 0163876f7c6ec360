"""A PGlite store named when the window starts is copied and served from the process's first moments (#35).

The copy (the kernel's, the disk's time) and PGlite's start (a Node process of its own) need nothing of
the window, yet the window's open began them only after Python had imported Qt and the app and built the
window: 1 to 2 s of a 4 s open spent before the first byte was copied. :func:`start` begins them on a
thread of their own as soon as the command line is read; :func:`take`, called by the open where it would
copy, waits for that copy instead of making a second one. The open's own checks run as before (a damaged
folder, the engine running, what was left over): a head start is only the copy and the server, and one
the open does not take (the engine is running by then, the window opened something else) is stopped and
its copy removed, at the latest when the process exits. Nothing is read from the store beyond the copy.
"""

from __future__ import annotations

import atexit
import os
import threading

_lock = threading.Lock()
_started: dict[str, _HeadStart] = {}  # the .pglite folder's real path → its head start


class _HeadStart:
    def __init__(self, folder) -> None:
        self.folder = folder
        self.result = None  # (PgliteServer, CopyState | None) once served
        self._taken = False
        self._thread = threading.Thread(target=self._run, name="pglite-head-start", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from daycare_gui.stores.daycare.pg.open import serve_copy
        from daycare_gui.stores.daycare.pg.pglite_check import check_pglite_folder
        from daycare_gui.stores.daycare.pg.runtime import find_runtime

        try:
            check_pglite_folder(self.folder)  # (a damaged folder: the open says so, as before)
            runtime = find_runtime()  # None: PGlite is not installed yet; the open installs it and copies
            if runtime is not None:
                self.result = serve_copy(self.folder, runtime, None, lambda: False)
        except Exception:  # whatever failed here fails again in the open, and is said there
            self.result = None

    def wait(self, cancelled) -> None:
        while self._thread.is_alive() and not cancelled():
            self._thread.join(0.05)

    def discard(self) -> None:
        """Stop the server and remove its copy (when the copy is made; a thread still copying is waited for)."""
        self._thread.join()
        result, self.result = self.result, None
        if result is not None:
            result[0].close(kill=True)


def start(path) -> bool:
    """Begin copying and serving the PGlite store ``path`` names (its root, its settings.json, its ``.pglite``
    folder), if it names one (True); anything else is left to the open. Never raises, never blocks."""
    try:
        from daycare_gui.stores.daycare.pg.kept_roots import pglite_target

        target = pglite_target(path)
    except Exception:
        return False
    if target is None:
        return False
    # What the thread runs is imported here, first: CPython's first import of a package from two threads at
    # once can fail (gh-83065), and this thread goes on to import Qt and the window (ui/preload.py says more).
    import subprocess  # noqa: F401

    import platformdirs  # noqa: F401

    from daycare_gui.stores.common import kept, tree_fingerprint  # noqa: F401
    from daycare_gui.stores.daycare.pg import history_keys, pglite_check, pglite_copy, runtime  # noqa: F401

    folder = target.paths.pglite_path
    with _lock:
        if os.path.realpath(folder) not in _started:
            _started[os.path.realpath(folder)] = _HeadStart(folder)
    return True


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
        threading.Thread(target=head.discard, name="pglite-head-discard", daemon=True).start()
        return None
    result, head.result = head.result, None
    return result


def discard_all() -> None:
    """Every head start no open took: stopped and its copy removed (at exit, or when the open decided
    against one)."""
    with _lock:
        heads = list(_started.values())
        _started.clear()
    for head in heads:
        head.discard()


atexit.register(discard_all)
