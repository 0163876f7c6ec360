"""write_demo(now_ms=…): every timestamp moves by the same shift; the default stays byte-identical."""

import datetime as dt
import hashlib
import json
import sqlite3
import time

import pytest

from daycare_gui.cli import main
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.ids import DAY, MINUTE, NOW_MS, current_minute_ms

SHIFT = 10 * DAY
TIME_COLUMNS = ("created_at", "posted_at", "at", "updated_at")
# Every other column holding a time (invalidated_at/processed_until hold session_history ids, not times).
OTHER_TIME_COLUMNS = ("requested_a_at", "requested_b_at", "last_run_at", "deliver_at", "joined_at",
                      "next_restart_at", "last_started_at", "last_exited_at", "boot_time_ms", "ended_at", "applied_at")


def _connect(dest):
    return sqlite3.connect(f"file:{dest / 'daycare.db'}?immutable=1", uri=True)


def _file_hashes(root):
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _ms(iso_text: str) -> int:
    return int(dt.datetime.fromisoformat(iso_text.replace("Z", "+00:00")).timestamp() * 1000)


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    root = tmp_path_factory.mktemp("clock")
    write_demo(root / "fixed")
    write_demo(root / "again", now_ms=None)
    write_demo(root / "shifted", now_ms=NOW_MS + SHIFT)
    return root / "fixed", root / "again", root / "shifted"


def _tables(conn):
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]


def test_every_time_column_moves_by_the_shift(stores):
    fixed, _again, shifted = stores
    a, b = _connect(fixed), _connect(shifted)
    checked = {}
    try:
        for table in _tables(a):
            columns = [r[1] for r in a.execute(f"PRAGMA table_info({table})")]
            times = [c for c in columns if c in TIME_COLUMNS + OTHER_TIME_COLUMNS]
            rows_a = a.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid").fetchall()
            rows_b = b.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY rowid").fetchall()
            assert len(rows_a) == len(rows_b), table
            for ra, rb in zip(rows_a, rows_b):
                for name, va, vb in zip(columns, ra, rb):
                    if name in times:
                        assert vb == (None if va is None else va + SHIFT), (table, name)
                        if va is not None:
                            checked[(table, name)] = checked.get((table, name), 0) + 1
                    elif name != "data":  # JSON blobs carry times inside; checked below
                        assert va == vb, (table, name)
    finally:
        a.close()
        b.close()
    for table, column in [("users", "created_at"), ("inbox", "posted_at"), ("session_history", "at"),
                          ("agents", "updated_at"), ("tasks_cron", "last_run_at"), ("_migrations", "applied_at")]:
        assert checked.get((table, column)), (table, column)


def test_json_times_inside_rows_move_too(stores):
    fixed, _again, shifted = stores
    a, b = _connect(fixed), _connect(shifted)
    try:
        def results(conn):
            return [json.loads(d)["output"]["toolMessage"]["timestamp"] for (d,) in conn.execute(
                "SELECT data FROM session_history WHERE type = 'tool_result' ORDER BY id")]

        ra, rb = results(a), results(b)
        assert ra and rb == [t + SHIFT for t in ra]
        sig = "SELECT data FROM inbox WHERE type = 'signal'"
        assert json.loads(b.execute(sig).fetchone()[0])["signal"]["createdAt"] == \
            json.loads(a.execute(sig).fetchone()[0])["signal"]["createdAt"] + SHIFT
    finally:
        a.close()
        b.close()


def test_inbox_ages_are_the_same_relative_to_now(stores):
    fixed, _again, shifted = stores
    counts = []
    for dest, now in ((fixed, NOW_MS), (shifted, NOW_MS + SHIFT)):
        conn = _connect(dest)
        try:
            total = conn.execute("SELECT count(*) FROM inbox").fetchone()[0]
            old = conn.execute("SELECT count(*) FROM inbox WHERE posted_at < ?", (now - 15 * MINUTE,)).fetchone()[0]
        finally:
            conn.close()
        counts.append((total, old))
    assert counts[0] == counts[1]
    assert 0 < counts[0][1] < counts[0][0]  # some fresh, some stuck


def test_files_move_by_the_shift(stores):
    fixed, _again, shifted = stores
    states = sorted(p.relative_to(fixed) for p in fixed.glob("cron/*/STATE.json"))
    assert states
    for rel in [*states, "heartbeat/.heartbeat-state.json"]:
        before = _ms(json.loads((fixed / rel).read_text())["lastRunAt"])
        after = _ms(json.loads((shifted / rel).read_text())["lastRunAt"])
        assert after - before == SHIFT, rel
    for history in fixed.glob("agents/*/history.jsonl"):
        lines_a = [json.loads(x) for x in history.read_text().splitlines()]
        lines_b = [json.loads(x) for x in (shifted / history.relative_to(fixed)).read_text().splitlines()]
        assert [x["at"] + SHIFT for x in lines_a] == [x["at"] for x in lines_b]
    delayed_a = json.loads((fixed / "signals/delayed.json").read_text())["events"]
    delayed_b = json.loads((shifted / "signals/delayed.json").read_text())["events"]
    assert [e["deliverAt"] + SHIFT for e in delayed_a] == [e["deliverAt"] for e in delayed_b]
    # Files without any time in them are untouched.
    assert (fixed / "settings.json").read_bytes() == (shifted / "settings.json").read_bytes()


def test_default_clock_is_byte_identical(stores, tmp_path):
    fixed, again, _shifted = stores
    assert _file_hashes(fixed) == _file_hashes(again)
    write_demo(tmp_path / "explicit", now_ms=NOW_MS)
    assert _file_hashes(fixed) == _file_hashes(tmp_path / "explicit")


def test_current_minute_ms_is_floored():
    before = time.time() * 1000
    now = current_minute_ms()
    assert now % MINUTE == 0 and before - MINUTE < now <= time.time() * 1000


def test_cli_now_current_dates_relative_to_the_wall_clock(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "fresh"), "--now", "current"]) == 0
    conn = _connect(tmp_path / "fresh")
    try:
        newest = conn.execute("SELECT max(posted_at) FROM inbox").fetchone()[0]
    finally:
        conn.close()
    # The freshest inbox item is 40 s before "now", and "now" is at most a minute behind the wall clock.
    assert 0 < time.time() * 1000 - newest < 3 * MINUTE
    assert main(["demo", str(tmp_path / "fixed"), "--now", "fixed"]) == 0
    capsys.readouterr()


def test_cli_default_dates_the_demo_today_with_fresh_and_stuck_items(tmp_path, capsys):
    """`daycare-gui demo DIR` as a new user types it: the inbox is not all "stuck (275d)"."""
    assert main(["demo", str(tmp_path / "today")]) == 0
    capsys.readouterr()
    now = time.time() * 1000
    conn = _connect(tmp_path / "today")
    try:
        ages = [now - posted for (posted,) in conn.execute("SELECT posted_at FROM inbox")]
    finally:
        conn.close()
    stuck = [a for a in ages if a > 15 * MINUTE]
    assert 0 < len(stuck) < len(ages)  # some waiting for days, some just arrived
    assert all(a >= 0 for a in ages) and min(ages) < 3 * MINUTE


def test_cli_fixed_or_explicit_now_writes_the_same_bytes(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "fixed"), "--now", "fixed"]) == 0
    assert main(["demo", str(tmp_path / "iso"), "--now", "2026-03-01T12:00Z"]) == 0
    assert main(["demo", str(tmp_path / "iso-again"), "--now", "2026-03-01T12:00:00+00:00"]) == 0
    assert main(["demo", str(tmp_path / "other-day"), "--now", "2027-01-15"]) == 0
    capsys.readouterr()
    assert _file_hashes(tmp_path / "fixed") == _file_hashes(tmp_path / "iso") == _file_hashes(tmp_path / "iso-again")
    conn = _connect(tmp_path / "other-day")
    try:
        newest = conn.execute("SELECT max(posted_at) FROM inbox").fetchone()[0]
    finally:
        conn.close()
    assert _ms("2027-01-15T00:00:00Z") - 3 * MINUTE < newest < _ms("2027-01-15T00:00:00Z")


def test_cli_refuses_a_now_it_cannot_read(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", str(tmp_path / "x"), "--now", "yesterday"])
    assert exit_info.value.code == 2
    assert "--now" in capsys.readouterr().err and not (tmp_path / "x").exists()
