"""Files beside a store, for any kind offering Files: each root a lazy tree (a folder is listed only when
opened), Markdown shown rendered, other text as text (its head, or a log's end), binary files by name and
size only. A folder that is a store of its own (a user's database) opens as one."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSplitter, QTreeView, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.records import FileEntry, FilePreview, FileRoot
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import fmt_int
from daycare_gui.ui.models.roles import RecordRole
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.document_viewer import DocumentViewer
from daycare_gui.ui.widgets.file_tree import FileTreeModel, Node
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.record_table import StateDelegate
from daycare_gui.ui.widgets.tables import ColumnFitter

PREVIEW_LIMIT = 256 * 1024  # the head of a text file shown
TAIL_SUFFIXES = (".log",)  # shown from their end: what a process wrote last


def node_detail(node: Node) -> DetailItem:
    entry = node.entry
    if isinstance(entry, FileRoot):
        fields = (("Folder", entry.title), ("Owner", entry.owner), ("Path", str(entry.path or "")),
                  ("About", entry.note))
        return DetailItem(entry.title, tuple((k, v) for k, v in fields if v))
    fields = [("Name", node.name), ("Path", node.rel)]
    if isinstance(entry, FileEntry):
        fields += [("Kind", "folder" if entry.is_dir else "file"),
                   ("Size", fmt_int(entry.size) if entry.size is not None else "")]
        if entry.link:
            fields.append(("Link", "leads inside the folder" if entry.link == "inside" else entry.link))
        if entry.note:
            fields.append(("Note", entry.note))
        if entry.opens_as:
            fields.append(("Opens as", "a store of its own (Open as store)"))
    return DetailItem(node.name, tuple((k, v) for k, v in fields if v))


class FilesPane(Pane):
    pane_id = "files"
    title = "Files"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.cap: api.Files = ctx.opened.capability(api.Files)
        layout = QVBoxLayout(self)
        self.filter_box = FilterBox("Filter folders and listed entries by name (Ctrl+F)")
        layout.addWidget(self.filter_box)
        bar = QHBoxLayout()
        self.open_button = QPushButton("Open as store")
        self.open_button.setEnabled(False)
        self.open_button.setToolTip("Open the selected folder (a user's database) in this window")
        bar.addStretch(1)
        bar.addWidget(self.open_button)
        layout.addLayout(bar)
        self.model = FileTreeModel(ctx.worker, self.cap, self)
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
        self.fitter = ColumnFitter(self.tree, stretch=0, samples={1: "9,999,999", 2: "2026-12-31 23:59"})
        self.viewer = DocumentViewer()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.viewer)
        split.setSizes([620, 380])
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        layout.addWidget(split, 1)
        self.summary = QLabel("Loading…")
        layout.addWidget(self.summary)
        self.setTabOrder(self.filter_box, self.tree)
        self.filter_box.changed.connect(self.proxy.setFilterFixedString)
        self.tree.selectionModel().currentChanged.connect(self._selected)
        self.tree.activated.connect(lambda i: self.tree.setExpanded(i, not self.tree.isExpanded(i)))
        self.open_button.clicked.connect(self._open_as_store)
        self._pending = None
        self._loaded = False
        self._opens: str | None = None

    def load(self) -> None:
        cap = self.cap
        self.ctx.worker.submit("files-roots", cap.roots, on_result=self._arrived,
                               on_error=lambda msg: self.summary.setText(f"Could not list the folders: {msg}"))

    def _arrived(self, roots: list[FileRoot]) -> None:
        self.model.set_roots(roots)
        self._loaded = True
        self.summary.setText(f"{count(len(roots), 'folder')} — expand one to list it")
        self.ctx.set_count(self.pane_id, len(roots))
        self.fitter.fit()
        target, self._pending = self._pending, None
        if target is not None:
            self.open_item(target)

    # -- selection -------------------------------------------------------------------------------
    def current_node(self) -> Node | None:
        index = self.tree.currentIndex()
        return index.data(RecordRole) if index.isValid() else None

    def _selected(self, current, _previous) -> None:
        node = current.data(RecordRole) if current.isValid() else None
        if node is None:
            return
        self.ctx.show_detail(node_detail(node))
        entry = node.entry
        self._opens = entry.opens_as if isinstance(entry, FileEntry) else None
        self.open_button.setEnabled(bool(self._opens))
        if node.kind == "file":
            self.show_file(node)
        elif node.kind == "root":
            self.viewer.show_message(entry.title, entry.note or "Expand it to list its contents.")
        elif node.kind == "dir":
            words = ("A store of its own: Open as store shows it." if self._opens
                     else "Folder — expand it (→ or double-click) to list its contents.")
            self.viewer.show_message(node.name, words)
        else:
            self.viewer.show_message(node.name, node.name)

    def show_file(self, node: Node) -> None:
        cap, root_id, rel = self.cap, node.root_id, node.rel
        tail = rel.lower().endswith(TAIL_SUFFIXES)
        self.viewer.show_message(node.name, "Reading…")
        self.ctx.worker.submit("files-preview", lambda: cap.preview(root_id, rel, PREVIEW_LIMIT, tail),
                               on_result=lambda p, n=node: self._preview_arrived(n, p),
                               on_error=lambda msg: self.viewer.show_message(node.name, msg))

    def _preview_arrived(self, node: Node, preview: FilePreview) -> None:
        current = self.current_node()
        if current is not None and current is not node:
            return  # another file was chosen meanwhile
        size = f"{preview.size:,} bytes" if preview.size is not None else ""
        note = " · ".join(p for p in (preview.rel, size, preview.note) if p)
        if preview.format == "markdown":
            self.viewer.show_markdown(node.name, preview.text, note, preview.rel)
        elif preview.format == "text":
            self.viewer.show_text(node.name, preview.text, note, preview.rel)
        else:
            self.viewer.show_message(node.name, preview.note or "not shown", note, preview.rel)

    def _open_as_store(self) -> None:
        opens, window = self._opens, self.window()
        if opens and hasattr(window, "open_path"):
            window.open_path(opens)

    # -- pane API ----------------------------------------------------------------------------------
    def open_item(self, target) -> None:
        """``target``: a root's id, owner or path (a user id: their home is selected and expanded)."""
        if not self._loaded:
            self._pending = target
            return
        if isinstance(target, tuple):  # Link("files", (root_id, rel)): the root
            target = target[0]
        source = self.model.find_root(str(target))
        if not source.isValid():
            return
        self.filter_box.clear()
        self.proxy.setFilterFixedString("")
        index = self.proxy.mapFromSource(source)
        self.tree.setCurrentIndex(index)
        self.tree.expand(index)
        self.tree.scrollTo(index)
        self.tree.setFocus()
