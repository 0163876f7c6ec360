"""Shown when no store is open: Open…, Open demo, and recent stores."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from daycare_gui.stores.common.secrets import mask_url


class WelcomePage(QWidget):
    open_requested = Signal()
    demo_requested = Signal()
    recent_requested = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("welcome")
        layout = QVBoxLayout(self)
        layout.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel("<h1>daycare-gui</h1><p>See and safely change everything in an agent's store: Daycare and other agent systems.</p>")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(title)
        self.open_button = QPushButton("Open Data Directory…")
        self.demo_button = QPushButton("Open Demo Store")
        self.open_button.clicked.connect(self.open_requested)
        self.demo_button.clicked.connect(self.demo_requested)
        for b in (self.open_button, self.demo_button):
            b.setMinimumWidth(260)
            layout.addWidget(b, 0, Qt.AlignmentFlag.AlignHCenter)
        self.recent_label = QLabel("Recent")
        self.recent = QListWidget()
        self.recent.setMaximumWidth(520)
        self.recent.itemActivated.connect(
            lambda item: self.recent_requested.emit(item.data(Qt.ItemDataRole.UserRole)))
        layout.addWidget(self.recent_label, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addWidget(self.recent, 0, Qt.AlignmentFlag.AlignHCenter)
        # Why the last path did not open: every kind tried and why each declined.
        self.declined = QLabel("")
        self.declined.setObjectName("declined")
        self.declined.setTextFormat(Qt.TextFormat.PlainText)
        self.declined.setWordWrap(True)
        self.declined.setMaximumWidth(640)
        self.declined.setVisible(False)
        layout.addWidget(self.declined, 0, Qt.AlignmentFlag.AlignHCenter)
        hint = QLabel("You can also drop a folder on this window.")
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(hint)

    def show_declined(self, text: str) -> None:
        self.declined.setText(text)
        self.declined.setVisible(bool(text))

    def set_recent(self, paths: list[str]) -> None:
        """Each store shown with any password in it masked; activating one opens it as remembered."""
        self.recent.clear()
        for path in paths:
            item = QListWidgetItem(mask_url(path))
            item.setData(Qt.ItemDataRole.UserRole, path)
            self.recent.addItem(item)
        self.recent_label.setVisible(bool(paths))
        self.recent.setVisible(bool(paths))
