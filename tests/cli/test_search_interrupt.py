"""Ctrl+C early in an index build (issue 34, item 2): always "indexing interrupted; what was indexed is kept"
and exit 130. It said "cannot read …/daycare.db: user-defined function raised exception" (exit 1) most
times: the interrupt, raised inside SQLite's call of the index's Python function, came out as an SQLite
error. Run for real: a search in a child process on a store big enough to index for a while, its
progress on a terminal (a pty), and SIGINT once the progress line appears; a few times, since where the
interrupt lands varies."""

from __future__ import annotations

import json
import os
import pty
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RECORDS = 100_000


@pytest.fixture(scope="module")
def medium_store(tmp_path_factory):
    """The small demo with many more history records: indexing takes a few seconds."""
    from daycare_gui.stores.daycare.demo import write_demo

    store = tmp_path_factory.mktemp("medium") / "daycare"
    write_demo(store, now_ms=1_795_000_000_000)
    words = "alpha beta gamma delta lisbon porto report draft budget garden train river".split()
    rng = random.Random(7)
    conn = sqlite3.connect(store / "daycare.db")
    try:
        session_id = conn.execute("SELECT session_id FROM session_history LIMIT 1").fetchone()[0]
        conn.executemany(
            "INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
            ((session_id, 1_790_000_000_000 + i,
              json.dumps({"text": " ".join(rng.choice(words) for _ in range(12)), "files": []}))
             for i in range(RECORDS)))
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return store


def _search_and_interrupt(store: Path, index_dir: Path) -> tuple[int, str]:
    controller, terminal = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "daycare_gui.cli", "search", str(store), "lisbon",
                             "--index-dir", str(index_dir)], stdout=subprocess.DEVNULL, stderr=terminal,
                            stdin=subprocess.DEVNULL, env=dict(os.environ, PYTHONPATH=str(REPO)))
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 300  # a bound for a hung child, not a timing assertion
    try:
        while b"indexing" not in seen and time.monotonic() < deadline and proc.poll() is None:
            ready, _, _ = select.select([controller], [], [], 1.0)
            if ready:
                seen += os.read(controller, 4096)
        assert b"indexing" in seen, seen.decode(errors="replace")
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=300)
        while True:  # what it said after the signal
            ready, _, _ = select.select([controller], [], [], 0.5)
            if not ready:
                break
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the child's end is closed
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(controller)
    return proc.returncode, seen.decode(errors="replace")


@pytest.mark.parametrize("attempt", range(3))
def test_ctrl_c_early_in_an_index_build_keeps_what_was_indexed(medium_store, tmp_path, attempt):
    code, said = _search_and_interrupt(medium_store, tmp_path / "index")
    assert "indexing interrupted; what was indexed is kept" in said, said[-500:]
    assert "cannot read" not in said and "Traceback" not in said
    assert code == 130
