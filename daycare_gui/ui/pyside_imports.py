"""Stops PySide6 from reading the source of every module imported after it.

Importing PySide6 replaces ``builtins.__import__`` with a hook for its optional ``from __feature__ import
snake_case, true_property`` syntax. After every import that hook records whether the new module "uses
PySide6", which it finds out by reading the module's whole source file (``inspect.getsource``, through
``linecache``, which then keeps every file's lines in memory). The window imports some 150 modules after
Qt: that read took ~45 ms of start-up (medians of 10 imports of the window's modules on this machine,
with and without it). The answer only selects which ``__feature__`` set a module sees, and this
application selects none: every module is recorded as a PySide user with no feature, which is what the
scan answers for our own modules anyway. A module that does select a feature still gets it (the hook
records an explicit selection before this check).

The check lives in PySide's private ``shibokensupport.feature`` module; if a PySide release renames it,
nothing changes here but the speed.
"""

from __future__ import annotations

import sys


def skip_source_scan() -> bool:
    """Answer PySide's "does this module use PySide6?" without reading the module's source. Returns whether
    the check was found (call after importing PySide6)."""
    feature = sys.modules.get("shibokensupport.feature")
    if feature is None or not callable(getattr(feature, "_mod_uses_pyside", None)):
        return False
    feature._mod_uses_pyside = _uses_pyside
    return True


def _uses_pyside(module) -> bool:
    return True  # feature set 0 ("none"): what a module that imports PySide6 and selects no feature gets
