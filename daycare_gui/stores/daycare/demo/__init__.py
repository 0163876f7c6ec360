"""Write a realistic, deterministic Daycare data directory for demos, tests and benchmarks.

``write_demo(dest, scale="small"|"large")`` is the entry point; see :mod:`.writer`. ``write_command_demo`` is
what ``daycare-gui demo`` calls (:mod:`.command`: its SQLite or PGlite generation).
"""

from daycare_gui.stores.daycare.demo.command import COMMAND_OPTIONS, write_command_demo
from daycare_gui.stores.daycare.demo.writer import DemoCancelled, DemoError, DemoSummary, write_demo

__all__ = ["COMMAND_OPTIONS", "DemoCancelled", "DemoError", "DemoSummary", "write_command_demo", "write_demo"]
