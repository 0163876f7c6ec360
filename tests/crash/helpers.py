"""Shared bits for the crash-safety tests: a pid that surely belongs to no process."""

from __future__ import annotations

import subprocess
import sys


def dead_pid() -> int:
    """The pid of a child that has exited and been reaped (the kernel reuses pids only much later)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid
