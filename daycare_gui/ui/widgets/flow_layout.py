"""A layout that lines its widgets up like words: left to right, wrapping onto the next line when the
width runs out. Button rows use it, so a narrow window wraps them instead of squeezing the list beside."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QSizePolicy, QStyle


class FlowLayout(QLayout):
    def __init__(self, parent=None, spacing: int = -1) -> None:
        super().__init__(parent)
        self._items = []
        self._spacing = spacing
        # Qt asks a layout's height for a width many times a layout pass (each page switch asked a button
        # row ~15 times, each a Python walk of its buttons): kept per width, and where it last placed
        # them, until something in it changes (invalidate: a button shown, hidden or relabelled)
        self._heights: dict[int, int] = {}
        self._placed: QRect | None = None
        self._minimum: QSize | None = None
        self.setContentsMargins(0, 0, 0, 0)

    def addItem(self, item) -> None:  # noqa: N802 (Qt override)
        self._items.append(item)
        self.invalidate()

    def invalidate(self) -> None:
        self._heights.clear()
        self._placed = self._minimum = None
        super().invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int):  # noqa: N802
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int):  # noqa: N802
        if not 0 <= index < len(self._items):
            return None
        self.invalidate()
        return self._items.pop(index)

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = self._arrange(QRect(0, 0, width, 0), move=False)
        return height

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        if rect != self._placed:
            self._arrange(rect, move=True)
            self._placed = QRect(rect)

    def sizeHint(self) -> QSize:  # noqa: N802
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802
        """The widest single widget: anything wider wraps."""
        if self._minimum is None:
            size = QSize()
            for item in self._items:
                size = size.expandedTo(item.minimumSize())
            margins = self.contentsMargins()
            self._minimum = size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())
        return QSize(self._minimum)

    def _gap(self, orientation: Qt.Orientation) -> int:
        if self._spacing >= 0:
            return self._spacing
        parent = self.parentWidget()
        if parent is None:
            return 6
        metric = (QStyle.PixelMetric.PM_LayoutHorizontalSpacing if orientation == Qt.Orientation.Horizontal
                  else QStyle.PixelMetric.PM_LayoutVerticalSpacing)
        gap = parent.style().pixelMetric(metric, None, parent)
        return gap if gap >= 0 else 6

    def _arrange(self, rect: QRect, move: bool) -> int:
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line_height = area.x(), area.y(), 0
        dx, dy = self._gap(Qt.Orientation.Horizontal), self._gap(Qt.Orientation.Vertical)
        for item in self._items:
            widget = item.widget()
            if widget is not None and not widget.isVisibleTo(self.parentWidget() or widget):
                continue
            hint = item.sizeHint()
            if x + hint.width() > area.right() + 1 and line_height > 0:
                x, y, line_height = area.x(), y + line_height + dy, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + dx
            line_height = max(line_height, hint.height())
        return y + line_height - rect.y() + margins.bottom()


def flow_row(widgets, parent=None) -> FlowLayout:
    """A FlowLayout holding ``widgets`` (buttons keep their natural width)."""
    layout = FlowLayout(parent)
    for w in widgets:
        w.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        layout.addWidget(w)
    return layout
