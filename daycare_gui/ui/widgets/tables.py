"""One way to set up a read-only record table, so every page's tables look and key the same."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QStyle, QTableView

SIZE_HINT_ROWS = 50


def make_table(model, *, row_height: int = 24, delegate=None) -> QTableView:
    """Single-row selection, no editing, alternating rows, no row numbers; Tab leaves the table and
    the arrow keys move inside it. ``delegate`` (a factory taking the view) paints rows by state."""
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(row_height)
    view.horizontalHeader().setStretchLastSection(True)
    # "Resize to contents" measures at most this many rows (Qt's default is 1000): every measurement
    # calls the model and the delegate in Python, so a thousand rows froze the window for a second.
    view.horizontalHeader().setResizeContentsPrecision(SIZE_HINT_ROWS)
    view.setWordWrap(False)
    view.setTabKeyNavigation(False)
    if delegate is not None:
        view.setItemDelegate(delegate(view))
    return view


def sort_only(view: QTableView, columns) -> None:
    """A table whose model sorts only ``columns`` (in SQL): a click on any other header puts the sort
    arrow back where the rows really are sorted, instead of promising an order that is not there."""
    header = view.horizontalHeader()
    shown = [header.sortIndicatorSection(), header.sortIndicatorOrder()]

    def changed(section: int, order) -> None:
        if section in columns:
            shown[:] = [section, order]
            return
        header.blockSignals(True)
        header.setSortIndicator(*shown)
        header.blockSignals(False)

    header.sortIndicatorChanged.connect(changed)


def header_text_width(view, column: int) -> int:
    """Pixels the header needs to show ``column``'s title unclipped (text, margins, a sort arrow if the
    view sorts)."""
    header = view.header() if hasattr(view, "header") else view.horizontalHeader()
    title = str(view.model().headerData(column, Qt.Orientation.Horizontal) or "")
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    arrow = 0
    if header.isSortIndicatorShown() and header.sortIndicatorSection() == column:
        arrow = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
    return QFontMetrics(header.font()).horizontalAdvance(title) + 2 * margin + arrow + 4


class ColumnFitter(QObject):
    """Sizes a table's columns the way a reader needs them: short columns to their contents (never
    narrower than their title, no wider than ``cap`` while space is short), and one long text column
    (``stretch``, default the last) taking the width that is left — at least its title's width.

    ``fit()`` sizes everything (call it when rows arrive). A resize of the view re-spreads only the space
    left: capped columns get back what the cap took while the long column keeps room for its own text,
    and the long column takes the rest.
    """

    def __init__(self, view, *, stretch: int | None = -1, cap: int = 220, caps: dict[int, int] | None = None,
                 samples: dict[int, str] | None = None) -> None:
        super().__init__(view)
        self.view = view
        self.stretch = stretch
        self.cap = cap
        self.caps = caps or {}  # per-column caps (a name column may be held narrower than the rest)
        # columns sized from a typical value rather than the rows (a tree's rows arrive as folders open)
        self.samples = samples or {}
        self._fitted: dict[int, tuple[int, int]] = {}  # column -> (capped width, content width)
        self._long_content = 0
        self._gave: dict[int, int] = {}  # column -> pixels it gave way to keep the long column in view
        self.header = view.header() if hasattr(view, "header") else view.horizontalHeader()
        self.header.setStretchLastSection(False)
        view.viewport().installEventFilter(self)

    def _stretch_column(self) -> int | None:
        count = self.view.model().columnCount() if self.view.model() is not None else 0
        if self.stretch is None or count == 0:
            return None
        return self.stretch % count

    def fit(self) -> None:
        model = self.view.model()
        if model is None:
            return
        long_column = self._stretch_column()
        self._fitted, self._gave = {}, {}
        for column in range(model.columnCount()):
            if self.view.isColumnHidden(column):
                continue
            if column in self.samples:
                content = self.view.fontMetrics().horizontalAdvance(self.samples[column]) + 16
            else:
                self.view.resizeColumnToContents(column)
                content = self.view.columnWidth(column)
            title = header_text_width(self.view, column)
            if column == long_column:
                self._long_content = max(title, min(content, 480))
                continue
            width = max(title, min(content, self.caps.get(column, self.cap)))
            self._fitted[column] = (width, max(width, content))
            self.view.setColumnWidth(column, width)
        self.spread()

    def spread(self) -> None:
        long_column = self._stretch_column()
        if long_column is None:
            return
        room = self.view.viewport().width()
        for column, gave in self._gave.items():  # what columns gave way below in a narrower list, back
            self.view.setColumnWidth(column, self.header.sectionSize(column) + gave)
        self._gave = {}
        # capped columns first get back what the cap took, out of what the long text does not need
        surplus = room - self._long_content - sum(width for width, _ in self._fitted.values())
        for column, (width, content) in self._fitted.items():
            if content > width:
                target = width + max(0, min(content - width, surplus))
                if self.header.sectionSize(column) != target:
                    self.view.setColumnWidth(column, target)
                surplus -= content - width
        shown = [c for c in range(self.header.count()) if c != long_column and not self.header.isSectionHidden(c)]
        long_least = header_text_width(self.view, long_column)
        deficit = sum(self.header.sectionSize(c) for c in shown) + long_least - room
        # Too narrow for every column at its width (a small window): the widest short columns give way,
        # each down to its title, before the long column is pushed out of view past the list's edge.
        for column in sorted(shown, key=self.header.sectionSize, reverse=True):
            if deficit <= 0:
                break
            give = min(deficit, self.header.sectionSize(column) - header_text_width(self.view, column))
            if give > 0:
                self.view.setColumnWidth(column, self.header.sectionSize(column) - give)
                self._gave[column] = give
                deficit -= give
        others = sum(self.header.sectionSize(c) for c in shown)
        self.view.setColumnWidth(long_column, max(long_least, room - others))

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Resize:
            self.spread()
        return False
