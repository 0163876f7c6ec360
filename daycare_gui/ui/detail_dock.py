"""The Details dock: beside the pages that have something to detail, unless the user closed it.

Closing it (F9 or its close button) is the user's choice for every page that has details, kept across
sessions; pages with nothing to detail (the welcome page, the Overview) get the whole width without it.
It is sized once to fit the window, unless a saved layout already says how wide it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import shiboken6
from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt, QTimer
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
        self.pane = _DockedPane()
        self.dock = QDockWidget("Details", window)
        self.dock.setObjectName("detailDock")
        self.dock.setWidget(self.pane)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.wanted = settings.value(self.SETTING, True) not in (False, "false")
        self._syncing = False  # the dock shown or hidden by this class, not by the user
        self.sized = False  # set once sized, or when a saved window layout holds its width
        self.warmed = False  # its pane laid out and drawn off screen once (ui.warm_pages)
        self.dock.visibilityChanged.connect(self._visibility_changed)
        self._resizes = _OnResize(window, self._yield)

    def remember(self, settings: QSettings) -> None:
        settings.setValue(self.SETTING, self.wanted)

    def toggle(self) -> None:
        """F9: show or hide the dock; the choice holds for every page that has details."""
        self.wanted = self.dock.isHidden()
        self._set_visible(self.wanted)  # shown on request even where the page has nothing to detail

    def changes_for(self, page: QWidget) -> bool:
        """Whether the dock comes or goes when ``page`` is shown."""
        return self.dock.isHidden() == (self.wanted and self._has_details(page))

    def comes_with(self, page: QWidget) -> bool:
        """Whether the dock, hidden now, is shown when ``page`` is."""
        return self.dock.isHidden() and self.wanted and self._has_details(page)

    def sync(self, page: QWidget | None = None) -> None:
        """Show the dock where the page shown (or ``page``, about to be) has details and the user wants it;
        hide it elsewhere."""
        show = self.wanted and self._has_details(page)
        if self.dock.isHidden() != show:  # isHidden: also right before the window is first shown
            return
        if show and not self.sized:
            # The dock is placed at its content's size hint when it first shows: at its share of the window,
            # the window is laid out once (placed at the pane's own hint and then resized, it was laid out
            # twice, the page area at two widths)
            self.pane.first_width = self.share(self._window.width())
            self.pane.updateGeometry()  # (layouts keep a widget's hint until told)
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

    @staticmethod
    def share(window_width: int) -> int:
        """The dock's width for a window this wide: a sixth, 180 to 320 pixels — room to read fields
        without starving the page (a fifth, at least 200, left a 1024 px window's page too little)."""
        return max(180, min(320, window_width // 6))

    def _yield(self) -> None:
        """The window narrowed: the dock gives way first, down to its share, before the page is squeezed
        (a dock keeps its width in a QMainWindow, and the page and the navigation took all the loss)."""
        if self.dock.isHidden() or self.dock.isFloating():
            return
        most = max(self.share(self._window.width()), self._window.width() // 5)  # a user's wider dock, within reason
        if self.dock.width() > most:
            self._window.resizeDocks([self.dock], [self.share(self._window.width())], Qt.Orientation.Horizontal)

    def _size_once(self) -> None:
        """The dock's share of the window, once (a saved layout's width is kept)."""
        if self.dock.isFloating():
            return
        width = self.share(self._window.width())
        if not self.sized:
            # (where it was placed at that width already, this only makes the width the dock's own: it no
            # longer follows the pane's hint; nothing is resized)
            self._window.resizeDocks([self.dock], [width], Qt.Orientation.Horizontal)
            self.sized = True
        self.pane.first_width = None


class _DockedPane(DetailPane):
    """The dock's pane, whose size hint is the dock's first width until the dock has been sized."""

    first_width: int | None = None

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        hint = super().sizeHint()
        return hint if self.first_width is None else QSize(self.first_width, hint.height())


class _OnResize(QObject):
    """Calls ``then`` each time ``watched`` is resized."""

    def __init__(self, watched: QWidget, then: Callable[[], None]) -> None:
        super().__init__(watched)
        self._then = then
        watched.installEventFilter(self)

    def eventFilter(self, _obj, event) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Resize:
            self._then()
        return False
