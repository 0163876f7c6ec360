"""Stores for the runs benchmark (bench/capabilities.py): a Daycare store with ``count`` more runs of one task.

Each is a private copy, written once into the benchmark's cache and renamed into place only when complete; the
store it starts from is only read (``/work/bench-cache``'s large demos are shared).

- SQLite generation: the Daily digest's runs as Daycare's cron posts them (its system message, then a reply),
  an hour apart, before everything else the store holds. Without a base store, the small demo is written first.
- PGlite generation: the Morning digest's runs in its task agent (``/<user>/task/digest``) as Daycare writes
  them — ``rlm_start`` … ``rlm_complete`` (every 10th failed with its error, every 7th skipped), then the
  follow-up system message and the reply — in a session of their own, written through PGlite itself.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

SQLITE_TASK = "daily-digest"
PG_AGENT, PG_TRIGGER = "agtaskdigest", "cron-digest"
HOUR = 3_600_000


def automation_id(store: Path) -> str:
    """The automation whose runs are listed: the digest of either generation."""
    return f"cron:{PG_TRIGGER}" if (store / "daycare.pglite").is_dir() else f"cron:{SQLITE_TASK}"


def runs_store(cache: Path, count: int, base: Path | None = None) -> Path:
    name = f"runs-{count}" + (f"-{base.resolve().name}" if base is not None else "")
    dest = cache / name
    if (dest / "daycare.db").exists() or (dest / "daycare.pglite").is_dir():
        return dest
    partial = cache / f"{name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    if base is None:
        from daycare_gui.stores.daycare.demo import write_demo

        write_demo(partial)
    else:
        shutil.copytree(base, partial, symlinks=True)
    if (partial / "daycare.pglite").is_dir():
        _add_pg_runs(partial / "daycare.pglite", count)
    else:
        _add_sqlite_runs(partial / "daycare.db", count)
    partial.rename(dest)
    return dest


def _add_sqlite_runs(db: Path, count: int) -> None:
    from daycare_gui.stores.daycare.demo.db_rows import cron_run_text

    conn = sqlite3.connect(db)
    agent, uid, name = conn.execute("SELECT agent_id, task_uid, name FROM tasks_cron WHERE id = ?",
                                    (SQLITE_TASK,)).fetchone()
    session = conn.execute("SELECT id FROM sessions WHERE agent_id = ? ORDER BY created_at LIMIT 1",
                           (agent,)).fetchone()[0]
    first = conn.execute("SELECT MIN(at) FROM session_history").fetchone()[0] - (count + 1) * HOUR
    rows = []
    for i in range(count):  # an hour apart, before everything else the store holds
        at = first + i * HOUR
        rows.append((session, "user_message", at, json.dumps({"text": cron_run_text(SQLITE_TASK, uid, name)})))
        rows.append((session, "assistant_message", at + 1000, json.dumps({"text": f"digest {i}"})))
    conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()


def _add_pg_runs(folder: Path, count: int) -> None:
    import psycopg
    from psycopg.types.json import Jsonb

    from daycare_gui.stores.daycare.pg.demo import RUN_ERROR, _cron_text, _insert_rows
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    server = PgliteServer(folder, ensure_runtime(), copy=False)  # (folder is this benchmark's own copy)
    try:
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=False) as conn, conn.cursor() as cur:
            first = cur.execute("SELECT min(at) FROM session_history").fetchone()[0] - (count + 1) * HOUR
            session = "stask-bench"
            cur.execute("INSERT INTO sessions (id, agent_id, created_at) VALUES (%s, %s, %s)",
                        (session, PG_AGENT, first))
            rows = []
            for i in range(count):
                at, call = first + i * HOUR, f"rcb{i}"
                failed, skipped = i % 10 == 3, i % 7 == 5
                output = "Turn skipped" if skipped else f"digest {i}"
                done = {"toolCallId": call, "output": output, "printOutput": [], "toolCallCount": 0,
                        "isError": failed}
                if failed:
                    done["error"] = RUN_ERROR
                rows.append((session, "rlm_start", at, Jsonb({"toolCallId": call, "code": "digest()", "preamble": ""})))
                rows.append((session, "rlm_complete", at + 2000, Jsonb(done)))
                if skipped:
                    continue
                said = f"<exec_error>{RUN_ERROR}</exec_error>" if failed else output
                rows.append((session, "user_message", at + 2500, Jsonb({"text": _cron_text(
                    PG_TRIGGER, "digest", "Morning digest", "Europe/Lisbon", said), "files": []})))
                rows.append((session, "assistant_message", at + 9000, Jsonb({"text": f"Digest {i}.", "files": [],
                                                                              "toolCalls": []})))
            _insert_rows(cur, "INSERT INTO session_history (session_id, type, at, data)", rows, budget=200_000,
                         max_params=4000)
            conn.commit()
    finally:
        server.close()
