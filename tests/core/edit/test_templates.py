"""New-file templates parse back into valid documents."""

from __future__ import annotations

import re

import pytest

from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.daycare.edit.permissions_doc import PermissionsDoc
from daycare_gui.stores.daycare.edit.templates import (
    generate_task_id,
    new_app,
    new_cron_task,
    new_heartbeat,
    new_skill,
)
from daycare_gui.stores.daycare.edit.views import AppManifestDoc, CronTaskDoc, HeartbeatDoc, SkillDoc


def test_task_ids_are_cuid2_shaped_and_distinct():
    ids = {generate_task_id() for _ in range(50)}
    assert len(ids) == 50 and all(re.match(r"^[a-z][a-z0-9]{23}$", i) for i in ids)


def test_cron_task_template_is_valid():
    task = CronTaskDoc.parse(new_cron_task("Daily cleanup", "0 2 * * *", "Clean up."))
    assert task.problems() == []
    assert task.get_field("schedule") == "0 2 * * *" and task.body == "Clean up.\n"
    with pytest.raises(InvalidValue):
        new_cron_task("x", "not a schedule")


def test_other_templates():
    assert HeartbeatDoc.parse(new_heartbeat("Morning status")).title == "Morning status"
    files = new_app("deploy-check", "Deploy Check", "Validate deploy readiness", model="gpt-5", allow=["@network"])
    app = AppManifestDoc.parse(files["APP.md"])
    assert app.problems() == [] and app.get_field("model") == "gpt-5"
    perms = PermissionsDoc.parse(files["PERMISSIONS.md"])
    assert perms.allow == ["@network"] and perms.deny == [] and perms.intent
    skill = SkillDoc.parse(new_skill("SQL", "Migrations", sandbox=True, permissions=["@read:/srv"]))
    assert skill.get_field("permissions") == ["@read:/srv"] and skill.get_field("sandbox") is True
