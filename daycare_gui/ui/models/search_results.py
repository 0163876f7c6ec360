"""Search results as a tree — group (a thread) → session → hit, then the documents that matched — for the
Search page.

:class:`GroupedResultsModel` adapts a results object with ``groups``, each with ``sessions``, each with
``hits``; it runs no query. A subclass names its columns (``HEADERS``) and its hit types, and says how a row
reads (:meth:`text`), what identifies it across two searches (:meth:`result_key`) and how a hit sorts.
:class:`SourceResultsModel` is the shared index's (``stores.common.search_query``): threads and their
sessions, then one "Documents" group with a section per kind of document (skills, memory, prompt files,
settings), each hit saying where the document lives. :class:`SnippetDelegate` (``ui.widgets.snippet``)
draws the hits' snippets through :meth:`snippet_at`; it escapes everything and only then turns the index's
match markers into ``<b>``, so text from a store can never become markup.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt

from daycare_gui.stores.common.search_query import (
    DocumentGroup,
    DocumentHit,
    DocumentSection,
    SessionHits,
    SourceHit,
    ThreadHits,
    document_groups,
)
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.roles import KeyRole, RecordRole, SortRole
from daycare_gui.ui.widgets.snippet import snippet_plain


class _Node:
    __slots__ = ("item", "parent", "row", "children")

    def __init__(self, item, parent: _Node | None, row: int) -> None:
        self.item = item
        self.parent = parent
        self.row = row
        self.children: list[_Node] = []


class GroupedResultsModel(QAbstractItemModel):
    HEADERS: tuple[str, ...] = ()
    hit_type: type | tuple[type, ...] = object  # what a leaf row holds

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._root = _Node(None, None, 0)

    # -- what a subclass says --------------------------------------------------------------------------
    @staticmethod
    def result_key(item) -> tuple | None:
        """What identifies a row across two searches (the objects themselves are new each time)."""
        raise NotImplementedError

    @staticmethod
    def text(item, col: int, tooltip: bool) -> str | None:
        raise NotImplementedError

    @staticmethod
    def sort_value(hit, col: int):
        raise NotImplementedError

    @staticmethod
    def key(item):
        """``KeyRole``: none unless a subclass has one."""
        return None

    # -- results ---------------------------------------------------------------------------------------
    @staticmethod
    def groups_of(results) -> list:
        """The top-level rows for ``results`` (a subclass may add to its ``groups``)."""
        return list(results.groups) if results is not None else []

    def set_results(self, results) -> None:
        self.beginResetModel()
        self._root = _Node(None, None, 0)
        for group in self.groups_of(results):
            g = _Node(group, self._root, len(self._root.children))
            self._root.children.append(g)
            for session in group.sessions:
                s = _Node(session, g, len(g.children))
                g.children.append(s)
                s.children = [_Node(hit, s, i) for i, hit in enumerate(session.hits)]
        self.endResetModel()

    def index_of(self, key: tuple) -> QModelIndex:
        """The row whose :meth:`result_key` is ``key``, or an invalid index."""
        stack = list(self._root.children)
        while stack:
            node = stack.pop()
            if self.result_key(node.item) == key:
                return self.createIndex(node.row, 0, node)
            stack.extend(node.children)
        return QModelIndex()

    def item(self, index: QModelIndex):
        """The group, session or hit at ``index`` (None for an invalid index).

        The pane and the delegate use this rather than ``index.data(RecordRole)``: no QVariant round trip,
        and (PySide6 6.12 on Python 3.11) no binding call that hands back None, each of which drops a
        reference to None.
        """
        return index.internalPointer().item if index.isValid() and index.model() is self else None

    def snippet_at(self, index: QModelIndex) -> str | None:
        """For the snippet delegate: a hit's snippet in the first column."""
        item = self.item(index)
        return item.snippet if isinstance(item, self.hit_type) and index.column() == 0 else None

    def _node(self, index: QModelIndex) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    # -- structure -----------------------------------------------------------------------------------
    def index(self, row, column, parent=QModelIndex()):
        if column < 0 or column >= len(self.HEADERS) or (parent.isValid() and parent.column() != 0):
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
        return len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # -- data ----------------------------------------------------------------------------------------
    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        item, col = index.internalPointer().item, index.column()
        if role == RecordRole:
            return item
        if role == KeyRole:
            return self.key(item)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self.text(item, col, tooltip=role == Qt.ItemDataRole.ToolTipRole)
        if role == SortRole and isinstance(item, self.hit_type):
            return self.sort_value(item, col)
        return None


# -- the shared index's results ------------------------------------------------------------------------
SOURCE_HEADERS = ("Match", "Role", "When")


def result_key(item) -> tuple | None:
    """What identifies a row across two searches (the objects themselves are new each time)."""
    if isinstance(item, SourceHit):
        return ("hit", item.ref, item.message_id)
    if isinstance(item, SessionHits):
        return ("session", item.ref)
    if isinstance(item, ThreadHits):
        return ("thread", item.thread_id)
    if isinstance(item, DocumentHit):
        return ("document", item.key)
    if isinstance(item, DocumentSection):
        return ("documents", item.group)
    if isinstance(item, DocumentGroup):
        return ("documents",)
    return None


class SourceResultsModel(GroupedResultsModel):
    HEADERS = SOURCE_HEADERS
    hit_type = (SourceHit, DocumentHit)
    result_key = staticmethod(result_key)

    @staticmethod
    def groups_of(results) -> list:
        if results is None:
            return []
        documents = document_groups(getattr(results, "documents", []))
        return list(results.groups) + ([documents] if documents is not None else [])

    def snippet_at(self, index: QModelIndex) -> str | None:
        item = self.item(index)
        if isinstance(item, DocumentHit) and index.column() == 0:
            return f"{item.title} — {item.snippet}"  # (escaped by the delegate, the title with the rest)
        return super().snippet_at(index)

    @staticmethod
    def sort_value(hit, col: int):
        if isinstance(hit, DocumentHit):
            return hit.at if col == 2 else hit.title
        return hit.at if col == 2 else hit.seq

    @staticmethod
    def text(item, col: int, tooltip: bool) -> str | None:
        if isinstance(item, ThreadHits):
            if col != 0:
                return None
            label = (f"{item.title} — {count(item.hit_count, 'match')} in "
                     f"{count(len(item.sessions), 'session')}")
            return f"{label}\n{item.thread_id}" if tooltip else label
        if isinstance(item, SessionHits):
            return f"Session {item.ref.session_id} — {count(len(item.hits), 'match')}" if col == 0 else None
        if isinstance(item, DocumentGroup):
            return f"Documents — {count(item.hit_count, 'match')}" if col == 0 else None
        if isinstance(item, DocumentSection):
            return f"{item.group} — {count(len(item.hits), 'document')}" if col == 0 else None
        if isinstance(item, DocumentHit):
            if col == 0:
                text = f"{item.title}: {snippet_plain(item.snippet)}"
                return f"{text}\n{item.where}" if tooltip else text
            if col == 1:
                return item.where
            return fmt_time(item.at) if item.at is not None else ""
        if col == 0:
            return snippet_plain(item.snippet)
        if col == 1:  # the role, and the store's own record type unless it already says the role
            if item.kind and item.role and item.role in item.kind:
                return item.kind  # Daycare's "user_message", "tool_result"
            return item.role + (f" · {item.kind}" if item.kind and item.kind != item.role else "")
        return fmt_time(item.at) if item.at is not None else ""
