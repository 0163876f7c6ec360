"""A lazy tree over the users' home folders: a folder is listed (in the worker) only when expanded.

Homes can hold anything (downloads, checked-out code), so nothing below a home is read up front; each
listing is capped by :func:`daycare_gui.core.file_preview.list_folder`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QStyle

from daycare_gui.core.file_preview import FolderListing, list_folder
from daycare_gui.core.files.homes import HomeEntry
from daycare_gui.ui.formats import date_time_of
from daycare_gui.ui.models.columns import fmt_int
from daycare_gui.ui.models.roles import KeyRole, RecordRole, SortRole, StateRole

_ids = itertools.count(1)


@dataclass(eq=False)
class Node:
    name: str
    path: str
    kind: str  # "home", "dir", "file" or "note" (a "… more" or error line)
    parent: Node | None = None
    entry: object = None  # HomeEntry for files and folders, UserHome for homes
    children: list[Node] | None = None  # None until listed
    loading: bool = False
    label: str = ""
    uid: int = field(default_factory=lambda: next(_ids))

    @property
    def is_folder(self) -> bool:
        return self.kind in ("home", "dir")

    def row(self) -> int:
        return self.parent.children.index(self) if self.parent is not None else 0


HEADERS = ("Name", "Size", "Modified")


class HomeTreeModel(QAbstractItemModel):
    def __init__(self, worker, root, parent=None) -> None:
        super().__init__(parent)
        self._worker = worker
        self._channel = f"home-tree-{next(_ids)}"  # one worker channel for every listing of this model
        self._root_guard = root  # DaycarePaths: listings never leave the data dir
        self._top: list[Node] = []

    # -- feeding -----------------------------------------------------------------------------------
    def set_homes(self, homes, names: dict[str, str], global_knowledge=(), data_dir: str = "") -> None:
        """``global_knowledge``: KnowledgeFile records of the legacy ``<dataDir>/<NAME>.md`` files, shown
        under one already-listed node (the data dir itself is not browsed)."""
        self._worker.cancel(self._channel)  # listings of the old nodes are not wanted any more
        self.beginResetModel()
        self._top = []
        for home in homes:
            who = names.get(home.user_id)
            label = f"{who} — {home.user_id}" if who else home.user_id
            self._top.append(Node(home.user_id, home.home, "home", entry=home, label=label))
        self._top.sort(key=lambda n: n.label.lower())
        if global_knowledge:
            group = Node("knowledge", data_dir, "dir", label="Data dir knowledge files (legacy, shared)", children=[])
            for k in global_knowledge:
                entry = HomeEntry(k.name, k.path, k.size, k.mtime, False, False)
                group.children.append(Node(k.name, k.path, "file", group, entry))
            self._top.append(group)
        self.endResetModel()

    def node(self, index: QModelIndex) -> Node | None:
        return index.internalPointer() if index.isValid() else None

    def index_of(self, node: Node, column: int = 0) -> QModelIndex:
        row = node.row() if node.parent is not None else self._top.index(node)
        return self.createIndex(row, column, node)

    def top_nodes(self) -> list[Node]:
        return list(self._top)

    def find_home(self, user_id: str) -> QModelIndex:
        for node in self._top:
            if node.name == user_id or node.path == user_id:
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
        path, root = node.path, self._root_guard
        self._worker.submit(self._channel, lambda: list_folder(path, root=root), supersede=False,
                            on_result=lambda listing: self._listed(node, listing),
                            on_error=lambda msg: self._listed(node, None, msg))

    def _listed(self, node: Node, listing: FolderListing | None, error: str | None = None) -> None:
        if node.children is not None:
            return  # listed already: replacing the children would leave Qt holding indexes of freed nodes
        children: list[Node] = []
        if listing is not None:
            for e in listing.entries:
                children.append(Node(e.name, e.path, "dir" if e.is_dir else "file", node, e))
            if listing.more:
                children.append(Node(f"… {listing.more:,} more entries not listed", node.path, "note", node))
            for p in listing.problems:
                children.append(Node(p.message, p.path, "note", node))
        else:
            children.append(Node(f"cannot list: {error}", node.path, "note", node))
        if node.parent is None and node not in self._top:
            return  # the model was reset while listing
        parent_index = self.index_of(node)
        # ``loading`` stays set until the children are in: views and proxies react to the insert signals,
        # and a canFetchMore() asked meanwhile must not start a second listing of this folder.
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
            icon = {"home": QStyle.StandardPixmap.SP_DirHomeIcon, "dir": QStyle.StandardPixmap.SP_DirIcon,
                    "file": QStyle.StandardPixmap.SP_FileIcon,
                    "note": QStyle.StandardPixmap.SP_MessageBoxInformation}[node.kind]
            return QApplication.style().standardIcon(icon)
        if role == Qt.ItemDataRole.ToolTipRole:
            return node.path
        if role == Qt.ItemDataRole.TextAlignmentRole and col == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == RecordRole:
            return node
        if role == KeyRole:
            return node.path
        if role == SortRole:
            return node.name.lower()
        if role == StateRole:
            return "error" if node.kind == "note" else None
        return None
