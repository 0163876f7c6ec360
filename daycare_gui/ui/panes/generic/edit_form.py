"""A small form for a kind's EditableFields; saving runs on the worker and asks before forcing."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.core.edit.line_breaks import EditorText
from daycare_gui.stores.api import EditableField, WriteConflict, WriteRefused
from daycare_gui.ui.widgets.plain_text import text_of


def _widget(field: EditableField, value):
    """The field's editor showing ``value`` (the field's default when the item holds none), and a getter
    for what it holds. Nothing here decides what is written: see EditDialog.changes."""
    if value is None:
        value = field.default
    if field.kind == "bool":
        w = QCheckBox()
        w.setChecked(bool(value))
        return w, w.isChecked
    if field.kind == "choice":
        w = QComboBox()
        w.addItems(list(field.choices))
        if value is not None:
            if w.findText(str(value)) < 0:  # shown as stored, not as the first choice, which is not its value
                w.insertItem(0, str(value))
            w.setCurrentText(str(value))
        return w, w.currentText
    if field.kind == "int":
        w = QSpinBox()
        w.setRange(-(2**31), 2**31 - 1)
        w.setValue(int(value or 0))
        return w, w.value
    if field.kind == "list":
        w = QPlainTextEdit("\n".join(value) if isinstance(value, (list, tuple))
                           else ("" if value is None else str(value)))
        return w, lambda: [line.strip() for line in text_of(w).splitlines() if line.strip()]
    if field.kind == "markdown":
        # text_of keeps no-break spaces (toPlainText turns them into spaces); the editor shows every line
        # break as a line feed, so each line the user kept gets its own ending back (a text may mix CRLF
        # and LF, or hold a lone CR or U+2028), and new lines the text's most common one.
        lines = EditorText("" if value is None else str(value))
        w = QPlainTextEdit(lines.shown)
        return w, lambda: lines.restore(text_of(w))
    if field.kind == "schedule":
        return _schedule_widget("" if value is None else str(value))
    w = QLineEdit("" if value is None else str(value))
    return w, w.text


def _schedule_widget(value: str):
    """A cron expression with what it means under it, said again at each key: in words and the next runs,
    or why it cannot run."""
    from daycare_gui.stores.common.task_times import task_times
    from daycare_gui.stores.records import TaskItem

    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    line = QLineEdit(value)
    line.setObjectName("scheduleLine")
    words = QLabel()
    words.setObjectName("scheduleWords")
    words.setWordWrap(True)

    enabled = [True]

    def say(text: str) -> None:
        times = task_times(TaskItem(id="", title="", schedule_kind="cron", schedule=text.strip()), n=3)
        if times.error:
            words.setText(f"Invalid: {times.error}")
        elif not enabled[0]:  # the system skips a disabled task: listing times it "would" run misleads
            words.setText(f"{times.words} — disabled: it does not run")
        else:
            runs = ", ".join(f"{t:%a %Y-%m-%d %H:%M}" for t in times.next_runs)
            words.setText(f"{times.words}" + (f" — next: {runs}" if runs else ""))

    def set_task_enabled(on: bool) -> None:
        enabled[0] = bool(on)
        say(line.text())

    line.textChanged.connect(say)
    say(value)
    box.set_task_enabled = set_task_enabled  # the form ties it to the task's Enabled box, when it has one
    column.addWidget(line)
    column.addWidget(words)
    return box, line.text


class EditDialog(QDialog):
    """Edit ``fields`` of one item; ``values`` maps field names to their current values."""

    def __init__(self, title: str, fields: tuple[EditableField, ...], values: dict, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self._getters = {}
        self._initial = dict(values)
        self._shown = {}  # what each editor held when the dialog opened
        widgets = {}
        for f in fields:
            widget, getter = _widget(f, values.get(f.name))
            if f.help:
                widget.setToolTip(f.help)
            form.addRow(f.label, widget)
            widgets[f.name] = widget
            self._getters[f.name] = getter
            self._shown[f.name] = getter()
        schedule, enabled = widgets.get("schedule"), widgets.get("enabled")
        if hasattr(schedule, "set_task_enabled") and isinstance(enabled, QCheckBox):
            enabled.toggled.connect(schedule.set_task_enabled)  # a disabled task lists no next runs
            schedule.set_task_enabled(enabled.isChecked())
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def values(self) -> dict:
        """Every field as it is now (a new item is made of all of them)."""
        return {name: getter() for name, getter in self._getters.items()}

    def changes(self) -> dict:
        """Only what the user changed: a field left as it was shown is never written, even where an editor
        cannot hold the stored value exactly (no value, a number in a check box, line endings)."""
        out = {}
        for name, getter in self._getters.items():
            value = getter()
            if value == self._shown[name]:
                continue
            if value != self._initial.get(name) and not (value == "" and self._initial.get(name) is None):
                out[name] = value
        return out


def save_with_consent(parent, worker, channel: str, write, on_saved, on_conflict=None) -> None:
    """Run ``write(force)`` on the worker; a refusal asks the user once before forcing; a conflict writes
    nothing and goes to ``on_conflict`` (its message), or is said in a message box.

    The question is the refusal's own text: the one Yes skips every reason the kind gave (an engine
    running, a file the system would skip), so each must be said, and none that does not apply."""

    # The window's store watcher (kind-blind): what this save writes is shown by the page, not news from disk.
    watcher = getattr(parent.window(), "watcher", None)
    own = hasattr(watcher, "own_write_started")

    def submit(force: bool, on_error) -> None:
        if own:
            watcher.own_write_started()

        def saved(result) -> None:
            if own:
                watcher.own_write_done()
            on_saved(result)

        def not_saved(message: str) -> None:
            if own:
                watcher.own_write_done()
            on_error(message)

        worker.submit(channel, lambda: write(force), on_result=saved, on_error=not_saved)

    def failed(message: str, forced: bool = False) -> None:
        kind, _, text = message.partition(": ")
        if kind == WriteRefused.__name__ and not forced:
            answer = QMessageBox.warning(
                parent, "Write refused", f"{text}\n\nWrite anyway?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
            if answer == QMessageBox.StandardButton.Yes:
                submit(True, lambda m: failed(m, True))
            return
        if kind == WriteConflict.__name__ and on_conflict is not None:
            on_conflict(text or message)
            return
        title = "Changed elsewhere" if kind == WriteConflict.__name__ else "Could not save"
        QMessageBox.warning(parent, title, text or message)

    submit(False, failed)
