"""Checks and repairs a kind offers: each says what it does and whether it writes, and runs on the worker."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QMessageBox, QPushButton, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.edit_form import save_with_consent

ActionRole = 0x0100 + 1


class ActionsPane(Pane):
    has_details = False  # nothing here is shown in the Details dock
    pane_id = "actions"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Actions = ctx.opened.capability(api.Actions)
        layout = QVBoxLayout(self)
        self.list = QListWidget()
        self.about = QLabel("")
        self.about.setWordWrap(True)
        self.run_button = QPushButton("Run")
        self.run_button.setEnabled(False)
        self.result = QLabel("")
        self.result.setWordWrap(True)
        for w in (self.list, self.about, self.run_button, self.result):
            layout.addWidget(w)
        self.list.currentItemChanged.connect(self._selected)
        self.run_button.clicked.connect(self._run)

    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("generic-actions", cap.actions, on_result=self._arrived)

    def _arrived(self, actions) -> None:
        self.list.clear()
        for a in actions:
            item = QListWidgetItem(a.title + ("  (writes)" if a.writes else ""))
            item.setData(ActionRole, a)
            self.list.addItem(item)

    def _selected(self, current, _previous) -> None:
        action = current.data(ActionRole) if current is not None else None
        self.about.setText(action.description if action else "")
        self.run_button.setEnabled(action is not None)

    def _run(self) -> None:
        item = self.list.currentItem()
        if item is None:
            return
        action, cap = item.data(ActionRole), self.cap
        if action.writes and QMessageBox.question(self, action.title, f"{action.description}\n\nRun it now?") \
                != QMessageBox.StandardButton.Yes:
            return
        self.result.setText("Running…")
        save_with_consent(self, self.ctx.worker, "generic-action",
                          lambda force: cap.run(action.id, force=force), self.result.setText)
