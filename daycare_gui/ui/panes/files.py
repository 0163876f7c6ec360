"""Files: every user's home folder as a lazy tree; knowledge files shown as Markdown, other text files as
text (the first 256 KiB), binary files by name, size and type only. Nothing outside the data dir is read."""

from __future__ import annotations

import mimetypes

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QLabel, QSplitter, QStackedWidget, QTreeView, QVBoxLayout

from daycare_gui.core.file_preview import preview_file
from daycare_gui.core.files.homes import KNOWLEDGE_FILES
from daycare_gui.core.queries.names import user_names
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.editors.pane_actions import FileEditButton
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import fmt_int
from daycare_gui.ui.models.roles import RecordRole
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.document_viewer import DocumentViewer
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.home_tree import HomeTreeModel, Node
from daycare_gui.ui.widgets.record_table import StateDelegate
from daycare_gui.ui.widgets.tables import ColumnFitter


def _homes_and_names(store):
    inventory = store.files()
    homes = list(inventory.items("user_homes"))
    shared = [k for k in inventory.items("knowledge_files") if k.user_id is None]
    return homes, user_names(store), shared


def node_detail(node: Node) -> DetailItem:
    fields = [("Name", node.name), ("Path", node.path)]
    if node.kind == "home":
        home = node.entry
        fields += [("User", home.user_id), ("Standard folders", ", ".join(home.folders) or "(none)"),
                   ("Has skills", "yes" if home.has_skills else "no"), ("Has apps", "yes" if home.has_apps else "no")]
    elif node.entry is not None:
        e = node.entry
        fields += [("Kind", "folder" if e.is_dir else "file"), ("Size", fmt_int(e.size) if e.size is not None else ""),
                   ("Type", "" if e.is_dir else (mimetypes.guess_type(e.name)[0] or "unknown")),
                   ("Symlink", "yes" if e.is_symlink else "no")]
        if e.name in KNOWLEDGE_FILES:
            fields.append(("Knowledge file", "yes — agents read this file"))
    raw = node.entry.to_dict() if hasattr(node.entry, "to_dict") else None
    return DetailItem(node.label or node.name, tuple(fields), raw)


class FilesPane(Pane):
    pane_id = "files"
    title = "Files"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        self.filter_box = FilterBox("Filter homes and listed entries by name (Ctrl+F)")
        layout.addWidget(self.filter_box)
        self.model = HomeTreeModel(ctx.worker, ctx.store.paths, self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setRecursiveFilteringEnabled(True)
        self.proxy.setAutoAcceptChildRows(True)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.tree = QTreeView()
        self.tree.setModel(self.proxy)
        self.tree.setItemDelegate(StateDelegate(self.tree))
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        # Size and Modified as wide as their values, the name the rest (rows arrive as folders open, so
        # the widths come from typical values)
        self.fitter = ColumnFitter(self.tree, stretch=0, samples={1: "9,999,999", 2: "2026-12-31 23:59"})
        self.viewer = DocumentViewer()
        self.viewer_stack = QStackedWidget()  # an editor can be added beside the viewer later
        self.viewer_stack.addWidget(self.viewer)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.viewer_stack)
        split.setSizes([620, 380])  # the tree's three columns need more room than the preview
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        layout.addWidget(split, 1)
        self.summary = QLabel("Loading…")
        layout.addWidget(self.summary)
        self.setTabOrder(self.filter_box, self.tree)

        self.filter_box.changed.connect(self.proxy.setFilterFixedString)
        self.tree.selectionModel().currentChanged.connect(self._selected)
        self.tree.activated.connect(self._activated)
        self._pending = None
        self._loaded = False
        self.edit_button = FileEditButton(self)  # opens Markdown files in an editor
        layout.insertWidget(1, self.edit_button)

    def load(self) -> None:
        store = self.ctx.store
        self.ctx.worker.submit("files-homes", lambda: _homes_and_names(store), on_result=self._arrived,
                               on_error=lambda msg: self.summary.setText(f"Could not list homes: {msg}"))

    def _arrived(self, result) -> None:
        homes, names, shared = result
        self.model.set_homes(homes, names, shared, str(self.ctx.store.paths.data_dir))
        self._loaded = True
        self.summary.setText(f"{count(len(homes), 'user home')} — expand a folder to list it")
        self.fitter.fit()
        target, self._pending = self._pending, None
        if target is not None:
            self.open_item(target)

    # -- selection -------------------------------------------------------------------------------
    def _selected(self, current, _previous) -> None:
        node = current.data(RecordRole) if current.isValid() else None
        if node is None:
            return
        self.ctx.show_detail(node_detail(node))
        if node.kind == "file":
            self.show_document(node.path)
        elif node.kind == "home":
            home = node.entry
            self.viewer.show_message(node.label, f"Home folder {home.home}\n\nStandard folders: "
                                     f"{', '.join(home.folders) or 'none'}. Expand it to list its contents.",
                                     path=home.home)
        elif node.kind == "dir":
            self.viewer.show_message(node.name, "Folder — expand it (→ or double-click) to list its contents.",
                                     path=node.path)

    def _activated(self, index) -> None:
        self.tree.setExpanded(index, not self.tree.isExpanded(index))

    def show_document(self, path: str) -> None:
        root = self.ctx.store.paths
        self.viewer.show_message(path, "Reading…")
        self.ctx.worker.submit("files-document", lambda: preview_file(path, root=root),
                               on_result=self._document_arrived,
                               on_error=lambda msg: self.viewer.show_message(path, msg))

    def _document_arrived(self, preview) -> None:
        self.viewer_stack.setCurrentWidget(self.viewer)
        self.viewer.show_preview(preview)

    # -- pane API ----------------------------------------------------------------------------------
    def open_item(self, target) -> None:
        """``target``: a user id (their home is selected and expanded)."""
        if not self._loaded:
            self._pending = target
            return
        source = self.model.find_home(str(target))
        if not source.isValid():
            return
        self.filter_box.clear()
        self.proxy.setFilterFixedString("")
        index = self.proxy.mapFromSource(source)
        self.tree.setCurrentIndex(index)
        self.tree.expand(index)
        self.tree.scrollTo(index)
        self.tree.setFocus()
