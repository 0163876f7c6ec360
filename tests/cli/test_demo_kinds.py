"""``daycare-gui demo DIR --kind …``: every kind's demo from the command line, dated relative to ``--now``
(issue 34, item 5), and Ctrl+C while writing (item 7)."""

from __future__ import annotations

import datetime as _dt

import pytest

from daycare_gui.cli import main
from daycare_gui.stores import api, registry
from daycare_gui.stores.common.task_times import task_times

NOW = "2031-07-14T15:47Z"
NOW_DT = _dt.datetime(2031, 7, 14, 15, 47, tzinfo=_dt.timezone.utc)


@pytest.mark.parametrize("kind", ["linggen", "agentstack", "cianaparrot"])
def test_demo_writes_a_store_of_each_kind_that_opens_as_that_kind(kind, tmp_path, capsys):
    dest = tmp_path / kind
    assert main(["demo", str(dest), "--kind", kind, "--now", NOW]) == 0
    assert str(dest) in capsys.readouterr().out
    assert main(["inspect", str(dest), "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["kind"] == kind
    assert [p for p in report["problems"] if p.get("severity", "error") == "error"] == []


def test_the_same_now_writes_the_same_demo(tmp_path, capsys):
    for name in ("a", "b"):
        assert main(["demo", str(tmp_path / name), "--kind", "cianaparrot", "--now", NOW]) == 0
    tasks = [(tmp_path / n / "data" / "scheduled_tasks.json").read_bytes() for n in ("a", "b")]
    assert tasks[0] == tasks[1]


def test_cianaparrot_demo_tasks_are_due_after_now_not_overdue(tmp_path, capsys):
    """The window said "Overdue since 2026-02-26" for a demo written today."""
    dest = tmp_path / "ciana"
    assert main(["demo", str(dest), "--kind", "cianaparrot", "--now", NOW]) == 0
    with registry.open_store(str(dest)) as store:
        tasks = store.capability(api.Tasks).tasks()
        assert len(tasks) == 3
        for task in tasks:
            times = task_times(task, now=NOW_DT)
            assert times.overdue is None, (task.title, times.overdue)
            assert times.next_runs and NOW_DT < times.next_runs[0] <= NOW_DT + _dt.timedelta(days=7)
        conversations = store.capability(api.Conversations)
        newest = max(s.updated_at or s.started_at or 0 for t in conversations.threads()
                     for s in conversations.sessions(t.id))
    assert NOW_DT - _dt.timedelta(days=3) < _dt.datetime.fromtimestamp(newest / 1000, _dt.timezone.utc) <= NOW_DT


def test_linggen_demo_sessions_end_shortly_before_now(tmp_path, capsys):
    dest = tmp_path / "linggen"
    assert main(["demo", str(dest), "--kind", "linggen", "--now", NOW]) == 0
    with registry.open_store(str(dest)) as store:
        conversations = store.capability(api.Conversations)
        times = [m.at for t in conversations.threads() for s in conversations.sessions(t.id)
                 for m in conversations.messages(s.ref, 0, 1000) if m.at]
    newest = _dt.datetime.fromtimestamp(max(times) / 1000, _dt.timezone.utc)
    assert NOW_DT - _dt.timedelta(days=7) < newest <= NOW_DT


def test_agentstack_demo_records_end_shortly_before_now(tmp_path, capsys):
    import sqlite3

    dest = tmp_path / "agentstack"
    assert main(["demo", str(dest), "--kind", "agentstack", "--now", NOW]) == 0
    conn = sqlite3.connect(f"file:{dest / 'data' / 'aistack.db'}?mode=ro", uri=True)
    try:
        newest = conn.execute("SELECT max(updated_at) FROM memory").fetchone()[0]
    finally:
        conn.close()
    newest_dt = _dt.datetime.fromtimestamp(newest / 1000, _dt.timezone.utc)
    assert NOW_DT - _dt.timedelta(days=1) < newest_dt <= NOW_DT


def test_daycare_options_are_refused_for_another_kind(tmp_path, capsys):
    assert main(["demo", str(tmp_path / "x"), "--kind", "linggen", "--scale", "large"]) == 2
    assert capsys.readouterr().err == ("daycare-gui demo: --scale applies only to Daycare's demo, not to --kind linggen\n")
    assert not (tmp_path / "x").exists()


def test_an_unknown_demo_kind_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["demo", str(tmp_path / "x"), "--kind", "lingen"])
    assert exit_.value.code == 2
    assert "invalid choice: 'lingen'" in capsys.readouterr().err


def test_ctrl_c_while_writing_the_large_demo_is_a_quiet_exit_130(tmp_path, capsys, monkeypatch):
    from daycare_gui.stores.daycare.demo import large

    def interrupted(self, conn):
        yield "writing agents"
        raise KeyboardInterrupt

    monkeypatch.setattr(large.LargeLoad, "batches", interrupted)
    dest = tmp_path / "store"
    try:
        code = main(["demo", str(dest), "--scale", "large", "--quiet"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl+C left the command as a KeyboardInterrupt traceback")
    assert code == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err
    assert not dest.exists()


def test_ctrl_c_while_writing_the_pglite_demo_removes_the_half_written_folder(tmp_path, capsys, monkeypatch):
    from daycare_gui.stores.daycare.pg import demo as pg_demo

    def interrupted(folder, **_kwargs):
        folder.mkdir(parents=True)
        (folder / "PG_VERSION").write_text("17\n")
        raise KeyboardInterrupt

    monkeypatch.setattr(pg_demo, "write_pglite_demo", interrupted)
    dest = tmp_path / "store"
    try:
        code = main(["demo", str(dest), "--generation", "pglite", "--quiet"])
    except KeyboardInterrupt:
        pytest.fail("Ctrl+C left the command as a KeyboardInterrupt traceback")
    assert code == 130
    assert "interrupted" in capsys.readouterr().err
    assert not dest.exists()
