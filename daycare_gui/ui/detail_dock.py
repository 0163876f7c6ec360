"""The Details dock: beside the pages that have something to detail, unless the user closed it.

Closing it (F9 or its close button) is the user's choice for every page that has details, kept across
sessions; pages with nothing to detail (the welcome page, the Overview) get the whole width without it.
It is sized once to fit the window, unless a saved layout already says how wide it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import shiboken6
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QWidget

from daycare_gui.ui.widgets.detail_pane import DetailPane

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow


class DetailDock:
    """The window's Details dock (``dock``, holding ``pane``) and the rule for when it shows."""

    SETTING = "detail_visible"

    def __init__(self, window: QMainWindow, settings: QSettings,
                 has_details: Callable[[QWidget | None], bool]) -> None:
        """``has_details(page)``: whether ``page`` (the page shown, with None) has anything to detail."""
        self._window = window
        self._has_details = has_details
        self.pane = DetailPane()
        self.dock = QDockWidget("Details", window)
        self.dock.setObjectName("detailDock")
        self.dock.setWidget(self.pane)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.wanted = settings.value(self.SETTING, True) not in (False, "false")
        self._syncing = False  # the dock shown or hidden by this class, not by the user
        self.sized = False  # set once sized, or when a saved window layout holds its width
        self.dock.visibilityChanged.connect(self._visibility_changed)

    def remember(self, settings: QSettings) -> None:
        settings.setValue(self.SETTING, self.wanted)

    def toggle(self) -> None:
        """F9: show or hide the dock; the choice holds for every page that has details."""
        self.wanted = self.dock.isHidden()
        self._set_visible(self.wanted)  # shown on request even where the page has nothing to detail

    def changes_for(self, page: QWidget) -> bool:
        """Whether the dock comes or goes when ``page`` is shown."""
        return self.dock.isHidden() == (self.wanted and self._has_details(page))

    def sync(self, page: QWidget | None = None) -> None:
        """Show the dock where the page shown (or ``page``, about to be) has details and the user wants it;
        hide it elsewhere."""
        show = self.wanted and self._has_details(page)
        if self.dock.isHidden() != show:  # isHidden: also right before the window is first shown
            return
        self._set_visible(show)
        if show and not self.sized:
            if self._window.isVisible():
                # Sized now, in the layout pass of the page it shows beside (a second pass would paint
                # that page twice); the window's layout places it first, as a dock resized before it is
                # placed keeps its old width.
                self._window.layout().activate()
                self._size_once()
            else:  # sized once the window is shown and laid out
                QTimer.singleShot(0, self._size_once)

    def _set_visible(self, show: bool) -> None:
        self._syncing = True
        try:
            self.dock.setVisible(show)
        finally:
            self._syncing = False

    def _visibility_changed(self, visible: bool) -> None:
        # A window taken apart without being closed first (at exit) hides its dock after it is gone; this
        # handler is not the window's own, so Qt does not cut it off with the window.
        if not shiboken6.isValid(self._window):
            return
        # the user closed (or re-docked) it themselves: remember that as their choice
        if not self._syncing and self._window.isVisible() and not visible and self._has_details(None):
            self.wanted = False

    def _size_once(self) -> None:
        """A fifth of the window, 200 to 360 pixels: room to read fields without starving the page."""
        if self.dock.isFloating():
            return
        width = max(200, min(360, self._window.width() // 5))
        if abs(self.dock.width() - width) > 40 and not self.sized:
            self._window.resizeDocks([self.dock], [width], Qt.Orientation.Horizontal)
            self.sized = True
