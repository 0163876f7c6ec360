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

from daycare_gui.stores.daycare.pg import head_starts
from daycare_gui.stores.daycare.pg.head_starts import _started, begun, discard_all, take  # noqa: F401


def _serve(folder):
    """The head start's work: the folder checked, then copied and served by the app's pinned PGlite (None when
    PGlite is not installed yet: the open installs it and copies)."""
    from daycare_gui.stores.daycare.pg.open import _Beside, serve_copy
    from daycare_gui.stores.daycare.pg.pglite_check import check_pglite_folder
    from daycare_gui.stores.daycare.pg.runtime import find_runtime

    check_pglite_folder(folder)  # (a damaged folder: the open says so, as before)
    trusted = _Beside(find_runtime)  # PGlite's files checked while Node starts (PgliteServer asks once it has)

    def runtime():
        found = trusted.result()
        if found is None:
            raise _NotInstalled
        return found

    try:
        return serve_copy(folder, runtime, None, lambda: False)
    except _NotInstalled:
        return None


class _NotInstalled(Exception):
    """No trusted PGlite here yet: the head start stops its Node, and the open installs PGlite."""


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

    head_starts.begin(target.paths.pglite_path, _serve)
    return True
