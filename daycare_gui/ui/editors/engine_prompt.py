"""The one question every file write of the window asks while Daycare's engine runs on the store.

Whether the engine runs, and what to say about it, is core.edit.engine_guard's answer; this only asks.
Cancel is the default (Enter or Escape keep the file as it is): writing takes a click on "… anyway".
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox


def ask_write_while_engine_runs(parent, reason: str, verb: str = "Save") -> bool:
    """True when the user chose to write although ``reason`` (the engine runs…) says it is risky."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Daycare's engine is running",
                      f"{reason}.\n\nStopping the engine first is safer. {verb} anyway?", parent=parent)
    anyway = box.addButton(f"{verb} anyway", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is anyway
