"""inspect --json: kind, every table's count as plain sqlite3 counts it (shadow tables apart), the
generation read from the columns, and not a byte written."""

import json
import shutil

import pytest

from daycare_gui.cli import main
from tests.stores.agentstack.builder import fingerprint, plain

SHADOWS = {"memory_fts_data", "memory_fts_idx", "memory_fts_docsize", "memory_fts_config"}


def _inspect(path, capsys) -> dict:
    assert main(["inspect", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _counts(db) -> dict:
    conn = plain(db)
    try:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


def _fill(b):
    s = b.session("ended")
    m = b.memory("k1", "alpha beta", agent_id="a1" if b.has("memory", "agent_id") else None)
    b.memory("k2", "gamma", namespace=f"session:{s}")
    b.update_memory(m, "alpha beta delta")
    b.task("do it", session=s)
    b.plugin("p")
    return b.close()


def test_counts_match_sqlite3_and_shadow_tables_are_apart(build, capsys):
    db = _fill(build())
    folder = db.parent.parent
    before = fingerprint(folder)
    report = _inspect(folder, capsys)
    assert fingerprint(folder) == before
    assert report["kind"] == "agentstack" and report["generation"] == "current"
    expected = _counts(db)
    assert report["counts"] == {k: n for k, n in expected.items() if k not in SHADOWS}
    assert len(report["counts"]) == 26
    assert set(report["fts"]["shadow_tables"]) == SHADOWS
    assert report["fts"]["shadow_tables"]["memory_fts_docsize"] == expected["memory_fts_docsize"]
    assert report["fts"]["sync_triggers"] == ["memory_ad", "memory_ai", "memory_au"]
    assert report["schema"]["missing_tables"] == [] and report["schema"]["missing_columns"] == {}
    assert report["memory"]["session_namespaces"] == 1
    assert report["open_mode"] == "immutable" and report["writes_blocked"] is None


@pytest.mark.parametrize("generation, missing", [
    ("pre-task-tree", {"tasks": ["risk_level", "parent_task_id", "depth", "consensus_checkpoint_id"]}),
    ("pre-agent-id", {"memory": ["agent_id"],
                      "tasks": ["risk_level", "parent_task_id", "depth", "consensus_checkpoint_id"]}),
])
def test_old_generations_say_what_they_lack(build, capsys, generation, missing):
    db = _fill(build(generation=generation))
    report = _inspect(db, capsys)
    assert report["generation"] == generation
    assert report["schema"]["missing_columns"] == missing
    assert report["counts"]["memory"] == 2
    if generation == "pre-agent-id":
        assert any("cannot open it" in n for n in report["notes"])


def test_missing_and_unknown_tables(build, capsys):
    b = build(omit=("review_loops", "drift_detection_events", "users", "refresh_tokens"))
    b.sql("CREATE TABLE future_things (id TEXT)")
    b.sql("ALTER TABLE memory ADD COLUMN importance REAL")
    report = _inspect(b.close(), capsys)
    assert report["generation"] == "partial"
    assert report["schema"]["missing_tables"] == ["review_loops", "drift_detection_events"]  # users: optional
    assert report["schema"]["unknown_tables"] == ["future_things"]
    assert report["schema"]["unknown_columns"] == {"memory": ["importance"]}
    assert report["counts"]["future_things"] == 0


def test_a_wal_holding_data_is_read_from_a_snapshot(build, capsys, tmp_path):
    b = build()
    b.memory("k", "committed but not checkpointed")
    b.conn.execute("PRAGMA wal_autocheckpoint = 0")
    b.memory("k2", "also in the WAL")
    # Copy the three files while the writer is still open: a live store as another process left it.
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(str(b.path) + suffix, str(copy / "aistack.db") + suffix)
    b.conn.close()
    before = fingerprint(copy)
    report = _inspect(copy / "aistack.db", capsys)
    assert report["open_mode"] == "snapshot" and report["counts"]["memory"] == 2
    assert fingerprint(copy) == before


def test_human_output(build, capsys):
    db = _fill(build())
    assert main(["inspect", str(db)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("AgentStack store:") and "memory_fts_data" not in out


def test_not_agentstack(tmp_path, capsys):
    (tmp_path / "aistack.db").write_text("not sqlite")
    assert main(["inspect", str(tmp_path / "aistack.db"), "--json", "--kind", "agentstack"]) == 2
    assert "not a SQLite database" in json.loads(capsys.readouterr().out)["error"]
