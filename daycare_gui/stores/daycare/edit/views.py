"""Typed views over a frontmatter document: the fields of TASK.md, heartbeat files, APP.md and SKILL.md.

A view maps each field to the keys Daycare accepts for it (canonical first, then legacy aliases). It
writes to whichever of those keys the file already uses, so a task written with ``cron:`` keeps
``cron:``; only when none is present does it add the canonical key. Values are checked before anything
is changed (:class:`InvalidValue`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from daycare_gui.stores.common.edit.document import FrontmatterDocument, split_lines
from daycare_gui.stores.common.edit.errors import InvalidValue
from daycare_gui.stores.common.edit.markdown_lines import line_text
from daycare_gui.stores.common.edit.schedule import describe_schedule, next_runs, validate_schedule

from .permissions_doc import validate_rule

TASK_ID_PATTERN = re.compile(r"^[a-z0-9]{24,32}$")

Validator = Callable[[Any], "str | None"]


def _text(name: str, *, required: bool = False) -> Validator:
    def check(value: Any) -> str | None:
        if value is None and not required:
            return None
        if not isinstance(value, str):
            return f"{name} must be text"
        if required and not value.strip():
            return f"{name} cannot be empty"
        return None

    return check


def _boolean(name: str) -> Validator:
    return lambda value: None if isinstance(value, bool) else f"{name} must be true or false"


def _task_id(value: Any) -> str | None:
    if not isinstance(value, str) or not TASK_ID_PATTERN.match(value.strip()):
        return "taskId must be 24-32 lowercase letters and digits (Daycare skips the task otherwise)"
    return None


def _rule_list(value: Any) -> str | None:
    if not isinstance(value, list):
        return "permissions must be a list of rules such as '@read:/path'"
    for rule in value:
        problem = validate_rule(rule)
        if problem:
            return problem
    return None


class DocView:
    """Field access over a :class:`FrontmatterDocument`. Subclasses fill ``FIELDS`` and ``VALIDATORS``."""

    FIELDS: dict[str, tuple[str, ...]] = {}  # field → accepted keys, canonical first
    VALIDATORS: dict[str, Validator] = {}

    def __init__(self, doc: FrontmatterDocument) -> None:
        self.doc = doc

    @classmethod
    def parse(cls, data: bytes):
        return cls(FrontmatterDocument.parse(data))

    def to_bytes(self) -> bytes:
        return self.doc.to_bytes()

    @classmethod
    def field_for_key(cls, key: str) -> str | None:
        """The field a frontmatter key (canonical or alias) belongs to."""
        for field, keys in cls.FIELDS.items():
            if key == field or key in keys:
                return field
        return None

    def _aliases(self, field: str) -> tuple[str, ...]:
        if field not in self.FIELDS:
            raise KeyError(f"{type(self).__name__} has no field {field!r}; fields: {', '.join(self.FIELDS)}")
        return self.FIELDS[field]

    def keys_present(self, field: str) -> list[str]:
        """The keys of ``field`` the file uses, in the order Daycare prefers them."""
        return [key for key in self._aliases(field) if key in self.doc]

    def key_for(self, field: str) -> str:
        """The key a ``set_field`` writes: the one the file already uses, else the canonical one."""
        present = self.keys_present(field)
        return present[0] if present else self._aliases(field)[0]

    def get_field(self, field: str, default: Any = None) -> Any:
        present = self.keys_present(field)
        return self.doc.get(present[0]) if present else default

    def check_field(self, field: str, value: Any) -> str | None:
        self._aliases(field)
        validator = self.VALIDATORS.get(field)
        return validator(value) if validator else None

    def set_field(self, field: str, value: Any) -> None:
        problem = self.check_field(field, value)
        if problem:
            raise InvalidValue(problem)
        present = self.keys_present(field)
        # Every alias present gets the value: a reader that prefers another alias must not see the old one.
        for key in present or [self._aliases(field)[0]]:
            self.doc.set(key, value)

    def delete_field(self, field: str) -> None:
        for key in self.keys_present(field):
            self.doc.delete(key)

    @property
    def body(self) -> str:
        return self.doc.body

    def set_body(self, text: str) -> None:
        self.doc.set_body(text)

    def problems(self) -> list[str]:
        """Field values Daycare would refuse, for display; reading never raises."""
        found = []
        for field in self.FIELDS:
            if self.keys_present(field):
                problem = self.check_field(field, self.get_field(field))
                if problem:
                    found.append(problem)
        return found


class CronTaskDoc(DocView):
    """``cron/<id>/TASK.md`` (seed 000 "Cron Task Files"; import rules in daycare-as-built §6.3)."""

    FIELDS = {
        "name": ("name",),
        "schedule": ("schedule", "cron"),
        "enabled": ("enabled",),
        "deleteAfterRun": ("deleteAfterRun", "delete_after_run", "oneOff", "one_off", "once"),
        "agentId": ("agentId", "agent_id"),
        "userId": ("userId", "user_id", "userID", "userid"),
        "description": ("description",),
        "taskId": ("taskId",),
    }
    VALIDATORS = {
        "name": _text("name", required=True),
        "schedule": lambda value: validate_schedule(value),
        "enabled": _boolean("enabled"),
        "deleteAfterRun": _boolean("deleteAfterRun"),
        "agentId": _text("agentId"),
        "userId": _text("userId"),
        "description": _text("description"),
        "taskId": _task_id,
    }

    def get_field(self, field: str, default: Any = None) -> Any:
        if field == "deleteAfterRun":  # Daycare: true if ANY alias is literally true
            present = self.keys_present(field)
            if not present:
                return default
            return any(self.doc.get(key) is True for key in present)
        if field == "enabled":  # enabled unless literally false
            return self.doc.get("enabled") is not False
        return super().get_field(field, default)

    def describe_schedule(self) -> str:
        return describe_schedule(self.get_field("schedule") or "")

    def next_runs(self, n: int = 5, now=None):
        return next_runs(self.get_field("schedule") or "", n=n, now=now)

    def problems(self) -> list[str]:
        found = super().problems()
        for field in ("name", "schedule", "taskId"):
            if not self.keys_present(field):
                found.append(f"{field} is missing (Daycare skips the task without it)")
        if not self.body.strip():
            found.append("the task body (its code) is empty (Daycare skips the task)")
        return found


class HeartbeatDoc(DocView):
    """``heartbeat/<id>.md``: a title (``title``, else ``name``, else a first-line heading) and a body."""

    FIELDS = {"title": ("title", "name")}
    VALIDATORS = {"title": _text("title", required=True)}
    _HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$")

    def _heading_title(self) -> str | None:
        lines = split_lines(self.doc.body)
        if lines:
            match = self._HEADING.match(line_text(lines[0]).strip())
            if match:
                return match.group(1)
        return None

    @property
    def title(self) -> str | None:
        for key in ("title", "name"):
            value = self.doc.get(key)
            if isinstance(value, str) and value.strip():
                return value
        return self._heading_title()

    def set_title(self, title: str) -> None:
        problem = self.check_field("title", title)
        if problem:
            raise InvalidValue(problem)
        if self.keys_present("title"):
            self.set_field("title", title)
        elif self._heading_title() is not None:
            # The title lives in the heading line: rename it there rather than adding a second title.
            lines = split_lines(self.doc.raw_body)
            first = lines[0]
            ending = first[len(first.rstrip("\r\n")) :]
            hashes = first.lstrip().split(" ", 1)[0]
            self.doc.set_raw_body(f"{hashes} {title}{ending}" + "".join(lines[1:]))
        else:
            self.set_field("title", title)


class AppManifestDoc(DocView):
    """``apps/<id>/APP.md``: name, title, description, model; the body is the system prompt."""

    FIELDS = {"name": ("name",), "title": ("title",), "description": ("description",), "model": ("model",)}
    VALIDATORS = {
        "name": _text("name", required=True),
        "title": _text("title", required=True),
        "description": _text("description", required=True),
        "model": _text("model"),
    }

    @property
    def system_prompt(self) -> str:
        return self.doc.body

    def set_system_prompt(self, text: str) -> None:
        self.doc.set_body(text)


class SkillDoc(DocView):
    """``SKILL.md``: name, description, sandbox flag and a permissions list (same tags as app rules)."""

    FIELDS = {"name": ("name",), "description": ("description",), "sandbox": ("sandbox",), "permissions": ("permissions",)}
    VALIDATORS = {
        "name": _text("name"),
        "description": _text("description"),
        "sandbox": _boolean("sandbox"),
        "permissions": _rule_list,
    }
