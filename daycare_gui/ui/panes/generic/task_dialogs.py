"""The tasks page's dialogs, over the ``Tasks`` capability only: a new task. (Deleted tasks are restored
from the store's one list of deleted items, :class:`daycare_gui.ui.dialogs.trash.TrashDialog`.)

New… and Delete… write on the GUI thread, as the pages before them did: each is one small file
or folder, and the answer (a name taken) belongs in the dialog the user is looking at.
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
    QVBoxLayout,
)

from daycare_gui.stores import api
from daycare_gui.stores.common.task_times import task_times
from daycare_gui.stores.records import TaskItem
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
