"""The choice shown when a save finds the file changed on disk: reload, look at the diff, or overwrite."""

from __future__ import annotations

import difflib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout

from .fields import monospace_editor


def unified_diff(disk: bytes | None, mine: bytes, name: str) -> str:
    """What would change on disk if yours were written over it."""
    old = (disk or b"").decode("utf-8", errors="replace").splitlines(keepends=True)
    new = mine.decode("utf-8", errors="replace").splitlines(keepends=True)
    text = "".join(difflib.unified_diff(old, new, f"{name} (on disk)", f"{name} (yours)"))
    return text or "(no differences)"


class ConflictDialog(QDialog):
    """``choice`` is "reload", "overwrite" or "cancel" after ``exec()``; Enter and Escape mean "cancel"."""

    def __init__(self, path, disk: bytes | None, mine: bytes, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("File changed on disk")
        self.choice = "cancel"
        layout = QVBoxLayout(self)
        if disk is None:
            what = f"{path} was deleted since you opened it."
        else:
            what = f"{path} was changed by another program since you opened it."
        label = QLabel(what + "\n\nCancel keeps your edits here and writes nothing; Reload discards your changes; "
                       "Overwrite replaces the other version with yours.")
        label.setWordWrap(True)
        layout.addWidget(label)
        self.diff_view = monospace_editor()
        self.diff_view.setReadOnly(True)
        self.diff_view.setPlainText(unified_diff(disk, mine, path.name))
        self.diff_view.hide()
        layout.addWidget(self.diff_view, 1)
        # Enter must never overwrite (issue 18): only Cancel (keep editing, nothing written) is a default
        # button. The others are not auto-default, so a focused Overwrite ignores Enter; it takes a click,
        # Space on purpose, or its mnemonic (Alt+O).
        buttons = QDialogButtonBox(self)
        self.reload_button = QPushButton("&Reload")
        self.diff_button = QPushButton("Show &diff")
        self.overwrite_button = QPushButton("&Overwrite")
        buttons.addButton(self.reload_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(self.diff_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.overwrite_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button = buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setText("Cancel (keep editing)")
        for button in (self.reload_button, self.diff_button, self.overwrite_button):
            button.setAutoDefault(False)
            button.setDefault(False)
        layout.addWidget(buttons)
        self.cancel_button.setDefault(True)  # now that the button is inside the dialog, QDialog records it
        self.reload_button.clicked.connect(lambda: self._choose("reload"))
        self.overwrite_button.clicked.connect(lambda: self._choose("overwrite"))
        self.diff_button.clicked.connect(self._show_diff)
        buttons.rejected.connect(self.reject)
        self.resize(640, 200)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.cancel_button.setDefault(True)
        self.cancel_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def _show_diff(self) -> None:
        self.diff_view.show()
        self.diff_button.setEnabled(False)
        self.resize(self.width(), 520)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()


class DiffDialog(QDialog):
    def __init__(self, title: str, text: str, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        view = monospace_editor()
        view.setReadOnly(True)
        view.setPlainText(text)
        layout.addWidget(view)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(700, 500)
