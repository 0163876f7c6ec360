"""Write a realistic, deterministic Daycare data directory for demos, tests and benchmarks.

``write_demo(dest, scale="small"|"large")`` is the entry point; see :mod:`.writer`.
"""

from daycare_gui.stores.daycare.demo.writer import DemoCancelled, DemoError, DemoSummary, write_demo

__all__ = ["DemoCancelled", "DemoError", "DemoSummary", "write_demo"]
