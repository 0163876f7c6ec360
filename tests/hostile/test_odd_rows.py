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


def _commands(root, session) -> list[list[str]]:
    path = str(root)
    return [["inspect", "--json", path], ["search", path, "text"], ["search", path, "cut", "--json"],
            ["export", path, f"session:{session}"], ["export", path, f"session:{session}", "--format", "html"],
            ["export", path, f"session:{session}", "--format", "jsonl"], ["costs", path], ["storage", path],
            ["automations", path]]


def test_every_read_of_a_store_with_odd_rows_answers_without_a_traceback_or_its_secret(odd_store, tmp_path):
    root, session = odd_store
    before = tree_state(root)
    env = dict(os.environ, TMPDIR=str(tmp_path), DAYCARE_GUI_SEARCH_DIR=str(tmp_path / "index"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    answers = {}
    for args in _commands(root, session):
        code, out, err = run_command(args, env)
        said = f"daycare-gui {' '.join(args[:1] + args[2:])}"
        assert code is not None, f"{said} hung; it printed: {err[-500:]}"
        assert "Traceback" not in err, f"{said} crashed:\n{err[-3000:]}"
        assert code == 0, f"{said} exited {code}: {err[-1000:]}"
        assert SECRET not in out and SECRET not in err, f"{said} printed the row's secret"
        answers[" ".join(args[:1] + args[3:])] = out
    # what the reads say of the odd rows: the text around the bytes that are not UTF-8, and each time's problem
    assert "\ufffd cut" in answers["export"] and "\ufffd cut" in answers["export --format jsonl"]
    assert "its time is stored as text, not as milliseconds" in answers["export"]
    assert "a time out of range" in answers["export --format html"]
    found = json.loads(answers["search --json"])
    snippets = [hit["snippet"] for group in found["groups"] for s in group["sessions"] for hit in s["hits"]]
    assert found["total"] == 1 and "\ufffd" in snippets[0] and "token=" in snippets[0]  # (masked: checked above)
    assert "a time as text" in answers["export"] and "unknown record type '42'" in answers["export"]
    assert "a type that is a number" in answers["export --format jsonl"]
    assert tree_state(root) == before, "a read changed the store"
