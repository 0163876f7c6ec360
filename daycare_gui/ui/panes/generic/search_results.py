"""The shared search's results as a tree: thread → session → matching message. It runs no query."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt

from daycare_gui.stores.common.search_query import SessionHits, SourceHit, SourceResults, ThreadHits
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.roles import RecordRole, SortRole
from daycare_gui.ui.panes.generic.common import plural
from daycare_gui.ui.widgets.snippet import snippet_plain

HEADERS = ("Match", "Role", "When")


def result_key(item) -> tuple | None:
    """What identifies a row across two searches (the objects themselves are new each time)."""
    if isinstance(item, SourceHit):
        return ("hit", item.ref, item.message_id)
    if isinstance(item, SessionHits):
        return ("session", item.ref)
    if isinstance(item, ThreadHits):
        return ("thread", item.thread_id)
    return None


class _Node:
    __slots__ = ("item", "parent", "row", "children")

    def __init__(self, item, parent: _Node | None, row: int) -> None:
        self.item = item
        self.parent = parent
        self.row = row
        self.children: list[_Node] = []


class SourceResultsModel(QAbstractItemModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._root = _Node(None, None, 0)

    def set_results(self, results: SourceResults | None) -> None:
        self.beginResetModel()
        self._root = _Node(None, None, 0)
        for group in (results.groups if results is not None else []):
            t = _Node(group, self._root, len(self._root.children))
            self._root.children.append(t)
            for session in group.sessions:
                s = _Node(session, t, len(t.children))
                t.children.append(s)
                s.children = [_Node(hit, s, i) for i, hit in enumerate(session.hits)]
        self.endResetModel()

    def index_of(self, key: tuple) -> QModelIndex:
        """The row whose :func:`result_key` is ``key``, or an invalid index."""
        stack = list(self._root.children)
        while stack:
            node = stack.pop()
            if result_key(node.item) == key:
                return self.createIndex(node.row, 0, node)
            stack.extend(node.children)
        return QModelIndex()

    def item(self, index: QModelIndex):
        """The ThreadHits, SessionHits or SourceHit at ``index`` (None for an invalid index)."""
        return index.internalPointer().item if index.isValid() and index.model() is self else None

    def snippet_at(self, index: QModelIndex) -> str | None:
        """For the snippet delegate: a hit's snippet in the first column."""
        item = self.item(index)
        return item.snippet if isinstance(item, SourceHit) and index.column() == 0 else None

    def _node(self, index: QModelIndex) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    def index(self, row, column, parent=QModelIndex()):
        if column < 0 or column >= len(HEADERS) or (parent.isValid() and parent.column() != 0):
            return QModelIndex()
        node = self._node(parent)
        if not 0 <= row < len(node.children):
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index=QModelIndex()):
        if not index.isValid():
            return QModelIndex()
        up = index.internalPointer().parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent=QModelIndex()):  # noqa: N802 (Qt API)
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent=QModelIndex()):  # noqa: N802
        return len(HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        item, col = index.internalPointer().item, index.column()
        if role == RecordRole:
            return item
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return _text(item, col, tooltip=role == Qt.ItemDataRole.ToolTipRole)
        if role == SortRole and isinstance(item, SourceHit):
            return item.at if col == 2 else item.seq
        return None


def _text(item, col: int, tooltip: bool) -> str | None:
    if isinstance(item, ThreadHits):
        if col != 0:
            return None
        label = f"{item.title} — {plural(item.hit_count, 'match', 'matches')} in {plural(len(item.sessions), 'session')}"
        return f"{label}\n{item.thread_id}" if tooltip else label
    if isinstance(item, SessionHits):
        return f"Session {item.ref.session_id} — {plural(len(item.hits), 'match', 'matches')}" if col == 0 else None
    if col == 0:
        return snippet_plain(item.snippet)
    if col == 1:
        return item.role + (f" · {item.kind}" if item.kind and item.kind != item.role else "")
    return fmt_time(item.at) if item.at is not None else ""
