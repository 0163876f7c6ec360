"""A stand-in for Daycare's engine appending to a session, run as its own process.

    python -m tests.ui.live_writer DB SESSION_ID RATE COUNT OUT_JSON [STOP_FILE]

Like the engine it opens the database with ``journal_mode=WAL`` and **no busy timeout** (busy_timeout=0),
so any lock a reader holds at the wrong moment makes a commit fail at once with SQLITE_BUSY — which is
what the tests and the benchmark count. It appends ``RATE`` records a second, one commit each, until
``COUNT`` are written (0: until ``STOP_FILE`` appears), checkpointing often (``wal_autocheckpoint``), and
writes ``{"written", "busy", "errors", "commits": [[id, unix time of the commit], …]}`` to ``OUT_JSON``.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time


def run(db: str, session_id: str, rate: float, count: int, out: str, stop_file: str | None = None) -> dict:
    conn = sqlite3.connect(db, isolation_level=None, timeout=0)
    conn.execute("PRAGMA busy_timeout=0")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=50")  # checkpoints (and WAL restarts) while readers read
    period = 1.0 / rate
    next_at = time.perf_counter()
    commits: list[list] = []
    busy, errors, n = 0, [], 0
    while (count and n < count) or (not count and not (stop_file and os.path.exists(stop_file))):
        data = json.dumps({"text": f"live record {n} appended while the window reads"})
        try:
            cur = conn.execute("INSERT INTO session_history (session_id, type, at, data) "
                               "VALUES (?, 'user_message', ?, ?)", (session_id, int(time.time() * 1000), data))
            commits.append([cur.lastrowid, time.time()])
        except sqlite3.OperationalError as exc:  # SQLITE_BUSY / "database is locked": what must never happen
            busy += "locked" in str(exc) or "busy" in str(exc)
            errors.append(str(exc))
        n += 1
        next_at += period
        time.sleep(max(0.0, next_at - time.perf_counter()))
    conn.close()
    result = {"written": len(commits), "busy": busy, "errors": errors[:10], "commits": commits}
    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, out)  # the reader sees the whole file or none
    return result


if __name__ == "__main__":
    args = sys.argv[1:]
    run(args[0], args[1], float(args[2]), int(args[3]), args[4], args[5] if len(args) > 5 else None)
