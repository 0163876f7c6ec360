"""Typed views: TASK.md aliases, schedule checks, heartbeat titles, APP.md and SKILL.md fields."""

from __future__ import annotations

import datetime as dt

import pytest

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.schedule import describe_schedule, next_runs, validate_schedule
from daycare_gui.stores.daycare.edit.views import AppManifestDoc, CronTaskDoc, HeartbeatDoc, SkillDoc

LEGACY_TASK = (
    b"---\nname: Legacy\ncron: '0 2 * * *'\nagent_id: agent_1\nuser_id: u1\none_off: true\n"
    b"taskId: clh3am2h30000qwer1234abcd\n---\nDo things.\n"
)


def test_aliases_are_read_and_written_where_they_are():
    task = CronTaskDoc.parse(LEGACY_TASK)
    assert task.get_field("schedule") == "0 2 * * *"
    assert task.get_field("agentId") == "agent_1"
    assert task.get_field("deleteAfterRun") is True
    task.set_field("schedule", "30 6 * * 1-5")
    task.set_field("agentId", "agent_2")
    task.set_field("userId", "u2")
    task.set_field("deleteAfterRun", False)
    out = task.to_bytes().decode()
    assert "cron: '30 6 * * 1-5'\n" in out and "schedule" not in out
    assert "agent_id: agent_2\n" in out and "agentId" not in out
    assert "user_id: u2\n" in out and "one_off: false\n" in out


def test_canonical_key_is_added_only_when_no_alias_exists():
    task = CronTaskDoc.parse(b"---\nname: x\n---\nbody\n")
    task.set_field("agentId", "a")
    task.set_field("deleteAfterRun", True)
    assert task.to_bytes() == b"---\nname: x\nagentId: a\ndeleteAfterRun: true\n---\nbody\n"


def test_every_present_alias_is_updated():
    task = CronTaskDoc.parse(b"---\nonce: true\noneOff: true\n---\nx\n")
    task.set_field("deleteAfterRun", False)
    assert task.doc.get("once") is False and task.doc.get("oneOff") is False
    assert task.get_field("deleteAfterRun") is False


@pytest.mark.parametrize("bad", ["* * *", "61 * * * *", "0 2 * * 7", "@daily", "0 0 * * * *", "*/0 * * * *", "0 2 * JAN *", ""])
def test_schedules_daycare_cannot_run_are_refused(bad):
    task = CronTaskDoc.parse(LEGACY_TASK)
    with pytest.raises(InvalidValue):
        task.set_field("schedule", bad)
    assert task.to_bytes() == LEGACY_TASK


def test_schedule_helpers():
    assert validate_schedule("*/5 9-17 * * 1,3") is None
    assert describe_schedule("0 2 * * *") == "At 02:00 AM"
    start = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
    runs = next_runs("0 2 * * *", n=3, now=start)
    assert runs == [start.replace(hour=2), start.replace(day=2, hour=2), start.replace(day=3, hour=2)]
    assert next_runs("bad") == []


def test_task_id_and_problems():
    task = CronTaskDoc.parse(b"---\nname: x\n---\n\n")
    with pytest.raises(InvalidValue):
        task.set_field("taskId", "Not-Valid")
    problems = task.problems()
    assert any("schedule" in p for p in problems) and any("taskId" in p for p in problems)
    assert any("body" in p for p in problems)
    assert CronTaskDoc.parse(LEGACY_TASK).problems() == []


def test_enabled_defaults_to_true():
    assert CronTaskDoc.parse(b"---\nname: x\n---\n").get_field("enabled") is True
    assert CronTaskDoc.parse(b"---\nenabled: false\n---\n").get_field("enabled") is False


def test_heartbeat_title_sources():
    assert HeartbeatDoc.parse(b"---\ntitle: T\nname: N\n---\nx\n").title == "T"
    by_name = HeartbeatDoc.parse(b"---\nname: N\n---\nx\n")
    assert by_name.title == "N"
    by_name.set_title("M")
    assert by_name.to_bytes() == b"---\nname: M\n---\nx\n"
    heading = HeartbeatDoc.parse(b"## Morning\nDo it\n")
    heading.set_title("Evening")
    assert heading.to_bytes() == b"## Evening\nDo it\n"
    plain = HeartbeatDoc.parse(b"Do it\n")
    plain.set_title("New")
    assert plain.to_bytes() == b"---\ntitle: New\n---\nDo it\n"


def test_app_manifest_and_skill():
    app = AppManifestDoc.parse(b"---\nname: deploy-check\ntitle: Deploy Check\ndescription: d\nmodel: gpt-5\n---\nYou are x.\n")
    app.set_field("model", "gpt-6")
    app.set_system_prompt("You are y.\n")
    assert app.to_bytes() == b"---\nname: deploy-check\ntitle: Deploy Check\ndescription: d\nmodel: gpt-6\n---\nYou are y.\n"
    with pytest.raises(InvalidValue):
        app.set_field("title", "")

    skill = SkillDoc.parse(b'---\nname: S\nsandbox: true\npermissions:\n  - "@read:/Users/steve/project"\n---\nUse it.\n')
    skill.set_field("permissions", ["@read:/Users/steve/project", "@network"])
    assert skill.to_bytes() == (
        b'---\nname: S\nsandbox: true\npermissions:\n  - "@read:/Users/steve/project"\n  - "@network"\n---\nUse it.\n'
    )
    with pytest.raises(InvalidValue):
        skill.set_field("permissions", ["@read:relative"])
    with pytest.raises(InvalidValue):
        skill.set_field("sandbox", "yes")


def test_fixture_task_round_trips(fixture_copy):
    root = fixture_copy("daycare-808af509", with_db=False)
    for path in [root / "cron/dailycleanup/TASK.md", root / "heartbeat/morning-status.md"]:
        data = path.read_bytes()
        assert CronTaskDoc.parse(data).to_bytes() == data
    task = CronTaskDoc.parse((root / "cron/dailycleanup/TASK.md").read_bytes())
    assert task.problems() == []
    assert HeartbeatDoc.parse((root / "heartbeat/morning-status.md").read_bytes()).title == "Morning status"
