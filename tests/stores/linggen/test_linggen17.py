"""A home written as Linggen 1.7 writes it: mission runs in its format and statuses, the new mission and
session fields in words, legacy missions flagged, and the new folders listed (issue #34, "Linggen 1.7")."""

from __future__ import annotations

import json

from daycare_gui.cli import main
from daycare_gui.stores.api import Collections, Conversations
from daycare_gui.stores.linggen import KIND
from tests.stores.linggen.builder import T0, standard_home
from tests.stores.linggen.home17 import NIGHTLY, T17, Home17, home17, run_row


def _inspect(path, capsys) -> dict:
    assert main(["inspect", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _rows(root, cid):
    cols = KIND.open(root).capability(Collections)
    return cols.rows(cid, 0, cols.size(cid))


def _columns(root, cid) -> tuple[str, ...]:
    return next(c for c in KIND.open(root).capability(Collections).collections() if c.id == cid).columns


def _runs_by_status(root) -> dict[str, object]:
    columns = _columns(root, "mission_runs")
    return {r.values[columns.index("Status")]: r for r in _rows(root, "mission_runs")}


# -- mission runs ------------------------------------------------------------------------------------------


def test_a_running_mission_run_without_linggen_is_flagged_as_soon_to_be_interrupted(tmp_path, capsys):
    h = home17(tmp_path / "home")
    running = _runs_by_status(h.root)["running"]
    assert running.flag == "stale: will be marked interrupted when Linggen next starts"
    assert "Linggen marks it **interrupted** when it next starts" in running.markdown
    notes = _inspect(h.root, capsys)["notes"]
    assert ("1 mission run still marked running though Linggen is not running: Linggen will mark it "
            "interrupted when it next starts") in notes
    h.pid()  # while Linggen runs, a running run is just running
    running = _runs_by_status(h.root)["running"]
    assert running.flag == "" and "interrupted" not in running.markdown
    assert not [n for n in _inspect(h.root, capsys)["notes"] if "still marked running" in n]


def test_every_mission_run_status_is_explained_interrupted_too(tmp_path):
    h = home17(tmp_path / "home")
    rows = _runs_by_status(h.root)
    assert set(rows) == {"completed", "skipped", "interrupted", "running", "failed"}
    interrupted = rows["interrupted"].markdown
    assert interrupted.startswith("**Status: interrupted** — Linggen stopped")
    assert "marked the run interrupted when it next started" in interrupted and "did not finish" in interrupted
    assert rows["interrupted"].flag == ""  # a status Linggen writes, not an unknown one
    assert rows["skipped"].markdown.startswith("**Status: skipped** — Linggen did not start this run")
    assert rows["completed"].markdown.startswith("**Status: completed** — The run finished.")


def test_mission_runs_of_linggen_17_show_their_start_and_no_exit_code_column(tmp_path):
    h = home17(tmp_path / "home")
    columns = _columns(h.root, "mission_runs")
    assert columns == ("Mission", "Run", "Started", "Status", "Skipped", "Session")
    row = _rows(h.root, "mission_runs")[0]
    assert row.values[columns.index("Started")] != ""  # the start time, as 1.7 records it
    assert "the time is when the run started" in row.markdown


def test_mission_runs_written_before_17_keep_their_exit_code_and_end_time(tmp_path):
    h = Home17(tmp_path / "home")
    h.mission17("old", NIGHTLY, runs="".join([
        run_row("mission-run-1", "failed", T0, session="s1", entry_exit_code=3, output_dir="/h/missions/old/runs/1"),
        run_row("mission-run-2", "completed", T17, session="s2"),  # appended by 1.7 after the upgrade
    ]))
    columns = _columns(h.root, "mission_runs")
    assert columns == ("Mission", "Run", "Started", "Ended", "Status", "Skipped", "Exit code", "Output folder",
                       "Session")
    old, new = _rows(h.root, "mission_runs")
    col = columns.index
    assert old.values[col("Exit code")] == "3" and old.values[col("Output folder")] == "/h/missions/old/runs/1"
    assert old.values[col("Ended")] != "" and old.values[col("Started")] == ""
    assert new.values[col("Started")] != "" and new.values[col("Ended")] == "" and new.values[col("Exit code")] == ""
    assert "the row was added when the run ended" in old.markdown


def test_inspect_counts_mission_runs_per_status_and_lists_every_enabled_mission(tmp_path, capsys):
    h = home17(tmp_path / "home")
    r = _inspect(h.root, capsys)
    c = r["counts"]
    assert c["mission_runs"] == 5 and c["missions_active"] == 2
    assert {s: c[f"mission_runs_{s}"] for s in ("running", "completed", "failed", "cancelled", "skipped",
                                                 "interrupted")} == {
        "running": 1, "completed": 1, "failed": 1, "cancelled": 0, "skipped": 1, "interrupted": 1}
    assert sorted(r["active_missions"]) == ["flat/daily-review", "flat/nightly"]
    assert r["problems"] == []


# -- missions ---------------------------------------------------------------------------------------------


def test_the_new_mission_fields_are_said_in_words(tmp_path):
    h = home17(tmp_path / "home")
    md = {r.key: r for r in _rows(h.root, "missions")}["flat/daily-review"].markdown
    assert "- **Agent:** reviewer" in md
    assert "- **Catch-up:** when the last completed run is more than 24 hours old" in md
    assert "(kickoff):\n  - Start with the open pull requests\n  - Then the failing tests" in md
    assert "Replies that end the run early** (kickoff-stop):\n  - DONE" in md
    assert "- **Permission:**\n  - may edit /work/shop\n  - may read /tmp" in md
    assert "warning shown before it runs: Edits the shop repository" in md
    assert md.endswith("Review the commits.")  # the prompt follows
    nightly = {r.key: r for r in _rows(h.root, "missions")}["flat/nightly"].markdown
    assert "- **Agent:** ling (the default)" in nightly and "- **Catch-up:** none" in nightly


def test_a_legacy_permission_tier_mission_is_a_problem_that_says_what_to_do(tmp_path, capsys):
    h = home17(tmp_path / "home")
    h.mission17("hourly", "schedule: 0 * * * *\nenabled: true\npermission_tier: readonly\n"
                          f"created_at: {T17}\n", prompt="Check the queue.")
    row = {r.key: r for r in _rows(h.root, "missions")}["flat/hourly"]
    assert row.flag == "legacy: no permission grants"
    assert row.problem.startswith("legacy permission_tier: readonly: Linggen 1.7 no longer honours it and runs "
                                  "this mission with no permission grants")
    assert "replace it with a permission block" in row.problem and "mode: read}" in row.problem  # as readonly was
    assert "- **Permission:** none granted (the legacy permission_tier or mode is no longer honoured)" in row.markdown
    problem = next(p for p in _inspect(h.root, capsys)["problems"] if p["path"].endswith("hourly/mission.md"))
    assert "no permission grants" in problem["message"] and problem["severity"] == "warning"


def test_a_legacy_app_mission_is_one_linggen_17_does_not_run(tmp_path, capsys):
    h = home17(tmp_path / "home")
    h.mission17("site", "schedule: 0 * * * *\nenabled: true\nmode: app\n", prompt="")
    row = {r.key: r for r in _rows(h.root, "missions")}["flat/site"]
    assert row.values[1] == "disabled" and row.flag == "skipped by Linggen 1.7"
    assert "does not load this one" in row.problem
    assert "flat/site" not in _inspect(h.root, capsys)["active_missions"]


def test_a_mission_with_permission_paths_in_the_shape_before_17_is_one_linggen_17_skips(tmp_path):
    h = home17(tmp_path / "home")
    h.mission17("tidy", "schedule: 0 * * * *\nenabled: true\npermission:\n  mode: admin\n  paths:\n  - ~/notes\n")
    row = {r.key: r for r in _rows(h.root, "missions")}["flat/tidy"]
    assert row.values[1] == "disabled" and row.flag == "skipped by Linggen 1.7"
    assert "cannot read this frontmatter and skips the mission; give each path its own mode" in row.problem
    assert "  - ~/notes (mode admin; a plain path is the shape before Linggen 1.7)" in row.markdown


# -- sessions ---------------------------------------------------------------------------------------------


def test_the_session_meta_line_has_agent_compaction_and_title_lock(tmp_path):
    h = home17(tmp_path / "home")
    h.session17("sess-1784000000-aaaa0003", "Written before 1.7", title_locked=None)
    conv = KIND.open(h.root).capability(Conversations)
    meta = {s.ref.session_id: dict(s.meta) for t in conv.threads() for s in conv.sessions(t.id)}
    review = meta["sess-1784000000-aaaa0001"]
    assert review["agent_id"] == "reviewer" and review["compact_focus"] == "keep the TODO list"
    assert review["compact_threshold"].startswith("0.8 (Linggen compacts the history at 80%")
    assert review["title_locked"] == "yes: the title stays"
    assert meta["sess-1784000000-aaaa0002"]["title_locked"] == "no: Linggen may rename the session from what you type"
    assert meta["sess-1784000000-aaaa0003"]["title_locked"].startswith("yes (not written; Linggen takes a missing "
                                                                       "value as yes)")


# -- the new folders --------------------------------------------------------------------------------------


def test_the_activity_log_and_memory_backups_are_listed_and_linggens_own_folders_named(tmp_path, capsys):
    h = home17(tmp_path / "home")
    rows = {r.key: r for r in _rows(h.root, "user_files")}
    assert sorted(rows) == ["activity/2026-07-14.jsonl", "activity/conditions.json", "activity/trend.json",
                            "memory/backups/store-2026-07-14.ndjson"]
    day = rows["activity/2026-07-14.jsonl"]
    assert day.values[:4] == ("activity/2026-07-14.jsonl", "activity log of the day", "2026-07-14", 2)
    assert "| 2026-07-14T09:00:00Z | user | dj | add | Blue in Green |  |" in day.markdown
    backup = rows["memory/backups/store-2026-07-14.ndjson"]
    assert backup.values[1].startswith("memory backup") and backup.values[3] == 2
    assert backup.markdown is None  # what the memory holds is not shown
    r = _inspect(h.root, capsys)
    assert (r["counts"]["activity_log_days"], r["counts"]["memory_backups"]) == (1, 1)
    assert set(r["not_user_data"]) == {"telemetry/", "runtime/", "installation_id"}
    assert "not user data" not in json.dumps(r["problems"]) and r["problems"] == []


def test_a_home_without_the_new_folders_offers_no_empty_list_of_them(tmp_path):
    standard_home(tmp_path / "home")
    assert "user_files" not in [c.id for c in KIND.open(tmp_path / "home").capability(Collections).collections()]


# -- wording ----------------------------------------------------------------------------------------------


def test_the_note_on_both_layouts_is_a_sentence(tmp_path, capsys):
    h = standard_home(tmp_path / "home")
    h.flat_session("sess-flat", "Flat", T0)
    notes = _inspect(h.root, capsys)["notes"]
    assert ("both layouts side by side: since the flat layout, Linggen no longer reads the per-project sessions "
            "(projects/<folder>/sessions/); they are listed here, marked with their layout") in notes


def test_mission_files_named_by_the_second_are_mentioned_only_when_two_share_one(tmp_path, capsys):
    h = standard_home(tmp_path / "home")  # per-project missions, each of its own second
    assert not [n for n in _inspect(h.root, capsys)["notes"] if "named by the second" in n]
    h.write(f"projects/-work-app/missions/{T0 + 500}x.json",
            json.dumps({"text": "same second", "created_at": T0 + 500, "active": False}))
    assert [n for n in _inspect(h.root, capsys)["notes"] if "named by the second" in n]
