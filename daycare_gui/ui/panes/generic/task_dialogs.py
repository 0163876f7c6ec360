"""The tasks page's dialogs, over the ``Tasks`` capability only: a new task, and the trash to restore from.

New…, Delete… and Restore write on the GUI thread, as the pages before them did: each is one small file
or folder, and the answer (a name taken, a place taken again) belongs in the dialog the user is looking at.
A refusal (the system's engine runs) is asked about once; "… anyway" writes with ``force``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
)

from daycare_gui.stores import api
from daycare_gui.stores.common.task_times import task_times
from daycare_gui.stores.records import TaskItem
from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs
from daycare_gui.ui.theme import set_tone


def message_label() -> QLabel:
    """A sentence under a form (a warning, an error), hidden while it has none."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label


def show_message(label: QLabel, text: str | None, tone: str = "error") -> None:
    set_tone(label, tone)
    label.setText(text or "")
    label.setVisible(bool(text))


def with_consent(write: Callable[[bool], Any], ask: Callable[[str], bool]) -> Any:
    """``write(force)``; a refusal goes to ``ask(reason)`` once, and a yes writes again with ``force``.
    Other errors pass through to the caller, which says them where the user looks."""
    try:
        return write(False)
    except api.WriteRefused as exc:
        if not ask(str(exc)):
            raise
        return write(True)


def schedule_words(kind: str, schedule: str) -> str:
    """What a schedule being typed means, or why it cannot run (the new-task dialog's hint)."""
    times = task_times(TaskItem(id="", title="", schedule_kind=kind, schedule=schedule.strip()))
    return times.error or times.words


class NewTaskDialog(QDialog):
    """Asks for the values ``Tasks.create_fields(kind)`` names; ``create(values)`` makes the task, and a
    ValueError or WriteConflict keeps the dialog open with its sentence."""

    def __init__(self, title: str, kind: str, fields: tuple[api.EditableField, ...],
                 create: Callable[[dict], TaskItem], parent=None, *, note: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.kind = kind
        self._create = create
        self.created: TaskItem | None = None
        layout = QVBoxLayout(self)
        self.note = message_label()  # a warning that stays in sight while the values are typed
        show_message(self.note, note, "warning")
        layout.addWidget(self.note)
        if note:
            self.setMinimumWidth(460)
        form = QFormLayout()
        self.inputs: dict[str, QLineEdit] = {}
        for f in fields:
            edit = QLineEdit("" if f.default is None else str(f.default))
            edit.setAccessibleName(f.label)
            if f.help:
                edit.setToolTip(f.help)
            self.inputs[f.name] = edit
            form.addRow(f.label, edit)
        layout.addLayout(form)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        layout.addWidget(self.hint)
        if "schedule" in self.inputs:
            box = self.inputs["schedule"]
            box.textChanged.connect(lambda text: self.hint.setText(schedule_words(kind, text)))
            self.hint.setText(schedule_words(kind, box.text()))
        self.error = message_label()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        buttons.accepted.connect(self.try_create)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def values(self) -> dict:
        return {key: edit.text() for key, edit in self.inputs.items()}

    def try_create(self) -> bool:
        try:
            self.created = self._create(self.values())
        except (ValueError, api.WriteConflict, api.WriteRefused) as exc:
            show_message(self.error, str(exc))
            return False
        self.accept()
        return True


class RestoreDialog(QDialog):
    """Tasks deleted from the window, newest first, each restorable to where it was; an entry that can
    never be restored (planted, pointing outside the store) is listed greyed with its reason."""

    def __init__(self, cap: api.Tasks, parent=None, *, on_restored: Callable[[], None] | None = None,
                 ask: Callable[[str], bool] | None = None, own: Callable | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Trash")
        self.own = own or (lambda write: write())  # marks the page's own writes for the store watcher
        self.cap, self.on_restored = cap, on_restored
        self.ask = ask or (lambda reason: ask_write_while_engine_runs(self, reason, "Restore"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Tasks deleted here, ready to restore"))
        self.list = QListWidget()
        layout.addWidget(self.list, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.restore_button = QPushButton("Restore")
        buttons.addButton(self.restore_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.restore_button.clicked.connect(self.restore_selected)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 360)
        self.reload()

    def reload(self) -> None:
        listed = self.cap.deleted()
        self.entries = [d for d in listed if not d.refused]
        self.list.clear()
        for d in self.entries:
            self.list.addItem(f"{d.deleted_at}  {d.label}")
        for d in listed:
            if d.refused:  # after the entries, so a row still indexes self.entries; shown, never restorable
                item = QListWidgetItem(f"Not restorable: {d.label}: {d.refused}")
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                self.list.addItem(item)
        if self.entries:
            self.list.setCurrentRow(0)
        self.restore_button.setEnabled(bool(self.entries))

    def restore_selected(self) -> None:
        row = self.list.currentRow()
        if not 0 <= row < len(self.entries):
            return
        token, cap = self.entries[row].token, self.cap
        try:
            self.own(lambda: with_consent(lambda force: cap.restore(token, force=force), self.ask))
        except api.WriteRefused:
            return
        except (ValueError, OSError) as exc:
            QMessageBox.warning(self, "Not restored", str(exc))
            self.reload()
            return
        self.reload()
        if self.on_restored is not None:
            self.on_restored()
