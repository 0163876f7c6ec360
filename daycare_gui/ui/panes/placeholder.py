"""Shown for a section whose pane failed to load, so one broken pane never takes the window down."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout

from daycare_gui.ui.panes.base import Pane


def placeholder_for(spec):
    class PlaceholderPane(Pane):
        pane_id = spec.id
        title = spec.title

        def __init__(self, ctx, parent=None):
            super().__init__(ctx, parent)
            layout = QVBoxLayout(self)
            label = QLabel(f"<h3>{spec.title}</h3><p>This section is not available in this build.</p>")
            label.setWordWrap(True)
            layout.addWidget(label)
            layout.addStretch(1)

    return PlaceholderPane
