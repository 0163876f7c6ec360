"""A Daycare SQLite store whose "Daily digest" task ran many times: its cron system message and a reply per run,
appended to the task agent's session (as Daycare's scheduler writes them)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from daycare_gui.stores.daycare.demo.db_rows import cron_run_text

HOUR_MS = 3_600_000


def add_runs(db_path: Path, count: int, *, task: str = "daily-digest", every_ms: int = HOUR_MS) -> int:
    """Append ``count`` runs of ``task`` (one an hour, ending before the task's own last records); returns how many
    runs the task has now."""
    conn = sqlite3.connect(db_path)
    try:
        agent, uid, name = conn.execute("SELECT agent_id, task_uid, name FROM tasks_cron WHERE id = ?",
                                        (task,)).fetchone()
        session = conn.execute("SELECT id FROM sessions WHERE agent_id = ? ORDER BY created_at LIMIT 1",
                               (agent,)).fetchone()[0]
        first = conn.execute("SELECT MIN(at) FROM session_history").fetchone()[0] - (count + 1) * every_ms
        rows = []
        for i in range(count):
            at = first + i * every_ms
            rows.append((session, "user_message", at, json.dumps({"text": cron_run_text(task, uid, name)})))
            rows.append((session, "assistant_message", at + 1000, json.dumps({"text": f"digest {i}", "tokens": {
                "provider": "anthropic", "model": "claude-haiku-4-5", "size": {"input": 10, "output": 5,
                                                                             "total": 15}}})))
        conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, ?)", rows)
        conn.commit()
    finally:
        conn.close()
    return count
