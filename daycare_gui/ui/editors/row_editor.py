"""Edit a task that lives in the database (``tasks_cron`` / ``tasks_heartbeat``): one row, one transaction.

The header says it edits a row and which copy Daycare reads. Before writing, the engine is checked
again: while it runs, a warning explains the risk (the engine keeps write-through caches of task rows and
may write its copy back over the change) and the write needs an explicit "Write anyway".

Only fields the user changed are written: each is compared with what its widget showed when the row was
loaded, not with the stored value, which a widget cannot always hold exactly (the code's CRLF endings and
U+2028 separators are shown as plain line breaks). Edited code gets its own line breaks back.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.core.edit.errors import InvalidValue
from daycare_gui.core.edit.line_breaks import EditorText
from daycare_gui.core.edit.rows import (
    BOOLEAN_COLUMNS,
    EngineRunning,
    RowChanged,
    RowEditError,
    check_value,
    load_row,
    write_row,
)
from daycare_gui.core.engine import engine_status
from daycare_gui.ui.formats import count
from daycare_gui.ui.theme import follow_palette
from daycare_gui.ui.widgets.plain_text import text_of

from .fields import (
    ERROR_TONE,
    ScheduleField,
    message_label,
    monospace_editor,
    set_text_if_different,
    show_message,
)
from .sources import painted

LABELS = {"name": "Name", "schedule": "Schedule", "enabled": "Enabled", "delete_after_run": "Delete after run",
          "agent_id": "Agent", "user_id": "User", "description": "Description", "code": "Code (body)", "title": "Title"}


class RowEditor(QWidget):
    dirty_changed = Signal(bool)
    title_changed = Signal(str)
    written = Signal()

    def __init__(self, paths, table: str, row_id: str, *, source_note: str | None = None,
                 on_written: Callable[[], None] | None = None, parent=None) -> None:
        super().__init__(parent)
        self.paths = paths
        self.table = table
        self.row_id = row_id
        self.on_written = on_written
        self.loaded = load_row(paths.db_path, table, row_id)
        self.widgets: dict[str, QWidget] = {}
        self._shown: dict = {}  # what each widget held right after the row was loaded into it
        self._code = EditorText("")  # the stored code's line breaks, put back into edited code
        self._was_dirty = False
        layout = QVBoxLayout(self)
        def header_text() -> str:
            return (f"<b>Database row</b> — edits <code>{table}</code> row <code>{row_id}</code> in "
                    f"<code>{paths.db_path}</code> (not a file)"
                    + (f"<br>{painted(source_note, self.palette())}" if source_note else ""))

        header = QLabel(header_text())
        follow_palette(self, lambda: header.setText(header_text()))
        header.setWordWrap(True)
        header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(header)
        self.engine_label = message_label()
        layout.addWidget(self.engine_label)
        form = QFormLayout()
        for column in self.loaded.editable:
            widget = self._widget(column)
            self.widgets[column] = widget
            form.addRow("" if column in BOOLEAN_COLUMNS else LABELS.get(column, column), widget)
        layout.addLayout(form, 1)
        self.error = message_label()
        layout.addWidget(self.error)
        buttons = QHBoxLayout()
        self.status = QLabel()
        self.revert_button = QPushButton("Revert")
        self.save_button = QPushButton("Write row")
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.revert_button)
        buttons.addWidget(self.save_button)
        layout.addLayout(buttons)
        self.revert_button.clicked.connect(self.revert)
        self.save_button.clicked.connect(self.save)
        self.save_button.setShortcut("Ctrl+S")
        self._show_engine()
        self.revert()

    def _widget(self, column: str) -> QWidget:
        if column == "schedule":
            widget = ScheduleField()
            widget.edited.connect(lambda _text: self._changed())
        elif column in BOOLEAN_COLUMNS:
            widget = QCheckBox(LABELS.get(column, column))
            widget.toggled.connect(lambda _checked: self._changed())
        elif column == "code":
            widget = monospace_editor()
            widget.textChanged.connect(self._changed)
        else:
            widget = QLineEdit()
            widget.setAccessibleName(LABELS.get(column, column))
            widget.textEdited.connect(lambda _text: self._changed())
        return widget

    def _show_engine(self) -> None:
        status = engine_status(self.paths)
        text = (f"The Daycare engine is running ({status.detail}). It keeps write-through caches of task rows "
                "and may overwrite a change made here; stop it first if you can.") if status.running else None
        show_message(self.engine_label, text, ERROR_TONE)

    # --- values --------------------------------------------------------------------------------------

    def _held(self, column: str):
        """What the widget holds, as it holds it."""
        widget = self.widgets[column]
        if isinstance(widget, QCheckBox):
            return widget.isChecked()
        if isinstance(widget, (ScheduleField, QLineEdit)):
            return widget.text()
        return text_of(widget)

    def value(self, column: str):
        """The value the field would write: the code with the stored code's own line breaks back."""
        held = self._held(column)
        return self._code.restore(held) if column == "code" else held

    def set_value(self, column: str, value) -> None:
        """Set a field as if typed (tests and the form use it)."""
        widget = self.widgets[column]
        if isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))
        elif isinstance(widget, ScheduleField):
            widget.set_value(value)
            self._changed()
        else:
            set_text_if_different(widget, value)
            self._changed()

    def changes(self) -> dict:
        """Only the fields the user changed: one left as it was shown is never written."""
        out = {}
        for column in self.loaded.editable:
            if self._held(column) == self._shown.get(column):
                continue
            value = self.value(column)
            original = self.loaded.get(column)
            if column in BOOLEAN_COLUMNS:
                original = bool(original)
            elif original is None:
                original = ""
            if value != original:
                out[column] = value
        return out

    def is_dirty(self) -> bool:
        return bool(self.changes())

    def title(self) -> str:
        return f"{self.table}/{self.row_id}" + ("*" if self.is_dirty() else "")

    def _changed(self) -> None:
        schedule, enabled = self.widgets.get("schedule"), self.widgets.get("enabled")
        if isinstance(schedule, ScheduleField) and isinstance(enabled, QCheckBox):
            schedule.set_task_enabled(enabled.isChecked())  # a disabled task lists no next runs
        problems = [p for c, v in self.changes().items() if (p := check_value(c, v))]
        show_message(self.error, "\n".join(problems) or None)
        self.save_button.setEnabled(not problems)
        dirty = self.is_dirty()
        self.setWindowTitle(self.title())
        self.title_changed.emit(self.title())
        if dirty != self._was_dirty:
            self._was_dirty = dirty
            self.dirty_changed.emit(dirty)

    def revert(self) -> None:
        for column in self.loaded.editable:
            value = self.loaded.get(column)
            widget = self.widgets[column]
            if isinstance(widget, QCheckBox):
                widget.blockSignals(True)
                widget.setChecked(bool(value))
                widget.blockSignals(False)
            elif isinstance(widget, ScheduleField):
                widget.set_value(value or "")
            elif column == "code":
                self._code = EditorText("" if value is None else str(value))
                set_text_if_different(widget, self._code.shown)
            else:
                set_text_if_different(widget, "" if value is None else str(value))
        self._shown = {column: self._held(column) for column in self.loaded.editable}
        self._changed()

    # --- writing -------------------------------------------------------------------------------------

    def confirm_engine_running(self, detail: str) -> bool:
        """Ask before writing while the engine runs (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "The Daycare engine is running",
                          f"The engine is running ({detail}).\n\nIt keeps write-through caches of task rows and "
                          "may write its own copy back over this change, or run the task with the old values. "
                          "Stopping the engine first is safer.", parent=self)
        write = box.addButton("Write anyway", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        return box.clickedButton() is write

    def save(self) -> bool:
        changes = self.changes()
        if not changes:
            self.status.setText("Nothing to write")
            return True
        status = engine_status(self.paths)
        force = False
        if status.running:
            self._show_engine()
            if not self.confirm_engine_running(status.detail):
                self.status.setText("Not written: the engine is running")
                return False
            force = True
        try:
            self.loaded = write_row(self.paths, self.loaded, changes, force=force)
        except (InvalidValue, EngineRunning, RowChanged, RowEditError) as exc:
            show_message(self.error, str(exc))
            self.status.setText("Not written")
            return False
        self.status.setText(f"Wrote {count(len(changes), 'field')} in one transaction")
        self.revert()
        self.written.emit()
        if self.on_written is not None:
            self.on_written()  # the window reopens its read-only connection to see the change
        return True

    def reload(self) -> None:
        self.loaded = load_row(self.paths.db_path, self.table, self.row_id)
        show_message(self.error, None)
        self.revert()

    def ask_unsaved(self) -> str:
        answer = QMessageBox.question(
            self, "Unsaved changes", f"{self.title()} has changes not written.",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel)
        return {QMessageBox.StandardButton.Save: "save", QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")

    def maybe_close(self) -> bool:
        if not self.is_dirty():
            return True
        choice = self.ask_unsaved()
        return self.save() if choice == "save" else choice == "discard"
