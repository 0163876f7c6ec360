"""Kill a write at random moments: run it in a child process, SIGKILL it after a seeded random delay.

The trial count defaults to a few per operation so the suite stays fast; ``DAYCARE_GUI_CRASH_TRIALS=200``
raises it (and ``DAYCARE_GUI_CRASH_SEED`` picks another sequence of kill moments).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def trials(default: int) -> int:
    return int(os.environ.get("DAYCARE_GUI_CRASH_TRIALS", default))


def rng() -> random.Random:
    return random.Random(int(os.environ.get("DAYCARE_GUI_CRASH_SEED", "16")))


def start(code: str, *args: str) -> subprocess.Popen:
    """Start ``code`` in a child; it prints ``go`` once imported and ready, then does the write."""
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, env=env, text=True)
    assert proc.stdout.readline().strip() == "go"
    return proc


def run_to_end(code: str, *args: str) -> float:
    """Run the child undisturbed; returns how long the write took (from ``go`` to exit)."""
    proc = start(code, *args)
    began = time.monotonic()
    assert proc.wait(120) == 0
    proc.stdout.close()
    return time.monotonic() - began


def kill_after(code: str, delay: float, *args: str, pids: list | None = None) -> str:
    """Run the child and SIGKILL it ``delay`` seconds after ``go``; 'killed' or 'finished' (too late).
    ``pids`` (a list) receives the child's pid."""
    proc = start(code, *args)
    if pids is not None:
        pids.append(proc.pid)
    try:
        proc.wait(delay)
        outcome = "finished"
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        outcome = "killed"
    proc.stdout.close()
    return outcome


def processes_mentioning(*needles: str) -> list[int]:
    """Pids of processes whose command line contains one of ``needles`` (e.g. a killed child's sidecars)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if any(n in cmdline for n in needles):
            found.append(int(entry.name))
    return found


def wait_gone(*needles: str, timeout: float = 60) -> None:
    """Wait until no process mentions ``needles`` (helpers of a killed child exit when its pipes close)."""
    end = time.monotonic() + timeout
    while processes_mentioning(*needles):
        assert time.monotonic() < end, f"processes still running for {needles}"
        time.sleep(0.05)


class Tally(Counter):
    def line(self, name: str) -> str:
        return f"{name}: " + ", ".join(f"{k}={v}" for k, v in sorted(self.items()))


# -- running a command against a damaged store (tests/hostile) -----------------------------------------

COMMAND_TIMEOUT_S = 180  # generous: a hang is caught, a slow machine is not failed
FILE_SIZE_LIMIT = 512 << 20  # a child writing a file larger than this dies (SIGXFSZ): a copy ran away

CLI = "import sys\nfrom daycare_gui.cli import main\nsys.exit(main(sys.argv[1:]))\n"


def _limit_file_size() -> None:  # in the child, before exec
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))


def run_command(args: list[str], env: dict[str, str], timeout: float = COMMAND_TIMEOUT_S) -> tuple[int | None, str, str]:
    """``daycare-gui ARGS`` in a child with ``env``: (exit code, stdout, stderr); the code is None when it was
    still running after ``timeout`` seconds (it is killed, with its process group: a PGlite sidecar too).
    No file the child writes may pass :data:`FILE_SIZE_LIMIT`, so a copy of an endless device stops there."""
    env = dict(env, PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, env=env, start_new_session=True, preexec_fn=_limit_file_size)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
