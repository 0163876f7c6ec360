"""Starting contents for new files: a cron task, a heartbeat task, an app (APP.md + PERMISSIONS.md), a skill.

Templates are built through the same document model as edits (so keys are quoted the same way and
checked by loading them back), and every value is validated as an edit would be.
"""

from __future__ import annotations

import secrets
import string

from daycare_gui.stores.common.edit.document import FrontmatterDocument
from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.schedule import validate_schedule

from .permissions_doc import validate_rule
from .views import TASK_ID_PATTERN

_ALPHABET = string.ascii_lowercase + string.digits


def generate_task_id(length: int = 24) -> str:
    """A cuid2-shaped id (a letter, then lowercase letters and digits): what Daycare requires of ``taskId``."""
    if not 24 <= length <= 32:
        raise ValueError("task ids are 24 to 32 characters long")
    task_id = secrets.choice(string.ascii_lowercase) + "".join(secrets.choice(_ALPHABET) for _ in range(length - 1))
    assert TASK_ID_PATTERN.match(task_id)
    return task_id


def _document(fields: dict, body: str) -> bytes:
    doc = FrontmatterDocument.parse(b"")
    for key, value in fields.items():
        if value is not None:
            doc.set(key, value)
    text = body.strip("\n")
    doc.set_body(text + "\n" if text else "")
    return doc.to_bytes()


def new_cron_task(
    name: str,
    schedule: str = "0 9 * * *",
    body: str = "Describe what the task should do.",
    *,
    task_id: str | None = None,
    enabled: bool = True,
    description: str | None = None,
    agent_id: str | None = None,
) -> bytes:
    """TASK.md text for ``cron/<folder>/TASK.md``."""
    problem = validate_schedule(schedule)
    if problem:
        raise InvalidValue(problem)
    if not name.strip():
        raise InvalidValue("a task needs a name")
    if not body.strip():
        raise InvalidValue("a task needs a body: Daycare skips tasks whose code is empty")
    task_id = task_id or generate_task_id()
    if not TASK_ID_PATTERN.match(task_id):
        raise InvalidValue("taskId must be 24-32 lowercase letters and digits")
    fields = {
        "name": name,
        "schedule": schedule,
        "enabled": enabled,
        "taskId": task_id,
        "description": description,
        "agentId": agent_id,
    }
    return _document(fields, body)


def new_heartbeat(title: str, body: str = "Describe what to check on each heartbeat.") -> bytes:
    """Text for ``heartbeat/<id>.md``."""
    if not title.strip():
        raise InvalidValue("a heartbeat task needs a title")
    if not body.strip():
        raise InvalidValue("a heartbeat task needs a body: Daycare skips empty ones")
    return _document({"title": title}, body)


def new_permissions(intent: str, allow: list[str] = (), deny: list[str] = ()) -> bytes:
    """PERMISSIONS.md in the layout Daycare's own serializer writes."""
    if not intent.strip():
        raise InvalidValue("the source intent cannot be empty: Daycare refuses apps without one")
    for rule in [*allow, *deny]:
        problem = validate_rule(rule)
        if problem:
            raise InvalidValue(problem)
    lines = ["## Source Intent", "", intent.strip(), "", "## Rules", "", "### Allow"]
    lines += [f"- {rule.strip()}" for rule in allow]
    lines += ["", "### Deny"]
    lines += [f"- {rule.strip()}" for rule in deny]
    return ("\n".join(lines).rstrip() + "\n").encode("utf-8")


def new_app(
    name: str,
    title: str,
    description: str,
    system_prompt: str = "You are a helpful assistant for this app.",
    *,
    model: str | None = None,
    intent: str = "Describe what this app needs access to and why.",
    allow: list[str] = (),
    deny: list[str] = (),
) -> dict[str, bytes]:
    """``{"APP.md": …, "PERMISSIONS.md": …}`` for ``apps/<name>/``."""
    for label, value in (("name", name), ("title", title), ("description", description), ("system prompt", system_prompt)):
        if not value.strip():
            raise InvalidValue(f"an app needs a {label}")
    app = _document({"name": name, "title": title, "description": description, "model": model}, system_prompt)
    return {"APP.md": app, "PERMISSIONS.md": new_permissions(intent, allow, deny)}


def new_skill(
    name: str,
    description: str,
    body: str = "Describe when and how to use this skill.",
    *,
    sandbox: bool | None = None,
    permissions: list[str] = (),
) -> bytes:
    """SKILL.md text."""
    for rule in permissions:
        problem = validate_rule(rule)
        if problem:
            raise InvalidValue(problem)
    fields = {"name": name, "description": description, "sandbox": sandbox, "permissions": list(permissions) or None}
    return _document(fields, body)
