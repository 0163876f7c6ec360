"""`daycare-gui inspect` on copies of every fixture: counts equal sqlite3's, migrations are right,
bad legacy lines are problems, and not one byte of the store changes."""

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from daycare_gui.cli import main
from tests.conftest import FIXTURE_NAMES, snapshot_tree


def _inspect_json(path, capsys) -> dict:
    assert main(["inspect", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _sqlite_counts(db):
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0]
                for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_inspect_json_matches_sqlite3_and_writes_nothing(fixture_copy, capsys, name):
    root = fixture_copy(name)
    before = snapshot_tree(root)
    report = _inspect_json(root, capsys)
    assert snapshot_tree(root) == before
    assert set(report) >= {"path", "kind", "generation", "paths", "engine_running", "migrations", "counts", "problems"}
    assert report["kind"] == "daycare" and report["generation"] == "sqlite"
    assert report["engine_running"] is False
    table_counts = {k: v for k, v in report["counts"].items() if not k.startswith("files.")}
    assert table_counts == _sqlite_counts(root / "daycare.db")
    assert report["paths"]["db"] == str(root / "daycare.db")


def test_inspect_reports_migrations_in_applied_order(fixture_copy, capsys):
    m = _inspect_json(fixture_copy("daycare-808af509"), capsys)["migrations"]
    assert len(m["applied"]) == 26 and m["pending"] == [] and m["unknown"] == []
    assert m["applied"][-1] == "20260224_rename_prompt_to_code"
    m = _inspect_json(fixture_copy("daycare-newer"), capsys)["migrations"]
    assert len(m["applied"]) == 33 and m["applied"][-1] == "20260224_add_system_prompts"
    assert sorted(m["unknown"]) == sorted([
        "20260224_add_tasks_table", "20260227_require_cron_task_id", "20260228_soft_delete_tasks",
        "20260301_add_token_stats", "20260302_cleanup_rlm_snapshot_payloads", "20260303_drop_trigger_code",
        "20260304_scope_task_ids_per_user"])
    m = _inspect_json(fixture_copy("daycare-stuck"), capsys)["migrations"]
    assert m["unknown"] == ["20260224_add_tasks_table"] and m["later_pending"][0] == "20260227_require_cron_task_id"


def test_inspect_counts_legacy_files_and_reports_their_bad_lines(fixture_copy, capsys):
    root = fixture_copy("daycare-808af509")
    report = _inspect_json(root, capsys)
    c = report["counts"]
    assert c["files.legacy_agents"] == 2 and c["files.cron_tasks"] == 1 and c["files.heartbeat_tasks"] == 1
    assert c["files.channels"] == 1 and c["files.signal_events"] == 1 and c["files.processes"] == 1
    bad = [p for p in report["problems"] if p["path"].endswith("agentusr1/history.jsonl")]
    assert len(bad) == 1 and bad[0]["line"] == 6
    # the imported cron row is what Daycare reads now
    cron = [t for t in report["task_sources"] if t["kind"] == "cron"]
    assert cron[0]["id"] == "dailycleanup" and cron[0]["has_row"] and cron[0]["daycare_reads"] == "row"


def test_inspect_legacy_only_folder(fixture_copy, capsys):
    root = fixture_copy("daycare-808af509", with_db=False)
    before = snapshot_tree(root)
    report = _inspect_json(root, capsys)
    assert report["generation"] == "legacy-files"
    assert len(report["migrations"]["pending"]) == 26 and report["migrations"]["applied"] == []
    assert all(t["daycare_reads"] == "file" for t in report["task_sources"])
    assert snapshot_tree(root) == before


def test_inspect_empty_pglite_folder_says_what_it_is(fixture_copy, capsys):
    root = fixture_copy("daycare-newer")
    (root / "daycare.pglite").mkdir()  # Daycare reads this, not the old daycare.db beside it
    assert main(["inspect", str(root)]) == 2
    err = capsys.readouterr().err
    assert "daycare.pglite is not a PGlite data folder" in err and "Traceback" not in err


def test_inspect_not_daycare(tmp_path, capsys):
    assert main(["inspect", str(tmp_path)]) == 2
    assert "not a Daycare data directory" in capsys.readouterr().err


def test_missing_table_and_bad_json_column(fixture_copy, capsys):
    root = fixture_copy("daycare-808af509")
    conn = sqlite3.connect(root / "daycare.db")
    conn.execute("DROP TABLE inbox")
    conn.execute("UPDATE agents SET descriptor = '{broken' WHERE id = 'agentcron1'")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    report = _inspect_json(root, capsys)
    assert "inbox" not in report["counts"] and report["counts"]["agents"] == 2
    assert any("agents.descriptor" in p["message"] for p in report["problems"])


def test_human_output_runs_as_a_process(fixture_copy):
    root = fixture_copy("daycare-stuck")
    out = subprocess.run([sys.executable, "-m", "daycare_gui", "inspect", str(root)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "27 applied" in out.stdout and "20260227_require_cron_task_id" in out.stdout


def test_secrets_never_printed(tmp_path, capsys):
    (tmp_path / "settings.json").write_text(json.dumps({"providers": [{"id": "openai", "options": {"apiKey": "sk-live-SECRET1234567"}}]}))
    (tmp_path / "auth.json").write_text(json.dumps({"openai": {"type": "apiKey", "apiKey": "sk-live-SECRET1234567"},
                                                      "gh": {"type": "oauth", "accessToken": "gho_SECRET", "refreshToken": "r-SECRET"}}))
    assert main(["inspect", str(tmp_path), "--json"]) == 0
    out = capsys.readouterr().out
    assert "SECRET" not in out
    assert main(["inspect", str(tmp_path)]) == 0
    assert "SECRET" not in capsys.readouterr().out


def test_password_inside_a_url_is_masked(tmp_path, capsys):
    """Issue 18, item 12: a URL's password never reaches inspect's output, not even quoted in a problem."""
    url = "postgresql://alex:hunter2-PASSWORD@db.local:5432/daycare"
    settings = {"engine": {"dbPath": "rel/" + url}, "proxy": "http://alex:hunter2-PASSWORD@proxy.local:3128"}
    (tmp_path / "settings.json").write_text(json.dumps(settings))
    (tmp_path / "agents" / "a1").mkdir(parents=True)
    (tmp_path / "agents" / "a1" / "descriptor.json").write_text('{"type": "user"}')
    assert main(["inspect", str(tmp_path), "--json"]) == 0
    out = capsys.readouterr().out
    assert "PASSWORD" not in out
    report = json.loads(out)
    assert report["paths"]["db"].endswith("/rel/postgresql:/alex:••••••••@db.local:5432/daycare")
    relative = [p["message"] for p in report["problems"] if "engine.dbPath is relative" in p["message"]]
    assert relative and "alex:••••••••@db.local" in relative[0]
    assert main(["inspect", str(tmp_path)]) == 0
    human = capsys.readouterr().out
    assert "PASSWORD" not in human and "alex:••••••••@db.local" in human


def test_a_mistyped_subcommand_is_a_usage_error_without_qt(tmp_path):
    """Issue 18, item 13: without a display Qt aborted the process (rc 134); now argparse answers first."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    code = ("import sys\nfrom daycare_gui.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n"
            "    print('exit', e.code, 'PySide6' in sys.modules)\n")
    for args, says in ((["inpsect", str(tmp_path)], None), (["inpsect"], "did you mean 'inspect'?"),
                       (["serach"], "did you mean 'search'?"), ([str(tmp_path / "nope")], "does not exist")):
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                             timeout=60, cwd=str(tmp_path))
        assert out.stdout.strip() == "exit 2 False", (args, out.stdout, out.stderr)
        assert "usage: daycare-gui" in out.stderr
        if says:
            assert says in out.stderr
