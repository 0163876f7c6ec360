"""Deleted items (Storage → Deleted Items, and the Tasks page's Trash…): what this app deleted from the
store — tasks, skills, documents, rows — each restorable to its place, for any kind that offers the Trash
capability. The one dialog for every deleted thing: a page that deletes opens this one too."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
)

from daycare_gui.stores.api import Trash, WriteRefused
from daycare_gui.ui.editors.engine_prompt import ask_write_while_engine_runs


class TrashDialog(QDialog):
    """Items deleted from the GUI, newest first; ones that can never be restored are listed after them,
    with why, and cannot be selected."""

    def __init__(self, trash: Trash, parent=None, on_restored: Callable[[], None] | None = None, *,
                 ask: Callable[[str], bool] | None = None, own: Callable[[Callable], object] | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Deleted items")
        self.trash = trash
        self.on_restored = on_restored
        self.ask = ask  # the page's own question, where a page opens it (else confirm_engine_running)
        self.own = own or (lambda write: write())  # marks the write as the page's own for the store watcher
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Deleted items kept in {trash.where()}"))
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
        items = self.trash.deleted()
        self.entries = [i for i in items if i.problem is None]
        self.list.clear()
        for item in self.entries:
            self.list.addItem(f"{item.deleted_at}  {item.what}  {item.title}")
        for bad in (i for i in items if i.problem is not None):  # after: a row still indexes self.entries
            row = QListWidgetItem(f"Not restorable: {bad.title}: {bad.problem}")
            row.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(row)
        if self.entries:
            self.list.setCurrentRow(0)
        self.restore_button.setEnabled(bool(self.entries))
        if not items:
            self.list.addItem(QListWidgetItem("Nothing deleted from daycare-gui is kept here."))
            self.list.item(0).setFlags(Qt.ItemFlag.NoItemFlags)

    def restore_selected(self) -> None:
        row = self.list.currentRow()
        if not 0 <= row < len(self.entries):
            return
        item = self.entries[row]
        reason = self.trash.restore_blocked(item)
        if reason and not (self.ask or self.confirm_engine_running)(reason):
            return
        try:
            self.own(lambda: self.trash.restore(item, force=bool(reason)))
        except (WriteRefused, ValueError, OSError) as exc:
            QMessageBox.warning(self, "Not restored", str(exc))
            self.reload()
            return
        self.reload()
        if self.on_restored is not None:
            self.on_restored()
