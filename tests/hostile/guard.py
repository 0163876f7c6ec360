"""Running a read that may hang (a named pipe opened for reading blocks until a writer comes) without
hanging the test run: the call runs on a thread; if it has not returned in time, every named pipe it may
be stuck on gets a writer for a moment (so the thread ends) and the test fails saying it hung."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

LIMIT_S = 60  # generous: a hang is what is caught, not slowness


def unblock(fifo: Path) -> None:
    """Open ``fifo`` for writing and close it: a reader blocked in open() returns and reads end-of-file."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass  # no reader waiting on it


def finishes(call, *, fifos=(), what: str = "the read"):
    """``call()``'s result; fails the test if it is still running after :data:`LIMIT_S` seconds."""
    box: dict = {}

    def run():
        try:
            box["value"] = call()
        except BaseException as exc:  # handed to the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(LIMIT_S)
    if thread.is_alive():
        for _ in range(50):
            for fifo in fifos:
                unblock(Path(fifo))
            thread.join(0.1)
            if not thread.is_alive():
                break
        pytest.fail(f"{what} hung (still running after {LIMIT_S} s)")
    if "error" in box:
        raise box["error"]
    return box.get("value")

