"""Daycare's files as ``daycare-gui edit`` changes them (:meth:`StoreKind.file_editor
<daycare_gui.stores.api.StoreKind.file_editor>`), inside a store or loose: Markdown with frontmatter (TASK.md
through the alias-aware cron view, PERMISSIONS.md through its own), an app's ``state.json`` and
``settings.json`` (edited as JSON: only the changed value's text changes).

While Daycare's engine runs on the file's store any write is risky (:func:`.engine_guard.engine_running_reason`);
a cron or heartbeat file Daycare no longer reads (it imported it into the database) is written only with
``--force``, after a warning that names the row Daycare reads.
"""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores.api import FileEditor
from daycare_gui.stores.common.edit.document import FrontmatterDocument
from daycare_gui.stores.common.edit.errors import DocumentError, InvalidValue
from daycare_gui.stores.daycare.edit.app_state import AppStateDoc, is_app_state
from daycare_gui.stores.daycare.edit.engine_guard import engine_running_reason, store_folders
from daycare_gui.stores.daycare.edit.permissions_doc import PermissionsDoc
from daycare_gui.stores.daycare.edit.settings_doc import SettingsDoc
from daycare_gui.stores.daycare.edit.views import CronTaskDoc
from daycare_gui.stores.masking import mask_text

PERMISSION_KEYS = ("intent", "allow", "deny")
MARKDOWN_SUFFIXES = (".md", ".markdown")


def file_kind(path: Path) -> str | None:
    """"markdown", "app-state", "settings" or None (a file Daycare's edit does not know)."""
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        return "markdown"
    if is_app_state(path):
        return "app-state"
    if path.name == "settings.json":
        return "settings"
    return None


class DaycareFileEditor(FileEditor):
    def __init__(self, path: Path, kind: str) -> None:
        self.path = path
        self.kind = kind

    @classmethod
    def for_file(cls, path) -> DaycareFileEditor | None:
        path = Path(path)
        kind = file_kind(path)
        return None if kind is None else cls(path, kind)

    def folders(self) -> list[Path] | None:
        return store_folders(self.path)

    def apply(self, data: bytes, assignments, body) -> bytes:
        if self.kind in ("app-state", "settings"):
            if body is not None:
                raise InvalidValue("--body-file is for Markdown files")
            view = AppStateDoc.parse(data) if self.kind == "app-state" else SettingsDoc.parse(data)
            for key, value in assignments:
                view.set(key, value)
            return view.to_bytes()
        doc = FrontmatterDocument.parse(data)
        if doc.error is not None and assignments:
            raise DocumentError(str(doc.error), doc.error.line)
        name = self.path.name.upper()
        if name == "PERMISSIONS.MD":
            view = PermissionsDoc(doc)
            for key, value in assignments:
                if key == "intent":
                    if not isinstance(value, str):
                        raise InvalidValue("intent must be text")
                    view.set_intent(value)
                elif key in ("allow", "deny"):
                    view.set_rules(key, value if isinstance(value, list) else [value] if isinstance(value, str) else value)
                else:
                    raise InvalidValue(f"PERMISSIONS.md has no key {key!r}; use {', '.join(PERMISSION_KEYS)}")
        elif name == "TASK.MD":
            view = CronTaskDoc(doc)
            for key, value in assignments:
                field = CronTaskDoc.field_for_key(key)
                if field is None:
                    doc.set(key, value)
                else:
                    view.set_field(field, value)
        else:
            for key, value in assignments:
                doc.set(key, value)
        if body is not None:
            doc.set_body(body)
        return doc.to_bytes()

    def warning(self) -> str | None:
        """When the file is a task file Daycare does not read (it reads a database row, or nothing)."""
        if self.kind != "markdown":
            return None
        from daycare_gui.stores.daycare.sqlite.store import task_source_of

        path = self.path
        source = task_source_of(path)
        if source is None or source.reads != "row":
            return None
        if source.has_row:
            return (f"Daycare does not read {path}: it imported this task into its database and now reads the "
                    f"{source.table} row {source.id!r} in {source.db_path}, so a change to the file changes "
                    "nothing Daycare runs. Edit the row instead (in the window: the task's Edit row), or pass "
                    "--force to change the file anyway.")
        return f"Daycare does not read {path}: {source.reason}. Pass --force to change the file anyway."

    def blocked(self) -> str | None:
        return engine_running_reason(file=self.path)

    def mask_diff(self, text: str) -> str:
        return mask_text(text) if self.path.name == "settings.json" else text
