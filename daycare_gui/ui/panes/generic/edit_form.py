"""A small form for a kind's EditableFields; saving runs on the worker and asks before forcing."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
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
    w = QLineEdit("" if value is None else str(value))
    return w, w.text


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
        for f in fields:
            widget, getter = _widget(f, values.get(f.name))
            if f.help:
                widget.setToolTip(f.help)
            form.addRow(f.label, widget)
            self._getters[f.name] = getter
            self._shown[f.name] = getter()
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
