"""A data dir as a user who upgraded Daycare has it: today's ``daycare.pglite/`` and, beside it, the
``daycare.db`` the SQLite generation wrote until the switch, which Daycare never imported."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

OLD_NOW_MS = 1_771_500_000_000  # 2026-02-19, a week before Daycare moved to PGlite
OLD_WORD = "quokkazanzibar"  # said only in the old history
OLD_WORD_AT = OLD_NOW_MS - 3_600_000  # the old store's last record


def add_old_daycare_db(data_dir: Path, scratch: Path) -> tuple[str, str]:
    """Write the SQLite demo into ``scratch``, add one record saying :data:`OLD_WORD` as its last, and put its
    ``daycare.db`` into ``data_dir``. Returns (agent id, session id) of that record."""
    from daycare_gui.stores.daycare.demo import write_demo

    write_demo(scratch, now_ms=OLD_NOW_MS)
    conn = sqlite3.connect(scratch / "daycare.db")
    try:
        session_id, agent_id = conn.execute("SELECT id, agent_id FROM sessions ORDER BY id LIMIT 1").fetchone()
        assert conn.execute("SELECT max(at) FROM session_history").fetchone()[0] < OLD_WORD_AT
        conn.execute("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'user_message', ?, ?)",
                     (session_id, OLD_WORD_AT, json.dumps({"text": f"remember the {OLD_WORD} plan", "files": []})))
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    (scratch / "daycare.db").replace(data_dir / "daycare.db")
    return agent_id, session_id
