"""The real legacy data dir: what scan_files finds, that it writes nothing, and that secrets stay masked."""

from __future__ import annotations

import json

import pytest

from daycare_gui.stores.daycare.files import COLLECTION_NAMES, scan_files
from daycare_gui.stores.daycare.files.legacy_agents import read_legacy_agent, read_legacy_agents
from daycare_gui.stores.daycare.files.subsystems import (
    iter_channel_messages,
    iter_signal_events,
    signal_event_files,
)
from daycare_gui.stores.daycare.paths import resolve_paths
from tests.conftest import snapshot_tree


@pytest.fixture
def store(fixture_copy):
    return fixture_copy("daycare-808af509")


def test_scan_counts(store):
    inv = scan_files(resolve_paths(store))
    assert set(inv.collections) == set(COLLECTION_NAMES)
    counts = inv.counts()
    assert counts["legacy_agents"] == 2
    assert counts["legacy_sessions"] == 3
    assert counts["cron_tasks"] == 1
    assert counts["heartbeat_tasks"] == 1
    assert counts["channels"] == 1 and counts["channel_messages"] == 1
    assert counts["signal_events"] == 1 and counts["delayed_signals"] == 1
    assert counts["expose_endpoints"] == 1 and counts["processes"] == 1
    assert counts["apps"] == counts["skills"] == counts["memory_entities"] == 0
    json.dumps(inv.to_dict())  # everything is JSON-serialisable for the CLI


def test_bad_history_line_is_the_only_problem(store):
    inv = scan_files(resolve_paths(store))
    errors = [p for p in inv.problems if p.severity == "error"]
    assert len(errors) == 1
    p = errors[0]
    assert p.path.endswith("agents/agentusr1/history.jsonl") and p.line == 6
    assert str(p).endswith("agents/agentusr1/history.jsonl:6: " + p.message)
    assert "not json line" in p.message


def test_legacy_sessions_split_like_daycare_import(store):
    agents = {a.id: a for a in read_legacy_agents(resolve_paths(store), with_records=True).items}
    usr = agents["agentusr1"]
    assert usr.type == "user" and usr.lifecycle == "active" and usr.has_context and "context" not in usr.state
    assert usr.bad_lines == (6,) and usr.history_lines == 6
    a, b = usr.sessions
    assert (a.created_at, a.reset_message, a.inference_session_id, a.opened_by) == (
        1739999000000,
        None,
        None,
        "start",
    )
    assert [r["type"] for _, r in a.records] == ["user_message", "assistant_message"]
    assert [line for line, _ in a.records] == [2, 3]
    assert (b.created_at, b.reset_message, b.inference_session_id, b.opened_by) == (
        1739999003000,
        "manual reset",
        "inf-abc",
        "reset",
    )
    assert [r["type"] for _, r in b.records] == ["note"] and b.records[0][1]["text"] == "Agent booted"

    cron = agents["agentcron1"]
    assert cron.type == "cron" and cron.lifecycle == "sleeping" and cron.history_path is None
    (only,) = cron.sessions
    assert (only.created_at, only.inference_session_id, only.opened_by, only.record_count) == (
        1739990000000,
        None,
        "empty",
        0,
    )


def test_scan_keeps_no_records(store):
    inv = scan_files(resolve_paths(store))
    for session in inv.items("legacy_sessions"):
        assert session.records == ()


def test_cron_and_heartbeat(store):
    inv = scan_files(resolve_paths(store))
    (cron,) = inv.items("cron_tasks")
    assert (cron.id, cron.task_uid, cron.name, cron.schedule) == (
        "dailycleanup",
        "clh3am2h30000qwer1234abcd",
        "Daily cleanup",
        "0 2 * * *",
    )
    assert cron.code == "Check temporary files and summarize deletions."
    assert cron.enabled and not cron.delete_after_run and cron.importable and cron.next_to_db
    assert cron.last_run_at_ms == 1771466400000
    (hb,) = inv.items("heartbeat_tasks")
    assert (hb.id, hb.title, hb.code, hb.last_run_at_ms) == (
        "morning-status",
        "Morning status",
        "Summarize open incidents.",
        1771488000000,
    )


def test_subsystems(store):
    paths = resolve_paths(store)
    inv = scan_files(paths)
    (channel,) = inv.items("channels")
    assert (channel.id, channel.name, channel.leader) == ("ch1", "ops", "agentusr1")
    assert channel.members[0].username == "alex" and channel.history.records == 1
    (msg,) = iter_channel_messages(channel.history.path)
    assert (msg.id, msg.text, msg.mentions) == ("msg_1", "deploy done", ("sam",))
    (events_file,) = signal_event_files(paths)
    (event,) = iter_signal_events(events_file)
    assert (event.id, event.user_id) == ("sig_1", "usr_x")
    (delayed,) = inv.items("delayed_signals")
    assert (delayed.id, delayed.deliver_at, delayed.source) == (
        "sig_delay_1",
        1740000000000,
        {"type": "system"},
    )
    (ep,) = inv.items("expose_endpoints")
    assert (ep.id, ep.target, ep.provider, ep.domain, ep.mode, ep.auth) == (
        "ep1",
        {"type": "port", "port": 8080},
        "tailscale",
        "x.ts.net",
        "public",
        None,
    )
    (proc,) = inv.items("processes")
    assert (proc.id, proc.version, proc.pid, proc.keep_alive, proc.status, proc.importable) == (
        "proc1",
        2,
        1234,
        True,
        "running",
        True,
    )
    assert not proc.has_sandbox and proc.log_path is None


def test_scanning_writes_nothing(store):
    before = snapshot_tree(store)
    mtimes = {p: p.stat().st_mtime_ns for p in store.rglob("*")}
    paths = resolve_paths(store)
    scan_files(paths, include_home_skills=False)
    read_legacy_agents(paths, with_records=True)
    assert snapshot_tree(store) == before
    assert {p: p.stat().st_mtime_ns for p in store.rglob("*")} == mtimes


def test_stray_tmp_files_are_reported(store):
    agent = store / "agents" / "agentusr1"
    agent.chmod(0o755)  # fixture copies keep the read-only modes of the originals
    (agent / "state.json.tmp-123-1739999000000").write_text("{")
    a, problems = read_legacy_agent(agent)
    assert a.tmp_files == (str(agent / "state.json.tmp-123-1739999000000"),)
    assert any("stray temporary file" in p.message for p in problems)
