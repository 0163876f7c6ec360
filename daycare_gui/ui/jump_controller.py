"""Jump To (Ctrl+K), deep links (``--open KIND:ID``) and "Copy link" for the main window.

When a store opens, its items (``stores.common.jump.entries_of``) and the window's navigation pages are
read into a :class:`JumpIndex` on the background worker. The palette searches it as the user types; a deep
link is looked up in it once it is there. Where an entry opens is the kind's business
(``panes.generic.route_for``): this module never asks which kind the store is.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QMenu

from daycare_gui.stores.common.jump import JumpIndex, deep_link, entries_of, link_target
from daycare_gui.stores.common.secrets import mask_url
from daycare_gui.stores.records import JumpEntry

STATUS_MS = 20_000


class JumpController(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.index: JumpIndex | None = None
        self.palette = None
        self._pending_open: str | None = None
        self._failed = ""

    # -- the index ----------------------------------------------------------------------------------------
    def store_opened(self) -> None:
        """Read the open store's items on the background worker (keys and labels only)."""
        w = self.window
        self.index, self._failed = None, ""
        opened = w.opened
        pages = [JumpEntry("section", spec.id, spec.title, "page", None)
                 for spec in w._sections.values() if spec.in_nav]
        if self.palette is not None:
            self.palette.set_index(None)
        w.bg_worker.submit("jump-index", lambda: JumpIndex(pages + entries_of(opened)),
                           on_result=self._index_arrived, on_error=self._index_failed)

    def store_closed(self) -> None:
        self.index = None
        if self.palette is not None:
            self.palette.set_index(None)
            self.palette.reject()

    def _index_arrived(self, index: JumpIndex) -> None:
        self.index = index
        if self.palette is not None:
            self.palette.set_index(index)
        target, self._pending_open = self._pending_open, None
        if target:
            self.open_link(target)

    def _index_failed(self, message: str) -> None:
        self._failed = message
        if self.palette is not None:
            self.palette.set_index(None, f"Could not list this store's items: {message}")
        if self._pending_open:
            self._say(f"Could not open {self._pending_open}: the store's items could not be listed ({message})")
            self._pending_open = None

    # -- the palette --------------------------------------------------------------------------------------
    def show_palette(self) -> None:
        if self.window.store is None:
            return
        if self.palette is None:
            from daycare_gui.ui.dialogs.quick_open import QuickOpenDialog

            self.palette = QuickOpenDialog(self.link_of, self.window)
            self.palette.chosen.connect(self.open_entry)
            self.palette.search_requested.connect(self.search_for)
        self.palette.search_offered = "search" in self.window._sections
        self.palette.set_index(self.index, f"Could not list this store's items: {self._failed}" if self._failed else "")
        geometry = self.window.geometry()
        self.palette.move(geometry.x() + (geometry.width() - self.palette.width()) // 2, geometry.y() + 80)
        self.palette.show()
        self.palette.raise_()
        self.palette.activateWindow()
        self.palette.start()

    def open_entry(self, entry: JumpEntry) -> None:
        from daycare_gui.ui.panes.generic import route_for

        w = self.window
        if w.opened is None:
            return
        section, target = route_for(w.opened, entry)
        if section not in w._sections:
            self._say(f"{entry.label} has no page to open it in")
            return
        w.show_section(section, target)

    def search_for(self, words: str) -> None:
        """Words no item matched: the Search page (Ctrl+Shift+F) with them filled in and searched."""
        self.window.show_section("search", words)

    # -- deep links ---------------------------------------------------------------------------------------
    def open_when_ready(self, text: str | None) -> None:
        """``--open KIND:ID``: opened once the store's items are read (at once when they are)."""
        if not text:
            return
        if self.index is not None:
            self.open_link(text)
        else:
            self._pending_open = text

    def open_link(self, text: str) -> None:
        target = link_target(text)
        if target is None:
            self._say(f"--open {text!r}: expected KIND:ID, e.g. session:<id> (kinds: agent, session, user, task, "
                      "doc, app, table)")
            return
        entry = self.index.find(*target) if self.index is not None else None
        if entry is None:
            self._say(f"Not found in this store: {target[0]} {target[1]}")
            return
        self.open_entry(entry)

    def link_of(self, entry: JumpEntry) -> str:
        return self.link(entry.kind, entry.key)

    def link(self, kind: str, key: str) -> str:
        path = self.window._opened_path or ""
        if "://" in path:
            path = mask_url(path)  # a password never goes into a link
        elif path:
            path = str(Path(os.path.expanduser(path)).resolve())
        return deep_link(path, kind, key)

    def copy_link(self, target: tuple[str, str] | None = None) -> None:
        """Ctrl+Shift+L: the link to what is selected in the current pane (its ``link_target``)."""
        if target is None:
            pane = self.window.pane_stack.currentWidget()
            finder = getattr(pane, "link_target", None)
            target = finder() if finder is not None else None
        if target is None:
            self._say("Select an agent, session, user, task, document, app or table to copy its link")
            return
        QGuiApplication.clipboard().setText(self.link(*target))
        self._say(f"Copied the link to {target[0]} {target[1]}")

    def _say(self, message: str) -> None:
        self.window.statusBar().showMessage(message, STATUS_MS)

    # -- "Copy link" in list context menus ------------------------------------------------------------------
    def install_link_menus(self, pane) -> None:
        """Every list of a pane that can name its selection (``link_target(view)``) gets a context menu
        with "Copy link" — unless the list already has a menu of its own."""
        finder = getattr(pane, "link_target", None)
        if finder is None:
            return
        for view in pane.findChildren(QAbstractItemView):
            if view.contextMenuPolicy() != Qt.ContextMenuPolicy.DefaultContextMenu:
                continue
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(
                lambda pos, v=view, f=finder: self._link_menu(v, f, pos))

    def _link_menu(self, view, finder, pos) -> None:
        index = view.indexAt(pos)
        if not index.isValid():
            return
        view.setCurrentIndex(index)
        target = finder(view)
        menu = QMenu(view)
        action = menu.addAction("Copy link", lambda: self.copy_link(target))
        action.setEnabled(target is not None)
        menu.exec(view.viewport().mapToGlobal(pos))
