"""Everything Qt. Views never touch SQL or files: they ask models, models ask the worker, the worker
asks the core."""

import gc

# The window collects cyclic garbage on the GUI thread only, from a timer (gc_guard, installed with the
# application). Switched off from here already: importing Qt and the window makes ~40,000 objects that live
# as long as the program, and automatic collections kept walking them during start-up; gc_guard.install
# then freezes them out of every later collection.
gc.disable()

# Before any module of the window is imported: PySide6 would otherwise read each one's source (pyside_imports).
import PySide6.QtCore  # noqa: E402, F401 - installs the import hook that the next line adjusts

from daycare_gui.ui.pyside_imports import skip_source_scan  # noqa: E402

skip_source_scan()

