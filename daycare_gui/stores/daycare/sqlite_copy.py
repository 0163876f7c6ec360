"""Moved to :mod:`daycare_gui.stores.common.sqlite_copy` (it names no store kind); this name stays so older imports keep working.

The old name is the same module object, so a patch through either name reaches the code."""

import sys

from daycare_gui.stores.common import sqlite_copy as _moved

sys.modules[__name__] = _moved
