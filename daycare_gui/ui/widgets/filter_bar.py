"""A search box that filters the pane it sits in (Ctrl+F focuses it); emits after a short pause."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLineEdit


class FilterBox(QLineEdit):
    changed = Signal(str)

    def __init__(self, placeholder: str = "Filter (Ctrl+F)", parent=None, delay_ms: int = 250) -> None:
        super().__init__(parent)
        self.setPlaceholderText(placeholder)
        self.setClearButtonEnabled(True)
        self._timer = QTimer(self, singleShot=True, interval=delay_ms)
        self._timer.timeout.connect(lambda: self.changed.emit(self.text()))
        self.textChanged.connect(lambda _t: self._timer.start())

    def cancel_pending(self) -> None:
        """Drop the delayed ``changed`` for what was typed (the caller acts on the text right now)."""
        self._timer.stop()
