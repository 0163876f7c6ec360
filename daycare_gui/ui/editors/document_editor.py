"""The editor for one Markdown+frontmatter file of Daycare: a form for its kind, the raw text and a preview.

Kinds (from the path): a cron ``TASK.md``, a heartbeat task, ``APP.md``, ``SKILL.md``, a memory entity
(``plugins/memory/*.md``: name, description and its ``## record`` sections) and any other Markdown file
(knowledge files, ``MEMORY.md``: body only). PERMISSIONS.md has its own editor (permissions_editor.py).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.stores.daycare.edit.memory_doc import MemoryEntityDoc
from daycare_gui.stores.daycare.edit.views import AppManifestDoc, CronTaskDoc, DocView, HeartbeatDoc, SkillDoc
from daycare_gui.ui.widgets.plain_text import text_of

from .base import FileEditorBase
from .fields import (
    RuleListEditor,
    ScheduleField,
    message_label,
    monospace_editor,
    set_text_if_different,
    show_message,
)

KIND_LABELS = {
    "cron": "Cron task (TASK.md)",
    "heartbeat": "Heartbeat task",
    "app": "App manifest (APP.md)",
    "skill": "Skill (SKILL.md)",
    "memory": "Memory entity",
    "markdown": "Markdown file",
}
VIEWS: dict[str, type[DocView]] = {
    "cron": CronTaskDoc, "heartbeat": HeartbeatDoc, "app": AppManifestDoc, "skill": SkillDoc, "memory": MemoryEntityDoc,
}
# Per kind: (field, label, widget kind, optional). "line" = one-line text, "check" = boolean, "schedule", "rules".
FORM_FIELDS: dict[str, list[tuple[str, str, str, bool]]] = {
    "cron": [
        ("name", "Name", "line", False),
        ("schedule", "Schedule", "schedule", False),
        ("enabled", "Enabled", "check", False),
        ("deleteAfterRun", "Delete after run", "check", False),
        ("agentId", "Agent", "line", True),
        ("userId", "User", "line", True),
        ("description", "Description", "line", True),
    ],
    "heartbeat": [("title", "Title", "line", False)],
    "app": [
        ("name", "Name", "line", False),
        ("title", "Title", "line", False),
        ("description", "Description", "line", False),
        ("model", "Model", "line", True),
    ],
    "skill": [
        ("name", "Name", "line", True),
        ("description", "Description", "line", True),
        ("sandbox", "Sandbox", "check", False),
        ("permissions", "Permissions", "rules", True),
    ],
    "memory": [("name", "Name", "line", True), ("description", "Description", "line", True)],
    "markdown": [],
}
BODY_LABELS = {"app": "System prompt", "cron": "Body (the task's code)", "heartbeat": "Body"}


def document_kind(path) -> str:
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


class DocumentEditor(FileEditorBase):
    def __init__(self, path, *, kind: str | None = None, source_note: str | None = None, store_paths=None,
                 parent=None) -> None:
        self.kind = kind or document_kind(path)
        if self.kind == "permissions":
            raise ValueError("PERMISSIONS.md is edited with PermissionsEditor")
        self.kind_label = KIND_LABELS[self.kind]
        self.widgets: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        super().__init__(path, source_note=source_note, store_paths=store_paths, parent=parent)

    # --- form --------------------------------------------------------------------------------------

    def view(self, doc=None):
        view_class = VIEWS.get(self.kind, DocView)
        return view_class(doc if doc is not None else self.doc)

    def _build_form(self) -> QWidget:
        form = QWidget()
        outer = QVBoxLayout(form)
        layout = QFormLayout()
        outer.addLayout(layout)
        for field, label, widget_kind, optional in FORM_FIELDS[self.kind]:
            widget = self._field_widget(field, label, widget_kind, optional)
            error = message_label()
            holder = QWidget()
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(widget)
            column.addWidget(error)
            self.widgets[field], self.errors[field] = widget, error
            layout.addRow(label if widget_kind != "check" else "", holder)
        if self.kind == "memory":
            outer.addWidget(self._records_box(), 1)
        else:
            outer.addWidget(QLabel(BODY_LABELS.get(self.kind, "Body")))
            self.body_edit = monospace_editor()
            self.body_edit.setAccessibleName("Body")
            self.body_edit.textChanged.connect(self._body_edited)
            outer.addWidget(self.body_edit, 1)
            self.body_error = message_label()
            outer.addWidget(self.body_error)
        return form

    def _field_widget(self, field: str, label: str, widget_kind: str, optional: bool) -> QWidget:
        if widget_kind == "schedule":
            widget = ScheduleField()
            widget.edited.connect(lambda text: self.set_field(field, text))
        elif widget_kind == "check":
            widget = QCheckBox(label)
            widget.toggled.connect(lambda checked: self.set_field(field, checked))
        elif widget_kind == "rules":
            widget = RuleListEditor(label)
            widget.rules_changed.connect(lambda rules: self.set_field(field, rules))
        else:
            widget = QLineEdit()
            widget.setAccessibleName(label)
            if optional:
                widget.setPlaceholderText("(not set)")
            widget.textEdited.connect(lambda text: self.set_field(field, text))
        return widget

    def set_field(self, field: str, value) -> str | None:
        """Set one form field (as the form does when it is edited). Returns why the value was refused."""
        if self._updating:
            return None
        optional = next(opt for f, _, _, opt in FORM_FIELDS[self.kind] if f == field)

        def mutate(doc) -> None:
            view = self.view(doc)
            present = bool(view.keys_present(field))
            empty = value == "" or value == []
            if empty and optional and not present:
                return  # leaving an absent optional field empty adds nothing
            if empty and optional and isinstance(value, list):
                view.delete_field(field)
            elif field == "title" and isinstance(view, HeartbeatDoc):
                view.set_title(value)
            else:
                view.set_field(field, value)

        merge = field if isinstance(value, str) else None
        problem = self.edit(f"Edit {field}", merge, mutate)
        if field in self.errors:
            show_message(self.errors[field], problem)
        return problem

    def _body_edited(self) -> None:
        if self._updating:
            return
        text = text_of(self.body_edit)
        show_message(self.body_error, self.edit("Edit body", "body", lambda doc: doc.set_body(text)))

    def _refresh_form(self) -> None:
        view = self.view()
        for field, _label, widget_kind, _optional in FORM_FIELDS[self.kind]:
            widget = self.widgets[field]
            if field == "title" and isinstance(view, HeartbeatDoc):
                value = view.title
            else:
                value = view.get_field(field)
            if widget_kind == "schedule":
                widget.set_value("" if value is None else str(value))
            elif widget_kind == "check":
                widget.blockSignals(True)
                widget.setChecked(value is True)
                widget.blockSignals(False)
            elif widget_kind == "rules":
                widget.set_rules([str(v) for v in value] if isinstance(value, list) else [])
            else:
                set_text_if_different(widget, "" if value is None else str(value))
        if self.kind == "cron":  # a disabled task lists no next runs
            self.widgets["schedule"].set_task_enabled(view.get_field("enabled") is not False)
        if self.kind == "memory":
            self._refresh_records(view)
        else:
            set_text_if_different(self.body_edit, self.doc.shown_body)

    # --- memory records ------------------------------------------------------------------------------

    def _records_box(self) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("Records (## sections)"))
        row = QHBoxLayout()
        self.records = QListWidget()
        self.records.setAccessibleName("Records")
        self.records.setMaximumWidth(240)
        self.record_text = monospace_editor()
        self.record_text.setAccessibleName("Record text")
        row.addWidget(self.records)
        row.addWidget(self.record_text, 1)
        layout.addLayout(row, 1)
        buttons = QHBoxLayout()
        for text, slot in (("Add…", self._ask_add_record), ("Rename…", self._ask_rename_record),
                           ("Remove", lambda: self.remove_record(self.records.currentRow()))):
            button = QPushButton(text)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.records_error = message_label()
        layout.addWidget(self.records_error)
        self.records.currentRowChanged.connect(self._record_selected)
        self.record_text.textChanged.connect(self._record_edited)
        return box

    def _refresh_records(self, view: MemoryEntityDoc) -> None:
        sections = view.sections()
        titles = [s.title for s in sections]
        shown = [self.records.item(i).text() for i in range(self.records.count())]
        row = self.records.currentRow()
        if titles != shown:
            self.records.blockSignals(True)
            self.records.clear()
            self.records.addItems(titles)
            self.records.blockSignals(False)
            if titles:
                self.records.setCurrentRow(min(max(row, 0), len(titles) - 1))
        self._show_record_text(sections)

    def _show_record_text(self, sections=None) -> None:
        sections = sections if sections is not None else self.view().sections()
        row = self.records.currentRow()
        self.record_text.setEnabled(0 <= row < len(sections))
        set_text_if_different(self.record_text, sections[row].text if 0 <= row < len(sections) else "")

    def _record_selected(self, _row: int) -> None:
        was, self._updating = self._updating, True
        try:
            self._show_record_text()
        finally:
            self._updating = was

    def _record_edited(self) -> None:
        row = self.records.currentRow()
        if self._updating or row < 0:
            return
        text = text_of(self.record_text)
        problem = self.edit("Edit record", f"record:{row}", lambda doc: MemoryEntityDoc(doc).set_section_text(row, text))
        show_message(self.records_error, problem)

    def add_record(self, title: str, text: str = "") -> str | None:
        problem = self.edit("Add record", None, lambda doc: MemoryEntityDoc(doc).add_section(title, text))
        if problem is None:
            self.records.setCurrentRow(self.records.count() - 1)
        show_message(self.records_error, problem)
        return problem

    def rename_record(self, index: int, title: str) -> str | None:
        problem = self.edit("Rename record", None, lambda doc: MemoryEntityDoc(doc).rename_section(index, title))
        show_message(self.records_error, problem)
        return problem

    def remove_record(self, index: int) -> str | None:
        if index < 0:
            return None
        problem = self.edit("Remove record", None, lambda doc: MemoryEntityDoc(doc).remove_section(index))
        show_message(self.records_error, problem)
        return problem

    def _ask_add_record(self) -> None:
        title, ok = QInputDialog.getText(self, "Add record", "Title of the new record:")
        if ok and title.strip():
            self.add_record(title)

    def _ask_rename_record(self) -> None:
        row = self.records.currentRow()
        if row < 0:
            return
        title, ok = QInputDialog.getText(self, "Rename record", "New title:", text=self.records.item(row).text())
        if ok and title.strip():
            self.rename_record(row, title)
