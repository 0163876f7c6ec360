"""Rows another tool wrote into a Daycare SQLite store that Daycare never writes: SQLite keeps whatever it is
given, whatever the column's declared type. One such row in one session — text that is not UTF-8, a time
stored as text or as a number no integer holds, an empty payload, JSON that is not an object, a record type
that is a number — and every read a user runs (inspect, search twice, export in each form, costs, storage,
automations) still ends with its answer or a message: no traceback, no secret of the row in what it prints,
and no byte of the store changed. (Before, a time stored as text made export and storage fail with a
traceback, and text that is not UTF-8 failed search and the session's pages.)"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from tests.crash.harness import run_command
from tests.hostile.test_campaign import tree_state

SECRET = "hunter2secretvalue"
ODD_ROWS = [  # (type, at, data as stored)
    ("user_message", 1_700_000_000_000, f'{{"text": "token={SECRET} \xff cut"}}'.encode("latin-1")),
    ("user_message", "yesterday", json.dumps({"text": "a time as text"})),
    ("user_message", 1e30, json.dumps({"text": "a time out of range"})),
    ("user_message", 1_700_000_000_500.5, json.dumps({"text": "a REAL time"})),
    ("assistant_message", 1_700_000_001_000, ""),
    ("note", 1_700_000_002_000, "[1, 2, 3]"),
    (42, 1_700_000_003_000, json.dumps({"text": "a type that is a number"})),
    ("assistant_message", 1_700_000_004_000, json.dumps({"text": 424242, "toolCalls": "none"})),
]


@pytest.fixture(scope="module")
def odd_store(tmp_path_factory):
    root = tmp_path_factory.mktemp("odd-rows") / "daycare"
    write_demo(root)
    conn = sqlite3.connect(root / "daycare.db")
    session = conn.execute("SELECT id FROM sessions ORDER BY id LIMIT 1").fetchone()[0]
    conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, ?, ?, CAST(? AS TEXT))",
                     [(session, *row) for row in ODD_ROWS])
    conn.commit()
    conn.close()
    return root, session


@pytest.fixture(scope="module")
def odd_tables(tmp_path_factory):
    """The demo with one row of each other table made odd: text in its INTEGER columns (times, flags,
    counts), and bytes that are not UTF-8 in two of its TEXT columns (not the ids that join it to others)."""
    root = tmp_path_factory.mktemp("odd-tables") / "daycare"
    write_demo(root)
    conn = sqlite3.connect(root / "daycare.db")
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                         "'sqlite_%' AND name NOT IN ('session_history', '_migrations')")]
    changed = 0
    for table in tables:
        columns = list(conn.execute(f'PRAGMA table_info("{table}")'))
        integers = [c[1] for c in columns if c[2].upper() == "INTEGER" and not c[5]]
        texts = [c[1] for c in columns if c[2].upper() == "TEXT" and not c[5] and not c[1].endswith("_id")][:2]
        row = conn.execute(f'SELECT rowid FROM "{table}" LIMIT 1').fetchone()
        if row is None or not integers + texts:
            continue
        sets = [f'"{c}" = \'soon\'' for c in integers] + [f'"{c}" = CAST(x\'ff\' AS TEXT)' for c in texts]
        conn.execute(f'UPDATE "{table}" SET {", ".join(sets)} WHERE rowid = ?', row)
        changed += 1
    conn.commit()
    conn.close()
    assert changed >= 15  # (users, agents, sessions, tasks, inbox, signals, channels, processes, …)
    return root, None


def _commands(root, session) -> list[list[str]]:
    path = str(root)
    reads = [["inspect", "--json", path], ["inspect", path], ["costs", path], ["storage", path],
             ["automations", path], ["automations", "--json", path]]
    if session is None:
        return reads + [["search", path, "the"]]
    return reads + [["search", path, "text"], ["search", path, "cut", "--json"],
                    ["export", path, f"session:{session}"], ["export", path, f"session:{session}", "--format", "html"],
                    ["export", path, f"session:{session}", "--format", "jsonl"]]


def _every_read_answers(root, session, tmp_path) -> dict[str, str]:
    """Each read of ``_commands`` run as a user runs it: exit 0, no traceback, no secret, the store unchanged;
    what each printed, by its words (the store's path left out)."""
    before = tree_state(root)
    env = dict(os.environ, TMPDIR=str(tmp_path), DAYCARE_GUI_SEARCH_DIR=str(tmp_path / "index"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    answers = {}
    for args in _commands(root, session):
        code, out, err = run_command(args, env)
        words = [a for a in args if a != str(root)]
        said = f"daycare-gui {' '.join(words)}"
        assert code is not None, f"{said} hung; it printed: {err[-500:]}"
        assert "Traceback" not in err, f"{said} crashed:\n{err[-3000:]}"
        assert code == 0, f"{said} exited {code}: {err[-1000:]}"
        assert SECRET not in out and SECRET not in err, f"{said} printed the row's secret"
        answers[" ".join(w for w in words if not w.startswith("session:"))] = out
    assert tree_state(root) == before, "a read changed the store"
    return answers


def test_every_read_of_other_tables_with_odd_rows_answers(odd_tables, tmp_path):
    """Text in every INTEGER column of a row of each table (a task's last run, a user's flags, a session's
    times…) and bytes that are not UTF-8 in its text: before, inspect and automations stopped with a traceback
    (a heartbeat's last run as text, compared with numbers)."""
    answers = _every_read_answers(*odd_tables, tmp_path)
    assert '"automations"' in answers["inspect --json"] or "automations" in answers["inspect"].lower()


def test_every_read_of_a_store_with_odd_rows_answers_without_a_traceback_or_its_secret(odd_store, tmp_path):
    root, session = odd_store
    answers = _every_read_answers(root, session, tmp_path)
    # what the reads say of the odd rows: the text around the bytes that are not UTF-8, and each time's problem
    assert "\ufffd cut" in answers["export"] and "\ufffd cut" in answers["export --format jsonl"]
    assert "its time is stored as text, not as milliseconds" in answers["export"]
    assert "a time out of range" in answers["export --format html"]
    found = json.loads(answers["search cut --json"])
    snippets = [hit["snippet"] for group in found["groups"] for s in group["sessions"] for hit in s["hits"]]
    assert found["total"] == 1 and "\ufffd" in snippets[0] and "token=" in snippets[0]  # (masked: checked above)
    assert "a time as text" in answers["export"] and "unknown record type '42'" in answers["export"]
    # (a record of a type no reader knows is exported as stored: nothing of it is lost)
    assert all("a type that is a number" in answers[f] for f in ("export", "export --format html",
                                                                   "export --format jsonl"))
    # (a message whose text is not text says so, and shows what it holds, instead of reading as empty)
    assert "its text is stored as a number, not as text" in answers["export"] and "424242" in answers["export"]
