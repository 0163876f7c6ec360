"""Small dialogs: name a new app/skill (created from the templates), and restore from the trash.

(New tasks: the shared tasks page's own dialog, ui/panes/generic/task_dialogs.py.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
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

from daycare_gui.core.edit.engine_guard import engine_running_reason
from daycare_gui.stores.common.edit.trash import TrashError, restore, scan_trash

from .engine_prompt import ask_write_while_engine_runs
from .fields import WARNING_TONE, message_label, show_message


class NewItemDialog(QDialog):
    """Asks for the few values a template needs; ``create(values)`` makes the item (ValueError = refused)."""

    def __init__(self, title: str, fields: list[tuple[str, str, str]], create: Callable[[dict], Path],
                 locations: list[tuple[str, Path]] | None = None, parent=None, *, note: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self._create = create
        self.created: Path | None = None
        layout = QVBoxLayout(self)
        self.note = message_label()  # a warning that stays in sight while the values are typed
        show_message(self.note, note, WARNING_TONE)
        layout.addWidget(self.note)
        if note:
            self.setMinimumWidth(460)  # (the few fields alone make a narrow dialog: the note would be a column)
        form = QFormLayout()
        self.inputs: dict[str, QLineEdit] = {}
        for key, label, default in fields:
            edit = QLineEdit(default)
            edit.setAccessibleName(label)
            self.inputs[key] = edit
            form.addRow(label, edit)
        self.location = None
        if locations:
            self.location = QComboBox()
            for label, path in locations:
                self.location.addItem(f"{label} — {path}", str(path))
            form.addRow("Location", self.location)
        layout.addLayout(form)
        self.error = message_label()
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Create")
        buttons.accepted.connect(self.try_create)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def values(self) -> dict:
        values = {key: edit.text() for key, edit in self.inputs.items()}
        if self.location is not None:
            values["location"] = Path(self.location.currentData())
        return values

    def try_create(self) -> bool:
        try:
            self.created = self._create(self.values())
        except ValueError as exc:
            show_message(self.error, str(exc))
            return False
        self.accept()
        return True


class TrashDialog(QDialog):
    """Items deleted from the GUI, newest first, each restorable to where it was."""

    def __init__(self, paths, parent=None, on_restored: Callable[[], None] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Trash")
        self.paths = paths
        self.on_restored = on_restored
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Deleted items kept in {paths.data_dir}/.daycare-gui-trash"))
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

    def confirm_engine_running(self, reason: str) -> bool:
        """Ask before restoring while the engine runs (tests replace this)."""
        return ask_write_while_engine_runs(self, reason, "Restore")

    def reload(self) -> None:
        self.entries, refused = scan_trash(self.paths)
        self.list.clear()
        for entry in self.entries:
            self.list.addItem(f"{entry.deleted_at}  {entry.kind}  {entry.original}")
        for bad in refused:  # after the entries, so a row still indexes self.entries; shown, never restorable
            item = QListWidgetItem(f"Not restorable: {bad.folder.name}: {bad.reason}")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(item)
        if self.entries:
            self.list.setCurrentRow(0)
        self.restore_button.setEnabled(bool(self.entries))

    def restore_selected(self) -> None:
        row = self.list.currentRow()
        if not 0 <= row < len(self.entries):
            return
        reason = engine_running_reason(file=self.entries[row].original, paths=self.paths)
        if reason and not self.confirm_engine_running(reason):
            return
        try:
            restore(self.entries[row])
        except TrashError as exc:
            QMessageBox.warning(self, "Not restored", str(exc))
            return
        except OSError as exc:  # restore() words its own failures; anything else still gets a message
            entry = self.entries[row]
            QMessageBox.warning(self, "Not restored", f"Could not restore {entry.original}: {exc}\n\n"
                                f"Check {entry.original} and the trash ({entry.folder}) before trying again.")
            self.reload()
            return
        self.reload()
        if self.on_restored is not None:
            self.on_restored()
