"""A page built ahead (in idle time) laid out and drawn once off screen, before it is first shown.

A widget's first show polishes every child (the style's fonts, palettes and sizes), sends the resize
events a hidden widget kept pending and lays the page out: on the conversation page beside a Details dock
shown for the first time, about 6 ms of the GUI thread on the click that opens the first session (measured:
3 ms the page's first show, 2.5 the dock's). Drawn once off screen at the size it will have, a page has
done all that already when it comes; only its pixels are drawn on the click.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QStackedWidget, QStyle, QWidget

from daycare_gui.ui.detail_dock import DetailDock

_FORMAT = QImage.Format.Format_ARGB32_Premultiplied
DRAWN_AHEAD = "drawnAhead"  # the page's property, set once it has been drawn off screen


def warm_page(stack: QStackedWidget, page: QWidget, details: DetailDock, window_width: int) -> None:
    """Lay ``page`` (a page of ``stack``, not shown) out and draw it off screen at the size it will be
    shown at — the stack's, less the Details dock's share when the dock comes with the page — and the
    dock's pane likewise the first time it would come. Nothing is shown, and nothing of the page's state
    changes but its size, which the stack sets again when it shows it."""
    if page.isVisible() or stack.indexOf(page) < 0:
        return
    size = QSize(stack.size())
    if details.comes_with(page):
        dock_width = details.share(window_width)
        separator = stack.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, stack)
        size.setWidth(max(1, size.width() - dock_width - separator))
        if not details.warmed:
            details.warmed = True
            dock_size = QSize(dock_width, max(1, size.height()))  # (its pane: less the dock's title)
            details.dock.resize(dock_size)
            details.dock.render(QImage(dock_size, _FORMAT))
            # the page a turn later: each is ~10 ms of the GUI thread, the two at once a stall of ~20
            QTimer.singleShot(0, lambda: _draw(stack, page, size))
            return
    _draw(stack, page, size)


def _draw(stack: QStackedWidget, page: QWidget, size: QSize) -> None:
    if not (shiboken6.isValid(stack) and shiboken6.isValid(page)):  # (the window closed meanwhile)
        return
    if page.isVisible() or stack.indexOf(page) < 0 or size.isEmpty():  # (shown or gone meanwhile)
        return
    page.resize(size)
    page.render(QImage(size, _FORMAT))
    page.setProperty(DRAWN_AHEAD, True)
