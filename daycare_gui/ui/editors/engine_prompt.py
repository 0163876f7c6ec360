"""The questions a file write of the window asks: while Daycare's engine runs on the store, and when a kind refused.

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


def ask_write_refused(parent, reason: str, verb: str = "Save") -> bool:
    """True when the user insists on a write the store's kind refused: ``reason`` is the refusal's own text
    (every reason at once: its bot runs, a file the system would skip), so the one yes skips only what
    was said."""
    box = QMessageBox(QMessageBox.Icon.Warning, "Write refused", f"{reason}\n\n{verb} anyway?", parent=parent)
    anyway = box.addButton(f"{verb} anyway", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.setEscapeButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is anyway
