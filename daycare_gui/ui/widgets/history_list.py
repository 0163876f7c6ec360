"""The record list: a one-column table whose row painter draws every row of a repaint in one call.

A table rather than a QListView: with fixed row heights its header keeps no per-row state, so neither a
reset nor a jump walks the session's rows (a list view lays them all out). Qt's own table paint calls the
delegate once per row, wrapping a style option and an index for Python each time; with rows already drawn
into images, that wrapping cost more than the drawing. So the list paints its rows itself, through
:meth:`HistoryRowDelegate.paint_rows`, and Qt keeps everything else (scrolling, selection, keyboard,
hover and what to repaint when data changes).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, QTimer
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QTableView

from daycare_gui.ui.widgets.history_rows import HistoryRowDelegate

_HOVER_AT = (QEvent.Type.HoverEnter, QEvent.Type.HoverMove)
_HOVER_LEAVE = QEvent.Type.HoverLeave


class HistoryList(QTableView):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows = HistoryRowDelegate(self)
        self.setItemDelegate(self.rows)
        # Where the mouse is over the rows (Qt keeps its own hover index private): a position, not a row,
        # so that the row under it is still right after the wheel scrolled the list
        self._hover_y: int | None = None
        self._after_paint: list = []
        # The scroll bar repaints at each scroll step. Not opaque to Qt, it had every widget behind it
        # painted first, from the window down (ten paint events a step, each a call through the bindings);
        # filled with its background (the window colour that showed through it) it is painted alone.
        self.verticalScrollBar().setAutoFillBackground(True)

    PREVIEW_CHARS = 16  # the least of each record's summary the list keeps in view, however narrow the page

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """Room for each row's time, kind and a readable start of its summary (without it a 1024 px window
        left the time and kind only)."""
        width = (self.rows.width_for(self.font(), self.PREVIEW_CHARS) + self.verticalScrollBar().sizeHint().width()
                 + 2 * self.frameWidth())
        return QSize(width, super().minimumSizeHint().height())

    AFTER_PAINT_MS = 100  # the longest after_paint waits for a paint (the list may not be on screen)

    def after_paint(self, fn) -> None:
        """Run ``fn`` once the list has next painted its rows, or in AFTER_PAINT_MS if it does not paint:
        work that would share the CPU with that paint waits for it."""
        self._after_paint.append(fn)
        QTimer.singleShot(self.AFTER_PAINT_MS, self, lambda: self._run_after_paint(fn))  # (dies with the list)

    def _run_after_paint(self, only=None) -> None:
        waiting = [fn for fn in self._after_paint if only is None or fn is only]
        self._after_paint = [fn for fn in self._after_paint if fn not in waiting]
        for fn in waiting:
            fn()

    def viewportEvent(self, event) -> bool:  # noqa: N802
        kind = event.type()
        if kind in _HOVER_AT:
            self._hover_y = round(event.position().y())
        elif kind == _HOVER_LEAVE:
            self._hover_y = None
        return super().viewportEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802
        model = self.model()
        if model is None or self.itemDelegate() is not self.rows or not model.rowCount():
            super().paintEvent(event)
            return
        area = event.rect()
        first = self.rowAt(area.top())
        if first < 0:  # below the last row: only the background, which the viewport filled already
            return
        last = self.rowAt(area.bottom())
        if last < 0:
            last = model.rowCount() - 1
        # The selected rows on screen, from the selection's ranges (asking the selection model row by row
        # cost ~10 µs a row: more than copying the row)
        selected = set()
        for span in self.selectionModel().selection():
            selected.update(range(max(span.top(), first), min(span.bottom(), last) + 1))
        painter = QPainter(self.viewport())
        try:
            self.rows.paint_rows(painter, self, first, last, self.columnViewportPosition(0),
                                 self.rowViewportPosition(first), self.columnWidth(0), self.rowHeight(first),
                                 selected, -1 if self._hover_y is None else self.rowAt(self._hover_y))
        finally:
            painter.end()
        if self._after_paint:  # (after the paint has reached the screen: the next turn of the event loop)
            QTimer.singleShot(0, self._run_after_paint)
