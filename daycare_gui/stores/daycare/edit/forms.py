"""The file editor's forms for Daycare's Markdown files, chosen by the file's name as Daycare finds it.

A cron ``TASK.md``, a heartbeat task, ``APP.md``, an app's ``PERMISSIONS.md``, ``SKILL.md``, a memory
entity (``plugins/memory/*.md``) or any other Markdown file (knowledge files, ``MEMORY.md``: its body
alone). Each form is a :class:`~daycare_gui.stores.api.DocumentForm` over the typed views of this package
(views.py, permissions_doc.py, memory_doc.py): the window renders the fields and never names a view, and
every edit is spliced into the bytes by the view, so what was not edited stays byte for byte. Qt-free.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from daycare_gui.stores.api import DocumentForm, EditableField
from daycare_gui.stores.common.edit.document import FrontmatterDocument
from daycare_gui.stores.common.edit.errors import InvalidValue

from .memory_doc import MemoryEntityDoc
from .permissions_doc import PermissionsDoc, rule_warning, validate_rule
from .views import AppManifestDoc, CronTaskDoc, DocView, HeartbeatDoc, SkillDoc

RULE_HINT = "@read:/path, @write:/path, @network, @events, @workspace"


def document_kind(path) -> str:
    """What Daycare makes of a Markdown file, from where it is: "cron", "heartbeat", "app", "permissions",
    "skill", "memory" or "markdown"."""
    path = Path(path)
    name = path.name
    if name == "TASK.md":
        return "cron"
    if name == "APP.md":
        return "app"
    if name == "SKILL.md":
        return "skill"
    if name == "PERMISSIONS.md":
        return "permissions"
    if path.suffix.lower() == ".md" and path.parent.name == "heartbeat":
        return "heartbeat"
    if path.suffix.lower() == ".md" and path.parent.name == "memory" and name != "INDEX.md":
        return "memory"
    return "markdown"


def _line(name: str, label: str, optional: bool = False) -> EditableField:
    return EditableField(name, label, "text", optional=optional)


def _check_rule(text: str) -> tuple[str | None, str | None]:
    problem = validate_rule(text)
    return problem, (None if problem else rule_warning(text))


class ViewForm(DocumentForm):
    """A form over one of views.py's typed views: each field read and written through the view, which
    writes to whichever of the field's keys (a legacy alias) the file already uses."""

    runner = "Daycare"

    def __init__(self, kind: str, label: str, view: type[DocView], fields: tuple[EditableField, ...],
                 body_label: str | None = "Body") -> None:
        self.kind, self.label, self.view, self.fields, self.body_label = kind, label, view, fields, body_label

    def _field(self, name: str) -> EditableField:
        found = next((f for f in self.fields if f.name == name), None)
        if found is None:
            raise InvalidValue(f"{self.label} has no field {name!r}")
        return found

    def _get(self, view: DocView, name: str) -> Any:
        return view.get_field(name)

    def _set(self, view: DocView, name: str, value: Any) -> None:
        view.set_field(name, value)

    def values(self, data: bytes) -> dict[str, Any]:
        view = self.view(FrontmatterDocument.parse(data))
        return {f.name: self._get(view, f.name) for f in self.fields}

    def set_value(self, data: bytes, name: str, value: Any) -> bytes:
        field = self._field(name)
        doc = FrontmatterDocument.parse(data)
        view = self.view(doc)
        present = bool(view.keys_present(name))
        empty = value == "" or value == []
        if empty and field.optional and not present:
            return data  # leaving an absent optional field empty adds nothing
        if empty and field.optional and isinstance(value, list):
            view.delete_field(name)
        else:
            self._set(view, name, value)
        return doc.to_bytes()

    def check_item(self, name: str, text: str) -> tuple[str | None, str | None]:
        return _check_rule(text)


class HeartbeatForm(ViewForm):
    """A heartbeat task's title may live in its first heading: it is shown and renamed there."""

    def _get(self, view: DocView, name: str) -> Any:
        return view.title if name == "title" else view.get_field(name)

    def _set(self, view: DocView, name: str, value: Any) -> None:
        if name == "title":
            view.set_title(value)
        else:
            view.set_field(name, value)


class MemoryForm(ViewForm):
    """A memory entity: name and description, and its records (the body's ``## `` sections)."""

    records_label = "Records (## sections)"

    def records(self, data: bytes) -> list[tuple[str, str]]:
        return [(s.title, s.text) for s in MemoryEntityDoc(FrontmatterDocument.parse(data)).sections()]

    def _edited(self, data: bytes, change) -> bytes:
        doc = FrontmatterDocument.parse(data)
        change(MemoryEntityDoc(doc))
        return doc.to_bytes()

    def set_record_text(self, data: bytes, index: int, text: str) -> bytes:
        return self._edited(data, lambda view: view.set_section_text(index, text))

    def add_record(self, data: bytes, title: str, text: str = "") -> bytes:
        return self._edited(data, lambda view: view.add_section(title, text))

    def rename_record(self, data: bytes, index: int, title: str) -> bytes:
        return self._edited(data, lambda view: view.rename_section(index, title))

    def remove_record(self, data: bytes, index: int) -> bytes:
        return self._edited(data, lambda view: view.remove_section(index))


class PermissionsForm(DocumentForm):
    """An app's PERMISSIONS.md: the source intent and the allow / deny rule lists (the body is all of it)."""

    label = "App permissions (PERMISSIONS.md)"
    fields = (
        EditableField("intent", "Source intent", "markdown",
                      help="why the app needs these permissions (Daycare requires it)"),
        EditableField("allow", "Allow", "rules", help=RULE_HINT),
        EditableField("deny", "Deny", "rules", help=RULE_HINT),
    )
    body_label = None
    runner = "Daycare"
    hint = ("Rules are checked as you type: @read:/path and @write:/path need an absolute path; "
            "@network, @events and @workspace take none. Order is kept as shown.")

    def values(self, data: bytes) -> dict[str, Any]:
        # The intent as Daycare reads it (trimmed; a lone CR or U+2028 shown as the line break a text box
        # makes of it, put back by set_intent).
        view = PermissionsDoc.parse(data)
        return {"intent": view.shown_intent, "allow": view.allow, "deny": view.deny}

    def set_value(self, data: bytes, name: str, value: Any) -> bytes:
        doc = FrontmatterDocument.parse(data)
        view = PermissionsDoc(doc)
        if name == "intent":
            view.set_intent(value)
        elif name in ("allow", "deny"):
            view.set_rules(name, value)
        else:
            raise InvalidValue(f"{self.label} has no field {name!r}")
        return doc.to_bytes()

    def check_item(self, name: str, text: str) -> tuple[str | None, str | None]:
        return _check_rule(text)

    def problems(self, data: bytes) -> list[str]:
        # (an empty intent is said beside the intent box when it is emptied, not here)
        return [p for p in PermissionsDoc.parse(data).problems() if not p.startswith("the ## Source Intent")]


class MarkdownForm(DocumentForm):
    """Any other Markdown file of the store (knowledge files, MEMORY.md): its body alone."""

    runner = "Daycare"


FORMS: dict[str, DocumentForm] = {
    "cron": ViewForm("cron", "Cron task (TASK.md)", CronTaskDoc, (
        _line("name", "Name"),
        EditableField("schedule", "Schedule", "schedule"),
        EditableField("enabled", "Enabled", "bool"),
        EditableField("deleteAfterRun", "Delete after run", "bool"),
        _line("agentId", "Agent", True),
        _line("userId", "User", True),
        _line("description", "Description", True),
    ), "Body (the task's code)"),
    "heartbeat": HeartbeatForm("heartbeat", "Heartbeat task", HeartbeatDoc, (_line("title", "Title"),)),
    "app": ViewForm("app", "App manifest (APP.md)", AppManifestDoc, (
        _line("name", "Name"), _line("title", "Title"), _line("description", "Description"),
        _line("model", "Model", True),
    ), "System prompt"),
    "skill": ViewForm("skill", "Skill (SKILL.md)", SkillDoc, (
        _line("name", "Name", True), _line("description", "Description", True),
        EditableField("sandbox", "Sandbox", "bool"),
        EditableField("permissions", "Permissions", "rules", help=RULE_HINT, optional=True),
    )),
    "memory": MemoryForm("memory", "Memory entity", MemoryEntityDoc, (
        _line("name", "Name", True), _line("description", "Description", True)), None),
    "permissions": PermissionsForm(),
}


def form_for_path(path) -> DocumentForm:
    """The form Daycare's Documents give the file editor for the file at ``path``."""
    return FORMS.get(document_kind(path)) or MarkdownForm()
