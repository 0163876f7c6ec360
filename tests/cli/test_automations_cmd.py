"""`daycare-gui automations`: the runs the demo wrote, with outcome, error and start, as text and JSON; filters;
`inspect --json` carries the summary; bad input gets one sentence; the store is not touched."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3

import pytest

from daycare_gui.cli import main
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.db_rows import DIGEST_ERROR, build_small
from daycare_gui.stores.daycare.demo.ids import HOUR, NOW_MS
from tests.conftest import snapshot_tree


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(root)
    return root


def as_json(capsys, *argv) -> dict:
    assert main(["automations", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_lists_the_runs_the_demo_wrote_and_writes_nothing(demo, capsys):
    before = snapshot_tree(demo)
    report = as_json(capsys, demo)
    assert snapshot_tree(demo) == before
    autos = {a["title"]: a for a in report["automations"]}
    digest = autos["Daily digest"]
    written = sorted((r for r in build_small().scheduled_runs if r["task"] == "daily-digest"),
                     key=lambda r: -r["started_at"])
    told = [r for r in digest["runs"] if r["certainty"] == "reconstructed"]
    assert [(r["started_ms"], r["outcome"], r["error"]) for r in told] == [
        (w["started_at"], w["outcome"], w["error"]) for w in written]
    assert digest["runs"][0]["outcome"] == "skipped" and digest["runs"][0]["started_ms"] == NOW_MS - 5 * HOUR
    assert told[0]["session"]["session"] == written[0]["session_id"] and told[0]["message_id"]
    assert digest["schedule"]["words"] == "At 07:00 AM"
    assert digest["health"]["failed"] == 1 and digest["health"]["last_failure"]["error"] == DIGEST_ERROR
    review = autos["Weekly review"]
    assert review["runs"][0]["outcome"] == "running" and review["health"]["stuck"] == [review["runs"][0]["id"]]
    assert any("last_run_at" in n for n in autos["Heartbeat batch of Alex Rivera (2: Check inbox, Plant care)"]["notes"])


def test_task_and_since_filter_and_the_text_says_the_error(demo, capsys):
    cut = build_small().scheduled_runs[1]["started_at"]  # the failed digest run
    day = dt.datetime.fromtimestamp(cut / 1000, dt.timezone.utc)
    report = as_json(capsys, demo, "--task", "Daily digest", "--since", day.strftime("%Y-%m-%dT%H:%M:%S"))
    (digest,) = report["automations"]
    assert [r["outcome"] for r in digest["runs"]] == ["skipped", "worked", "failed"]
    assert main(["automations", str(demo), "--task", "daily-digest"]) == 0
    out = capsys.readouterr().out
    assert f"failed: {DIGEST_ERROR}" in out and "At 07:00 AM" in out and "Stopped firing" in out


def test_the_text_says_how_daycare_stamps_a_heartbeat_batch_and_what_each_run_ran(demo, capsys):
    assert main(["automations", str(demo), "--task", "heartbeat:" + build_small().users["owner"]]) == 0
    out = capsys.readouterr().out
    assert "note: Daycare stamps every heartbeat row's last_run_at on each batch" in out
    assert out.count("it ran 2 heartbeats (Check inbox, Plant care)") == 4  # each of the demo's batch runs


def test_inspect_json_carries_the_summary(demo, capsys):
    assert main(["inspect", str(demo), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)["automations"]
    assert summary["count"] == 8 and summary["failures"] == 1 and summary["stuck"] == 1
    # 3 digest + skipped, review worked + skipped + running, 4 heartbeat batches + the last stamp, stand-up, backup
    assert summary["runs"] == 14
    assert "Daily digest" in summary["stopped_firing"]


def test_bad_input_gets_one_sentence(demo, capsys, tmp_path):
    assert main(["automations", str(demo), "--since", "last tuesday"]) == 2
    assert "is not a date" in capsys.readouterr().err
    assert main(["automations", str(demo), "--task", "No such task"]) == 1
    assert "no automation 'No such task'" in capsys.readouterr().err
    assert main(["automations", str(tmp_path / "nothing-here")]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_a_store_with_nothing_scheduled_says_so(demo, tmp_path, capsys):
    store = tmp_path / "daycare"
    shutil.copytree(demo, store)
    with sqlite3.connect(store / "daycare.db") as conn:
        conn.execute("DELETE FROM tasks_cron")
        conn.execute("DELETE FROM tasks_heartbeat")
    shutil.rmtree(store / "cron")
    shutil.rmtree(store / "heartbeat")
    assert main(["automations", str(store)]) == 0
    assert capsys.readouterr().out.strip() == "Nothing scheduled."


def test_the_808af509_fixture(fixture_copy, capsys):
    report = as_json(capsys, fixture_copy("daycare-808af509"))
    (cleanup,) = [a for a in report["automations"] if a["title"] == "Daily cleanup"]
    assert [(r["outcome"], r["started"]) for r in cleanup["runs"]] == [("skipped", "2026-02-19T02:00:00Z")]
