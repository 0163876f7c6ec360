"""Pruning a checkpoints database LangGraph itself wrote, many turns per thread: the dry run says what the
prune reclaims, the bot's own reader (the pinned LangGraph) then sees every thread's latest state as before
and continues it, and nothing happens while the bot runs or without a backup to undo it from."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from daycare_gui.stores.api import WriteRefused
from daycare_gui.stores.cianaparrot import prune
from tests.stores.cianaparrot.builder import _graph, make_checkpoints

TURNS = {f"telegram_{100 + i}": [f"question {j}: " + "tell me more " * 20 for j in range(12)] for i in range(3)}
TURNS["scheduler_a1b2c3d4"] = ["Check the weather forecast"] * 4


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    return make_checkpoints(tmp_path_factory.mktemp("prune") / "checkpoints.db", TURNS)


@pytest.fixture
def db(template, tmp_path) -> Path:
    target = tmp_path / "data" / "checkpoints.db"
    target.parent.mkdir()
    shutil.copyfile(template, target)
    return target


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _latest_states(db: Path) -> dict[str, tuple]:
    """What the bot's reader resumes from: per thread, the latest checkpoint id, its state and pending writes
    (read from a copy, as LangGraph's saver writes to the file it opens)."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    copy = db.with_name("reader-" + db.name)
    shutil.copyfile(db, copy)
    conn = sqlite3.connect(str(copy), check_same_thread=False)
    try:
        app = _graph(SqliteSaver(conn))
        out = {}
        for thread in TURNS:
            config = {"configurable": {"thread_id": thread}}
            snap = app.get_state(config)
            tup = app.checkpointer.get_tuple(config)
            if tup is None:
                continue
            out[thread] = (tup.checkpoint["id"], [m.model_dump() for m in snap.values["messages"]],
                           snap.next, list(tup.pending_writes or []))
        return out
    finally:
        conn.close()
        for p in copy.parent.glob(copy.name + "*"):
            p.unlink()


def _count(db: Path, sql: str) -> int:
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def test_dry_run_reclaims_what_the_prune_then_does_and_langgraph_resumes_every_thread_unchanged(db):
    before_states = _latest_states(db)
    assert len(before_states) == len(TURNS)
    sha, checkpoints = _sha(db), _count(db, "SELECT COUNT(*) FROM checkpoints")
    assert checkpoints == 5 * sum(len(v) for v in TURNS.values())

    plan = prune.plan(db, keep=1)
    assert _sha(db) == sha and sorted(p.name for p in db.parent.iterdir()) == ["checkpoints.db"]  # wrote nothing
    assert plan.checkpoints_dropped == checkpoints - len(TURNS)
    assert plan.threads[0].bytes_dropped >= plan.threads[-1].bytes_dropped  # largest first
    assert plan.reclaimed > plan.size_before * 0.8  # quadratic growth: most of the file was old checkpoints

    result = prune.prune(db, keep=1, blocked=None, data_dir=db.parent)
    assert abs(result.reclaimed - plan.reclaimed) <= plan.reclaimed * 0.01
    assert db.stat().st_size == result.size_after
    assert _count(db, "SELECT COUNT(*) FROM checkpoints") == len(TURNS)
    assert _count(db, "PRAGMA integrity_check") == "ok"
    assert sorted(p.name for p in db.parent.iterdir()) == [".daycare-gui-backups", "checkpoints.db"]
    assert _latest_states(db) == before_states

    # The bot continues a kept thread from what is left: the next turn sees the whole conversation.
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(str(db), check_same_thread=False)
    try:
        app = _graph(SqliteSaver(conn))
        config = {"configurable": {"thread_id": "telegram_100"}}
        out = app.invoke({"messages": [HumanMessage(content="one more")]}, config)
        assert len(out["messages"]) == len(before_states["telegram_100"][1]) + 4
    finally:
        conn.close()


def test_keep_two_keeps_the_two_latest_of_each_thread_and_their_writes(db):
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    latest = {t: ids for t in TURNS for ids in [[r[0] for r in conn.execute(
        "SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_id DESC LIMIT 2", (t,))]]}
    writes = conn.execute("SELECT COUNT(*) FROM writes w WHERE checkpoint_id IN (SELECT checkpoint_id FROM ("
                          "SELECT checkpoint_id, ROW_NUMBER() OVER (PARTITION BY thread_id ORDER BY checkpoint_id "
                          "DESC) n FROM checkpoints) WHERE n <= 2)").fetchone()[0]
    conn.close()
    prune.prune(db, keep=2, blocked=None)
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        for thread, ids in latest.items():
            assert [r[0] for r in conn.execute("SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? "
                                                "ORDER BY checkpoint_id DESC", (thread,))] == ids
        assert conn.execute("SELECT COUNT(*) FROM writes").fetchone()[0] == writes > 0
    finally:
        conn.close()


def test_idle_threads_go_whole_and_the_dry_run_names_them(db):
    newest = max(prune.id_time_ms(r) for r in [_max_id(db, t) for t in TURNS])
    plan = prune.plan(db, keep=1, idle_days=1, now_ms=newest + 2 * prune.DAY_MS)
    assert all(t.idle and t.kept == 0 for t in plan.threads)
    assert any("session counters" in n for n in plan.notes)
    prune.prune(db, keep=1, idle_days=1, blocked=None, now_ms=newest + 2 * prune.DAY_MS)
    assert _count(db, "SELECT COUNT(*) FROM checkpoints") == 0
    assert _count(db, "SELECT COUNT(*) FROM writes") == 0
    # Not idle yet: nothing goes beyond the older checkpoints.
    assert prune.plan(db, keep=1, idle_days=1).threads == []


def _max_id(db: Path, thread: str) -> str:
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return conn.execute("SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = ?", (thread,)).fetchone()[0]
    finally:
        conn.close()


def test_refused_while_the_bot_runs_unless_forced_and_nothing_is_left(db):
    sha = _sha(db)
    with pytest.raises(WriteRefused, match="bot is running"):
        prune.prune(db, keep=1, blocked="the CianaParrot bot is running (process 42 holds it open)")
    assert _sha(db) == sha and sorted(p.name for p in db.parent.iterdir()) == ["checkpoints.db"]
    with pytest.raises(WriteRefused, match="at least 1"):
        prune.plan(db, keep=0)
    result = prune.prune(db, keep=1, blocked="WAL files left beside it", force=True)
    assert result.reclaimed > 0


def test_a_prune_is_undone_from_its_backup(db):
    sha = _sha(db)
    result = prune.prune(db, keep=1, blocked=None, data_dir=db.parent)
    assert _sha(result.backup) == sha
    assert (result.backup.parent.stat().st_mode & 0o077) == 0  # the owner's only: it holds the chats
    with pytest.raises(WriteRefused, match="running"):
        prune.restore(db, result.backup, blocked="the bot is running")
    prune.restore(db, result.backup, blocked=None)
    assert _sha(db) == sha


def test_a_checkpoint_it_cannot_read_makes_it_refuse_and_change_nothing(db):
    conn = sqlite3.connect(str(db))
    conn.execute("UPDATE checkpoints SET type = 'pickle', checkpoint = x'8004' WHERE checkpoint_id = "
                 "(SELECT MAX(checkpoint_id) FROM checkpoints WHERE thread_id = 'telegram_101')")
    conn.commit()
    conn.close()
    sha = _sha(db)
    with pytest.raises(WriteRefused, match="cannot be read"):
        prune.prune(db, keep=1, blocked=None, data_dir=db.parent)
    assert _sha(db) == sha
    assert [p.name for p in db.parent.rglob("*") if p.is_file()] == ["checkpoints.db"]  # no backup, no copy


def test_a_linked_private_database_stays_a_link_and_private(db):
    real = db.with_name("real.db")
    db.rename(real)
    db.symlink_to(real.name)
    real.chmod(0o600)
    result = prune.prune(db, keep=1, blocked=None, data_dir=db.parent)
    assert db.is_symlink() and db.resolve() == real.resolve()
    assert real.stat().st_size == result.size_after and (real.stat().st_mode & 0o777) == 0o600
    assert (result.backup.stat().st_mode & 0o777) == 0o600
