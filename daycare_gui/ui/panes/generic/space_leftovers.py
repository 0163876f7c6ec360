"""Storage → Space, its last row: daycare-gui's own leftovers around the store and in its cache (backups
beyond the newest N of each file, working copies of killed writers, search indexes and kept answers of
stores that are gone), looked for when the page opens, listed in the tree as a group of their own with
their bytes, and removed after a question — only what the list named and the same rule still names.

Everything runs through ``api.Storage`` (``leftovers_preview``/``remove_leftovers``) on the worker; no
file is looked at here.
"""

from __future__ import annotations

import importlib

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTreeWidgetItem,
    QWidget,
)

from daycare_gui.stores import api
from daycare_gui.stores.records import PruneDone, PrunePreview

LOOK, REMOVE = "storage-leftovers", "storage-leftovers-remove"
GROUP = "daycare-gui's own leftovers"


class LeftoversRow(QWidget):
    def __init__(self, ctx, storage: api.Storage, tree, line_cells, human, parent=None) -> None:
        super().__init__(parent)
        self.ctx, self.storage, self.tree = ctx, storage, tree
        self._cells, self._human = line_cells, human
        self.preview: PrunePreview | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.text = QLabel("Looking for daycare-gui's own leftovers…")
        self.text.setWordWrap(True)
        self.text.setObjectName("leftoversText")
        row.addWidget(self.text, 1)
        row.addWidget(QLabel("keep the newest"))
        self.keep = QSpinBox()
        self.keep.setRange(1, 1000)
        self.keep.setValue(3)
        self.keep.setSuffix(" backups of each file")
        self.keep.valueChanged.connect(lambda _v: self.look())
        row.addWidget(self.keep)
        self.remove_button = QPushButton("Remove…")
        self.remove_button.setObjectName("leftoversRemove")
        self.remove_button.setToolTip("Only daycare-gui's own files: never the store's")
        self.remove_button.setEnabled(False)
        self.remove_button.clicked.connect(self.ask_remove)
        row.addWidget(self.remove_button)

    def look(self) -> None:
        """The dry run, on the worker: what would go and its bytes."""
        keep = self.keep.value()
        self.remove_button.setEnabled(False)
        own_leftovers = importlib.import_module("daycare_gui.stores.common.own_leftovers")  # (GUI thread, not a worker)
        importlib.import_module("daycare_gui.stores.common.search_index")
        storage = self.storage
        self.ctx.worker.submit(LOOK, lambda: own_leftovers.preview(storage, keep), on_result=self._found,
                               on_error=lambda msg: self.text.setText(f"Cannot look for leftovers: {msg}"))

    def _found(self, preview: PrunePreview) -> None:
        self.preview = preview
        self._show(preview.dropped)
        self.remove_button.setEnabled(bool(preview.dropped))
        self.text.setText(preview.summary if preview.dropped else
                          "No leftovers of daycare-gui's own: nothing beyond the newest backups of each file.")

    def _show(self, lines) -> None:
        """The files that would go, as the tree's last group (replacing the one shown before)."""
        for i in range(self.tree.topLevelItemCount()):
            if self.tree.topLevelItem(i).text(0).startswith(GROUP):
                self.tree.takeTopLevelItem(i)
                break
        if not lines:
            return
        group = QTreeWidgetItem([f"{GROUP} ({len(lines)})", self._human(sum(x.bytes for x in lines))])
        group.addChildren([QTreeWidgetItem(self._cells(line)) for line in lines])
        self.tree.addTopLevelItem(group)
        group.setExpanded(True)

    def ask_remove(self) -> None:
        preview = self.preview
        if preview is None or not preview.dropped:
            return
        answer = QMessageBox.question(
            self, "Remove daycare-gui's leftovers",
            f"{preview.summary}\n\nOnly files daycare-gui made are removed; the newest {self.keep.value()} backups "
            "of each file stay to undo from.",
            QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Ok:
            self.remove(preview)

    def remove(self, preview: PrunePreview) -> None:
        keep = self.keep.value()
        self.remove_button.setEnabled(False)
        self.text.setText("Removing…")
        own_leftovers = importlib.import_module("daycare_gui.stores.common.own_leftovers")  # (imported by look)
        storage = self.storage
        self.ctx.worker.submit(REMOVE, lambda: own_leftovers.remove_for(storage, keep, preview),
                               on_result=self._removed,
                               on_error=lambda msg: self.text.setText(f"Nothing removed: {msg}"))

    def _removed(self, done: PruneDone) -> None:
        self.preview = None
        self._show(())
        self.text.setText(done.summary)
