"""The main window's pages: each section's page built when first shown, the switch between them (the
previous page kept up until the next has its item), Back, and a store change told to the pages."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from daycare_gui.ui.context import DetailItem, PaneContext
from daycare_gui.ui.panes.registry import pane_class

# Pages that can be on screen before the preloader is done: everything their jobs run is imported with
# them. Any other page finishes the preloading first (ui/preload.py says why).
STARTUP_PAGES = frozenset({"overview", "agents", "history"})
_NOTHING_LEFT = object()  # (PageSwitching._left_detail: no previous page's detail waits to be emptied)


class PageSwitching:
    """The :class:`~daycare_gui.ui.main_window.MainWindow`'s sections and their pages (a part of the window:
    it uses the window's page stack, navigation, Details dock and banner)."""

    # -- sections ---------------------------------------------------------------------------------
    def _set_sections(self, specs) -> None:
        self._sections = {p.id: p for p in specs}
        self.nav.set_sections(specs)
        if self._current_section not in self._sections:
            self._current_section = None
        self.actions_.name_sections([p.title for p in self._nav_order()])

    def _nav_order(self) -> list:
        """Sections in the order the navigation lists them (grouped ones after the top level)."""
        shown = [p for p in self._sections.values() if p.in_nav]
        return [p for p in shown if not p.group] + [p for p in shown if p.group]

    def show_nth_section(self, n: int) -> None:
        """Ctrl+1…9: the n-th section of the navigation."""
        order = self._nav_order()
        if 0 < n <= len(order):
            self.show_section(order[n - 1].id)
            pane = self.pane_stack.currentWidget()
            if pane is not None:
                pane.setFocus(Qt.FocusReason.ShortcutFocusReason)
                pane.focusNextChild()

    # -- pages ------------------------------------------------------------------------------------
    def _context(self) -> PaneContext:
        return PaneContext(store=self.store, worker=self.worker, navigate=self.navigate,
                           show_detail=self.detail.show_item, set_count=self.nav.set_count,
                           background=self.bg_worker, opened=self.opened)

    def pane(self, section: str):
        if section not in self.panes:
            spec = self._sections.get(section)
            if spec is None or self.store is None:
                return None
            if section not in STARTUP_PAGES:
                self.preloader.finish_now()
            ctx = self._context()
            ctx.arg = spec.arg
            pane = pane_class(spec)(ctx)
            pane.setObjectName(f"pane_{section}")
            self.jump.install_link_menus(pane)  # "Copy link" on the lists of a pane that names its items
            self.panes[section] = pane
            self.pane_stack.addWidget(pane)
            pane.load()
        return self.panes[section]

    def show_section(self, section: str, target=None, *, record: bool = True) -> None:
        if self.store is None:
            return
        pane = self.pane(section)
        if pane is None:
            return
        if record and self._current_section and self._current_section != section:
            self._history.append((self._current_section, None))
        waits = (target is not None and pane.opens_before_shown and self.isVisible()
                 and self.pane_stack.currentWidget() is not pane)
        self._left_detail = _NOTHING_LEFT
        if section != self._current_section:  # the detail pane describes a selection on the page shown:
            if waits:  # emptied when the page is, not while the previous one stays up (painted twice so)
                self._left_detail = self.detail.item
            else:
                self.detail.show_item(None)
        self._current_section = section
        if section in self._missed:
            self._tell_pane(section)
            if section in self._stale:
                self._show_store_changed("The database changed on disk.")
        self._waiting_page = None  # a newer choice replaces a page still waiting for its item
        if target is not None and pane.opens_before_shown:
            if waits:
                self._show_when_ready(pane)  # first: a page with nothing to read is ready at once
            pane.open_item(target)  # its read runs while the previous page is still on screen
            target = None
        if self._waiting_page is None:
            self._show_page(pane)
        # pages outside the tree highlight the node they belong to (a conversation is an agent's)
        self.nav.select({"history": "agents"}.get(section, section))
        if target is not None:
            pane.open_item(target)

    _left_detail = _NOTHING_LEFT  # the previous page's detail, while that page stays up for the next (_NOTHING_LEFT: none)

    PAINT_HOLD_MS = 100  # the longest the previous page stays on screen while the next one reads its item

    def _show_when_ready(self, pane) -> None:
        """Keep the previous page on screen until ``pane`` has its item (``item_ready``) or PAINT_HOLD_MS
        have passed, as a browser keeps the old page until the new one has content: the window then
        switches and lays out once, and paints only what changed, with the item in it.

        (Holding with setUpdatesEnabled(False) instead made Qt repaint the whole window once the item came:
        enabling updates again marks every widget of the window dirty, and most were painted twice.)"""
        self._waiting_page = pane
        pane.item_ready.connect(lambda: self._show_waiting(pane), Qt.ConnectionType.SingleShotConnection)
        self._wait_timer.start(self.PAINT_HOLD_MS)  # one timer: an earlier wait's cannot end this one

    def _show_waiting(self, pane=None) -> None:
        """``pane``'s item is ready (or, with None, the wait is over): show the page still waiting."""
        if self._waiting_page is not None and pane in (None, self._waiting_page):
            pane, self._waiting_page = self._waiting_page, None
            self._wait_timer.stop()
            left, self._left_detail = self._left_detail, _NOTHING_LEFT
            if left is not None and left is self.detail.item:  # (unless the new page described something)
                self.detail.show_item(None)
            self._show_page(pane)

    def _show_page(self, pane) -> None:
        previous = self.pane_stack.currentWidget()
        if previous is not None and previous is not pane and self.details.changes_for(pane):
            self._show_page_with_dock_change(previous, pane)
        else:
            self.pane_stack.setCurrentWidget(pane)
        self.details.sync()

    def _show_page_with_dock_change(self, previous, pane) -> None:
        """Show ``pane`` where the Details dock comes or goes with it: settle the page area's new width
        first, so that ``pane`` is laid out once, at that width. (Shown first, it was laid out at the old
        width and again at the new one: ~0.5 ms more of each such switch, measured.) The page
        leaving is hidden before the dock changes, so it is not laid out again either."""
        focus = QApplication.focusWidget()
        focus_was_on_page = focus is not None and previous.isAncestorOf(focus)
        previous.hide()
        self.details.sync(pane)
        self.layout().activate()
        self.pane_stack.setCurrentWidget(pane)
        if focus_was_on_page:  # as the stack would have done, had the page still had the focus
            (pane.focusWidget() or pane).setFocus()

    def navigate(self, section: str, target=None) -> None:
        self.show_section(section, target)

    def go_back(self) -> None:
        if self._history:
            section, target = self._history.pop()
            self.show_section(section, target, record=False)

    def open_search(self) -> None:
        """Ctrl+Shift+F: the Search page with the cursor in its query box, ready to type."""
        self.show_section("search")
        if self._current_section == "search":
            self.focus_filter()

    def _on_conversation(self, method: str, what: str) -> None:
        """Export and Copy as Markdown act on the conversation shown; elsewhere the status bar says where."""
        pane = self.panes.get(self._current_section or "")
        if pane is not None and hasattr(pane, method):
            getattr(pane, method)()
        else:
            self.statusBar().showMessage(f"Open a conversation to {what}.", 5000)

    def focus_filter(self) -> None:
        pane = self.panes.get(self._current_section or "")
        if pane is not None:
            pane.focus_filter()

    def page_has_details(self, pane=None) -> bool:
        """Whether the page shown (or ``pane``, about to be shown) has anything for the Details dock."""
        if self.store is None or self.central.currentWidget() is not self.splitter:
            return False
        pane = pane if pane is not None else self.pane_stack.currentWidget()
        return bool(getattr(pane, "has_details", True)) if pane is not None else False

    def show_detail(self, item: DetailItem | None) -> None:
        self.detail.show_item(item)

    # -- a store that changes while it is shown -----------------------------------------------------
    def _database_changed(self) -> None:
        """A write to the database (debounced by the watcher): the page shown reads what is new; hidden
        pages catch up when they are shown, so nothing polls for a page nobody looks at."""
        if self.opened is None:
            return
        self.opened.follow_live()  # an immutable open (the WAL was empty) would never see the new rows
        # the navigation's counts follow too (a new agent, a new inbox item)
        self.bg_worker.submit("nav-counts-live", self._counts_job(), on_result=self._counts_arrived)
        self._missed.update(s for s in self.panes if s != self._current_section)
        if self._current_section in self.panes:
            self._tell_pane(self._current_section)

    def _tell_pane(self, section: str) -> None:
        self._missed.discard(section)
        if not self.panes[section].store_changed():
            self._stale.add(section)

    def _disk_changed(self, message: str) -> None:
        if self.watcher.database_only and self._current_section not in self._stale:
            return  # the page shown follows the database by itself
        pane = self.panes.get(self._current_section)
        if pane is not None and pane.follows_change(self.watcher.last_paths):
            return  # e.g. the conversation shown grew, and the page added the new messages itself
        self._show_store_changed(message)

    def _show_store_changed(self, detail: str) -> None:
        """The same non-modal banner for every kind; Reload reopens the store on the page shown."""
        self.banner.show_message("The store changed on disk — Reload to see it.", action="Reload")
        self.banner.setToolTip(detail)
