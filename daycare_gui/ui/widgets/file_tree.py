"""A lazy tree over a store's Files roots: a folder is listed (on the worker) only when it is expanded.

Roots can hold anything (downloads, checked-out code), so nothing below one is read up front; the store
caps each listing and says so on a line of its own.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QStyle

from daycare_gui.stores.records import FileEntry, FileRoot
from daycare_gui.ui.formats import date_time_of
from daycare_gui.ui.models.columns import fmt_int
from daycare_gui.ui.models.roles import KeyRole, RecordRole, SortRole, StateRole

_ids = itertools.count(1)
HEADERS = ("Name", "Size", "Modified")


@dataclass(eq=False)
class Node:
    root_id: str
    rel: str
    name: str
    kind: str  # "root", "dir", "file" or "note" (a "… more" or error line)
    parent: Node | None = None
    entry: FileEntry | FileRoot | None = None
    children: list[Node] | None = None  # None until listed
    loading: bool = False
    label: str = ""
    uid: int = field(default_factory=lambda: next(_ids))

    @property
    def is_folder(self) -> bool:
        return self.kind in ("root", "dir")

    def row(self) -> int:
        return self.parent.children.index(self) if self.parent is not None else 0


class FileTreeModel(QAbstractItemModel):
    def __init__(self, worker, files, parent=None) -> None:
        super().__init__(parent)
        self._worker = worker
        self._files = files  # the store's Files capability
        self._channel = f"file-tree-{next(_ids)}"  # one worker channel for every listing of this model
        self._top: list[Node] = []

    def set_roots(self, roots: list[FileRoot]) -> None:
        self._worker.cancel(self._channel)  # listings of the old nodes are not wanted any more
        self.beginResetModel()
        self._top = [Node(r.id, "", r.id, "root", entry=r, label=r.title) for r in roots]
        self.endResetModel()

    def node(self, index: QModelIndex) -> Node | None:
        return index.internalPointer() if index.isValid() else None

    def index_of(self, node: Node, column: int = 0) -> QModelIndex:
        row = node.row() if node.parent is not None else self._top.index(node)
        return self.createIndex(row, column, node)

    def top_nodes(self) -> list[Node]:
        return list(self._top)

    def find_root(self, target: str) -> QModelIndex:
        """A root by id, owner, title or path (a user id names that user's home)."""
        for node in self._top:
            r = node.entry
            if target in (r.id, r.owner, r.title, str(r.path or "")) or r.id.endswith(f":{target}"):
                return self.index_of(node)
        return QModelIndex()

    def child_named(self, parent: QModelIndex, name: str) -> QModelIndex:
        node = self.node(parent)
        for child in (node.children or []) if node else []:
            if child.name == name:
                return self.index_of(child)
        return QModelIndex()

    # -- lazy listing ------------------------------------------------------------------------------
    def canFetchMore(self, parent: QModelIndex) -> bool:  # noqa: N802 (Qt override)
        node = self.node(parent)
        return node is not None and node.is_folder and node.children is None and not node.loading

    def fetchMore(self, parent: QModelIndex) -> None:  # noqa: N802 (Qt override)
        node = self.node(parent)
        if node is None or not self.canFetchMore(parent):
            return
        node.loading = True
        files, root_id, rel = self._files, node.root_id, node.rel
        self._worker.submit(self._channel, lambda: files.children(root_id, rel), supersede=False,
                            on_result=lambda entries: self._listed(node, entries),
                            on_error=lambda msg: self._listed(node, [FileEntry("", rel, False, problem=msg)]))

    def _listed(self, node: Node, entries: list[FileEntry]) -> None:
        if node.children is not None:
            return  # listed already: replacing the children would leave Qt holding indexes of freed nodes
        children = [Node(node.root_id, e.rel, e.problem or e.name, "note" if e.problem else
                         ("dir" if e.is_dir else "file"), node, e) for e in entries]
        if node.parent is None and node not in self._top:
            return  # the model was reset while listing
        parent_index = self.index_of(node)
        # ``loading`` stays set until the children are in: a canFetchMore() asked meanwhile must not start
        # a second listing of this folder.
        if children:
            self.beginInsertRows(parent_index, 0, len(children) - 1)
            node.children = children
            self.endInsertRows()
        else:
            node.children = []
            self.dataChanged.emit(parent_index, parent_index)  # the expand arrow goes away
        node.loading = False

    def is_listed(self, index: QModelIndex) -> bool:
        node = self.node(index)
        return node is not None and node.children is not None

    # -- Qt model API ------------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        siblings = self._top if not parent.isValid() else (self.node(parent).children or [])
        return self.createIndex(row, column, siblings[row])

    def parent(self, index: QModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        node = self.node(index)
        if node is None or node.parent is None:
            return QModelIndex()
        return self.index_of(node.parent)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        if parent.column() > 0:
            return 0
        if not parent.isValid():
            return len(self._top)
        return len(self.node(parent).children or [])

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return len(HEADERS)

    def hasChildren(self, parent: QModelIndex = QModelIndex()) -> bool:  # noqa: N802
        if not parent.isValid():
            return bool(self._top)
        if parent.column() > 0:
            return False
        node = self.node(parent)
        return node.is_folder and (node.children is None or bool(node.children))

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < 3:
            return HEADERS[section]
        return None

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        node = self.node(index)
        if node is None:
            return None
        col = index.column()
        entry = node.entry if node.kind in ("dir", "file") else None
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return node.label or node.name
            if col == 1 and entry is not None and entry.size is not None:
                return fmt_int(entry.size)
            if col == 2 and entry is not None and entry.mtime is not None:
                from datetime import datetime

                return date_time_of(datetime.fromtimestamp(entry.mtime))
            return "" if col else None
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            icon = {"root": QStyle.StandardPixmap.SP_DirHomeIcon, "dir": QStyle.StandardPixmap.SP_DirIcon,
                    "file": QStyle.StandardPixmap.SP_FileIcon,
                    "note": QStyle.StandardPixmap.SP_MessageBoxInformation}[node.kind]
            return QApplication.style().standardIcon(icon)
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(entry, FileEntry) and entry.link and entry.link != "inside":
                return f"{node.rel}: a link that {entry.link}"
            return node.rel or node.label
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == RecordRole:
            return node
        if role == KeyRole:
            return f"{node.root_id}/{node.rel}"
        if role == SortRole:
            return node.name.lower()
        if role == StateRole:
            if node.kind == "note" or (isinstance(entry, FileEntry) and entry.link not in ("", "inside")):
                return "error"
            return None
        return None
