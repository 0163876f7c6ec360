"""The search results tree (agent → session → matching record) and the delegate that highlights snippets.

The model adapts a :class:`~daycare_gui.core.search.query.SearchResults`; it runs no query. Snippets carry
the index's match markers; :func:`snippet_html` escapes everything and only then turns the markers into
``<b>``, so text from a history can never become markup.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from daycare_gui.core.search.index import MARK_CLOSE, MARK_OPEN
from daycare_gui.core.search.query import AgentGroup, Hit, SearchResults, SessionGroup
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import fmt_time
from daycare_gui.ui.models.roles import KeyRole, RecordRole, SortRole

HEADERS = ("Match", "Type", "When")


def snippet_plain(snippet: str) -> str:
    return " ".join(snippet.replace(MARK_OPEN, "").replace(MARK_CLOSE, "").split())


def snippet_html(snippet: str) -> str:
    """Escaped text on one line with the matched terms in bold."""
    text = html.escape(" ".join(snippet.split()), quote=False)
    # Markers come in pairs from snippet(); a stray one in stored text is dropped rather than left open.
    out, open_ = [], False
    for ch in text:
        if ch == MARK_OPEN and not open_:
            out.append("<b>")
            open_ = True
        elif ch == MARK_CLOSE and open_:
            out.append("</b>")
            open_ = False
        elif ch not in (MARK_OPEN, MARK_CLOSE):
            out.append(ch)
    if open_:
        out.append("</b>")
    return "".join(out)


def result_key(item) -> tuple | None:
    """What identifies a row across two searches (the objects themselves are new each time)."""
    if isinstance(item, Hit):
        return ("hit", item.session_id, item.record_id)
    if isinstance(item, SessionGroup):
        return ("session", item.session_id)
    if isinstance(item, AgentGroup):
        return ("agent", item.agent_id)
    return None


class _Node:
    __slots__ = ("item", "parent", "row", "children")

    def __init__(self, item, parent: _Node | None, row: int) -> None:
        self.item = item
        self.parent = parent
        self.row = row
        self.children: list[_Node] = []


class SearchResultsModel(QAbstractItemModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._root = _Node(None, None, 0)

    def set_results(self, results: SearchResults | None) -> None:
        self.beginResetModel()
        self._root = _Node(None, None, 0)
        for group in (results.groups if results is not None else []):
            a = _Node(group, self._root, len(self._root.children))
            self._root.children.append(a)
            for session in group.sessions:
                s = _Node(session, a, len(a.children))
                a.children.append(s)
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

    def _node(self, index: QModelIndex) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    def item(self, index: QModelIndex):
        """The AgentGroup, SessionGroup or Hit at ``index`` (None for an invalid index).

        The pane and the delegate use this rather than ``index.data(RecordRole)``: no QVariant round trip,
        and (PySide6 6.12 on Python 3.11) no binding call that hands back None, each of which drops a
        reference to None.
        """
        return index.internalPointer().item if index.isValid() and index.model() is self else None

    # -- structure -----------------------------------------------------------------------------------
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

    # -- data ----------------------------------------------------------------------------------------
    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        item, col = index.internalPointer().item, index.column()
        if role == RecordRole:
            return item
        if role == KeyRole:
            if isinstance(item, AgentGroup):
                return item.agent_id
            if isinstance(item, SessionGroup):
                return item.session_id
            return item.record_id
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return self._text(item, col, tooltip=role == Qt.ItemDataRole.ToolTipRole)
        if role == SortRole and isinstance(item, Hit):
            return item.at if col == 2 else item.record_id
        return None

    @staticmethod
    def _text(item, col: int, tooltip: bool) -> str | None:
        if isinstance(item, AgentGroup):
            if col == 0:
                label = f"{item.name} — {count(item.hit_count, 'match')} in {count(len(item.sessions), 'session')}"
                return f"{label}\n{item.agent_id}" if tooltip else label
            return f"{item.kind} · {item.lifecycle}" if col == 1 else None
        if isinstance(item, SessionGroup):
            if col == 0:
                return f"Session {item.session_id} — {count(len(item.hits), 'match')}"
            return None
        if col == 0:
            return snippet_plain(item.snippet)
        if col == 1:
            return item.type
        return fmt_time(item.at)


class SnippetDelegate(QStyledItemDelegate):
    """Paints a record's snippet as rich text (matched terms bold); everything else as usual."""

    def _doc(self, option, index) -> QTextDocument | None:
        model = index.model()
        hit = model.item(index) if isinstance(model, SearchResultsModel) else None
        if index.column() != 0 or not isinstance(hit, Hit):
            return None
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(option.font)
        doc.setHtml(snippet_html(hit.snippet))
        return doc

    def paint(self, painter, option, index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._doc(opt, index)
        if doc is None:
            super().paint(painter, option, index)
            return
        opt.text = ""
        style = opt.widget.style() if opt.widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, opt.widget)
        ctx = QAbstractTextDocumentLayout.PaintContext()
        group = QPalette.ColorGroup.Active if opt.state & QStyle.StateFlag.State_Active else QPalette.ColorGroup.Inactive
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(group, role))
        painter.save()
        top = rect.top() + max(0, (rect.height() - int(doc.size().height())) // 2)
        painter.translate(rect.left(), top)
        painter.setClipRect(0, 0, rect.width(), rect.height())
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option, index) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        return QSize(size.width(), max(size.height(), 22))
