"""A thin message bar above the panes: "the store changed on disk — Refresh"."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from daycare_gui.ui.theme import take_app_style


class Banner(QFrame):
    action_clicked = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        take_app_style(self)  # tinted from the palette by kind
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 6, 4)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.button = QPushButton()
        self.button.clicked.connect(self.action_clicked)
        close = QPushButton("Dismiss")
        close.setFlat(True)
        close.clicked.connect(self.hide)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.button)
        layout.addWidget(close)
        self.hide()

    def show_message(self, text: str, action: str = "Refresh", kind: str = "info") -> None:
        self.setProperty("kind", kind)
        self.style().unpolish(self)
        self.style().polish(self)
        self.label.setText(text)
        self.button.setText(action)
        self.button.setVisible(bool(action))
        self.show()
