"""The editor for one Markdown file of a store: the form its store gives, the raw text and a preview.

The form is the store's :class:`~daycare_gui.stores.api.DocumentForm` for the file (``Documents.form``):
field specs rendered here by kind (one-line text, several lines, a box, a cron schedule, an ordered list
of rules the form checks as they are typed), then the body, or the document's titled records (a memory
entity's ``## `` sections), problems the store finds and a hint. Every edit goes through the form's own
bytes-in, bytes-out methods, so what the store knows of the format stays in the store's package.
"""

from __future__ import annotations

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

from daycare_gui.stores.api import EditableField
from daycare_gui.ui.theme import set_tone
from daycare_gui.ui.widgets.plain_text import text_of

from .base import FileEditorBase
from .fields import (
    NOTE_TONE,
    RuleListEditor,
    ScheduleField,
    message_label,
    monospace_editor,
    set_text_if_different,
    show_message,
)

WIDE_KINDS = ("markdown", "rules")  # fields that take the whole row (their title sits above them)


class DocumentEditor(FileEditorBase):
    def __init__(self, path, **options) -> None:
        self.widgets: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        super().__init__(path, **options)

    # --- form --------------------------------------------------------------------------------------

    def _build_form(self) -> QWidget:
        spec = self.spec
        form = QWidget()
        outer = QVBoxLayout(form)
        layout = QFormLayout()
        outer.addLayout(layout)
        for field in spec.fields:
            widget = self._field_widget(field)
            error = message_label()
            holder = QWidget()
            column = QVBoxLayout(holder)
            column.setContentsMargins(0, 0, 0, 0)
            if field.kind == "markdown":
                title = QLabel(f"<b>{field.label}</b>" + (f" — {field.help}" if field.help else ""))
                title.setWordWrap(True)
                column.addWidget(title)
            column.addWidget(widget)
            column.addWidget(error)
            self.widgets[field.name], self.errors[field.name] = widget, error
            if field.kind in WIDE_KINDS:
                layout.addRow(holder)
            else:
                layout.addRow(field.label if field.kind != "bool" else "", holder)
        if spec.records_label is not None:
            outer.addWidget(self._records_box(spec.records_label), 1)
        if spec.body_label is not None:
            outer.addWidget(QLabel(spec.body_label))
            self.body_edit = monospace_editor()
            self.body_edit.setAccessibleName("Body")
            self.body_edit.textChanged.connect(self._body_edited)
            outer.addWidget(self.body_edit, 1)
            self.body_error = message_label()
            outer.addWidget(self.body_error)
        self.problems_label = message_label()  # what the store finds wrong in the document as it is
        outer.addWidget(self.problems_label)
        if spec.hint:
            hint = QLabel(spec.hint)
            hint.setWordWrap(True)
            set_tone(hint, NOTE_TONE)
            outer.addWidget(hint)
        if spec.body_label is None and spec.records_label is None:
            outer.addStretch(1)
        return form

    def _field_widget(self, field: EditableField) -> QWidget:
        name = field.name
        if field.kind == "schedule":
            widget = ScheduleField(runner=self.spec.runner)
            widget.edited.connect(lambda text: self.set_field(name, text))
        elif field.kind == "bool":
            widget = QCheckBox(field.label)
            widget.toggled.connect(lambda checked: self.set_field(name, checked))
        elif field.kind == "rules":
            widget = RuleListEditor(field.label, check=lambda text: self.spec.check_item(name, text),
                                    hint=field.help)
            widget.rules_changed.connect(lambda rules: self.set_field(name, rules))
        elif field.kind == "markdown":
            widget = monospace_editor()
            widget.setAccessibleName(field.label)
            widget.setMaximumHeight(110)
            widget.textChanged.connect(lambda: self.set_field(name, text_of(widget)))
        else:
            widget = QLineEdit()
            widget.setAccessibleName(field.label)
            if field.optional:
                widget.setPlaceholderText("(not set)")
            widget.textEdited.connect(lambda text: self.set_field(name, text))
        return widget

    def set_field(self, field: str, value) -> str | None:
        """Set one form field (as the form does when it is edited). Returns why the value was refused."""
        if self._updating:
            return None
        merge = field if isinstance(value, str) else None  # a run of typing is one undo step
        problem = self.edit(f"Edit {field}", merge, lambda data: self.spec.set_value(data, field, value))
        if field in self.errors:
            show_message(self.errors[field], problem)
        return problem

    def _body_edited(self) -> None:
        if self._updating:
            return
        text = text_of(self.body_edit)
        show_message(self.body_error, self.edit_text("Edit body", "body", lambda doc: doc.set_body(text)))

    def _refresh_form(self) -> None:
        data = self.current_bytes
        try:
            values, problems = self.spec.values(data), self.spec.problems(data)
        except Exception as exc:  # the store's reading failed: the raw text still edits the file
            values, problems = {}, [f"The form cannot read this file: {exc}"]
        for field in self.spec.fields:
            widget, value = self.widgets[field.name], values.get(field.name)
            if field.kind == "schedule":
                widget.set_value("" if value is None else str(value))
                if "enabled" in values:  # a disabled task lists no next runs
                    widget.set_task_enabled(values["enabled"] is not False)
            elif field.kind == "bool":
                widget.blockSignals(True)
                widget.setChecked(value is True)
                widget.blockSignals(False)
            elif field.kind == "rules":
                widget.set_rules([str(v) for v in value] if isinstance(value, list) else [])
            elif field.kind == "markdown":
                shown = "" if value is None else str(value)
                # (while typing the box may hold blank lines the file's value trims away: left as typed)
                if text_of(widget).strip() != shown.strip():
                    set_text_if_different(widget, shown)
            else:
                set_text_if_different(widget, "" if value is None else str(value))
        show_message(self.problems_label, "\n".join(problems) or None)
        if self.spec.records_label is not None:
            self._refresh_records()
        if self.spec.body_label is not None:
            set_text_if_different(self.body_edit, self.doc.shown_body)

    # --- records (a memory entity's ## sections) -----------------------------------------------------

    def _records_box(self, label: str) -> QWidget:
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(label))
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

    def _record_list(self) -> list[tuple[str, str]]:
        try:
            return self.spec.records(self.current_bytes)
        except Exception:  # (said by _refresh_form's problems; the raw text still edits the file)
            return []

    def _refresh_records(self) -> None:
        records = self._record_list()
        titles = [title for title, _text in records]
        shown = [self.records.item(i).text() for i in range(self.records.count())]
        row = self.records.currentRow()
        if titles != shown:
            self.records.blockSignals(True)
            self.records.clear()
            self.records.addItems(titles)
            self.records.blockSignals(False)
            if titles:
                self.records.setCurrentRow(min(max(row, 0), len(titles) - 1))
        self._show_record_text(records)

    def _show_record_text(self, records=None) -> None:
        records = records if records is not None else self._record_list()
        row = self.records.currentRow()
        self.record_text.setEnabled(0 <= row < len(records))
        set_text_if_different(self.record_text, records[row][1] if 0 <= row < len(records) else "")

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
        problem = self.edit("Edit record", f"record:{row}", lambda data: self.spec.set_record_text(data, row, text))
        show_message(self.records_error, problem)

    def add_record(self, title: str, text: str = "") -> str | None:
        problem = self.edit("Add record", None, lambda data: self.spec.add_record(data, title, text))
        if problem is None:
            self.records.setCurrentRow(self.records.count() - 1)
        show_message(self.records_error, problem)
        return problem

    def rename_record(self, index: int, title: str) -> str | None:
        problem = self.edit("Rename record", None, lambda data: self.spec.rename_record(data, index, title))
        show_message(self.records_error, problem)
        return problem

    def remove_record(self, index: int) -> str | None:
        if index < 0:
            return None
        problem = self.edit("Remove record", None, lambda data: self.spec.remove_record(data, index))
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
