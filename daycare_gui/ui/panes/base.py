"""The base every pane follows."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from daycare_gui.ui.context import PaneContext


class Pane(QWidget):
    """A navigation section. Subclasses build widgets in ``__init__`` and load data in ``load()``.

    ``load()`` is called once when the pane is first shown for a store and again on Refresh; it must not
    block: queries go through ``self.ctx.worker``.
    """

    pane_id: str = ""
    title: str = ""
    has_details = True  # False: nothing on the page is ever shown in the Details dock, so it is hidden

    def __init__(self, ctx: PaneContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx

    def load(self) -> None:  # pragma: no cover - overridden
        pass

    def unsaved_work(self) -> str | None:
        """What this page holds that is not saved yet (named for a question), or None: the window asks
        before it closes or opens another store."""
        return None

    def focus_filter(self) -> None:
        """Ctrl+F: put the cursor in this pane's filter box (a ``filter_box`` attribute), if it has one."""
        box = getattr(self, "filter_box", None)
        if box is not None:
            box.setFocus()
            box.selectAll()

    # True for a page whose ``open_item`` only starts a read on the worker and touches nothing that needs
    # the page on screen: the window then opens the item *before* switching to the page, so a quick read
    # is back before the first paint and the page is painted once, with its item, instead of twice.
    opens_before_shown = False
    # Such a page emits this once the item it was asked to open is ready to paint (or cannot be read):
    # the window keeps showing the previous page until then (for a moment at most), so the page is not
    # painted first empty and again a moment later with its item.
    item_ready = Signal()

    def open_item(self, target) -> None:
        """Show a specific item (e.g. an agent id) when another pane navigates here."""

    def store_changed(self) -> bool:
        """The store changed on disk (a live engine wrote). A page that shows the change by itself (new rows
        inserted, changed rows repainted) does so and returns True; the default asks for Refresh."""
        return False

    def follows_change(self, paths: frozenset[str]) -> bool:
        """True when the page already shows what changed in ``paths`` (the files of a burst on disk) by itself,
        so the window need not offer a Reload; the default: it does not."""
        return False

    def shutdown(self) -> None:
        """Called before the store closes."""
