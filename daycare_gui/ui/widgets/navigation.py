"""The navigation tree: one node per section, each with its count."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics, QGuiApplication, QRegion, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QStyleOptionViewItem, QTreeView, QWidget

from daycare_gui.ui.formats import number
from daycare_gui.ui.icons import nav_icon
from daycare_gui.ui.theme import follow_palette, take_app_style

NavIdRole = Qt.ItemDataRole.UserRole + 10
IconNameRole = Qt.ItemDataRole.UserRole + 11  # which drawing, to recolour it for a new palette
EMPTY = "Empty"
# Pages that are never "empty": the store's front page, the search box, and Problems, whose (0) is news.
NEVER_FOLDED = frozenset({"overview", "search", "problems", "actions"})


class NavigationTree(QTreeView):
    section_selected = Signal(str)
    width_needed = Signal(int)  # the width the longest label (with its count) needs, when it grows

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("navigation")
        take_app_style(self)  # its font size and item padding (resources/styles/app.qss)
        self.setHeaderHidden(True)
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setEditTriggers(QTreeView.EditTrigger.NoEditTriggers)
        self.nav_model = QStandardItemModel(self)
        self._items: dict[str, QStandardItem] = {}
        self._titles: dict[str, str] = {}
        # Widths measured for one set of labels, font and scroll bar: layouts ask for the size hint dozens
        # of times while the window opens, and measuring every label each time cost more than the rest.
        self._labels_changed = 0
        # Where each section lives when it has something (its group, its place in the list): a section whose
        # count arrives as 0 folds into one "Empty" folder, and goes back there when rows arrive.
        self._homes: dict[str, tuple[QStandardItem | None, int]] = {}
        self._empty: QStandardItem | None = None
        self._widths: tuple[tuple, int, int] | None = None
        self._selecting = False  # select() marks the page shown: not a choice of the user's to emit
        self.setModel(self.nav_model)
        self.set_sections(())  # the open store's sections come with it
        self.selectionModel().currentChanged.connect(self._current_changed)
        # A folder is no page: a click (or Enter) on it opens it and shows its first page, so the user need
        # not find the small arrow. (A click on the arrow itself only opens or closes it, as in any tree.)
        self.clicked.connect(self._open_folder)
        self.activated.connect(self._open_folder)
        follow_palette(self, self._recolour_icons)  # monochrome icons drawn in the palette's text colour

    def _item(self, icon: str, title: str) -> QStandardItem:
        item = QStandardItem(nav_icon(icon, self.palette()), title)
        item.setData(icon, IconNameRole)
        return item

    def _recolour_icons(self) -> None:
        def walk(parent: QStandardItem) -> None:
            for row in range(parent.rowCount()):
                child = parent.child(row)
                child.setIcon(nav_icon(child.data(IconNameRole), self.palette()))
                walk(child)

        walk(self.nav_model.invisibleRootItem())

    def set_sections(self, specs) -> None:
        """One node per section the opened store offers (Daycare's by default)."""
        self.blockSignals(True)
        self._labels_changed += 1
        try:
            self.nav_model.clear()
            self._items.clear()
            self._titles.clear()
            self._homes.clear()
            self._empty = None
            groups: dict[str, QStandardItem] = {}
            for order, spec in enumerate(specs):
                if not spec.in_nav:
                    continue
                item = self._item(spec.icon, spec.title)
                item.setData(spec.id, NavIdRole)
                group = getattr(spec, "group", "")
                item.setToolTip(f"{group}: {spec.title}" if group else spec.title)
                self._items[spec.id] = item
                self._titles[spec.id] = spec.title
                if group:  # a group node (not a section itself) holding its sections, collapsed
                    if group not in groups:
                        groups[group] = self._item("folder", group)
                        groups[group].setSelectable(False)
                        self.nav_model.appendRow(groups[group])
                    groups[group].appendRow(item)
                    self._homes[spec.id] = (groups[group], order)
                else:
                    self.nav_model.appendRow(item)
                    self._homes[spec.id] = (None, order)
            self.setRootIsDecorated(bool(groups))
        finally:
            self.blockSignals(False)

    def focusOutEvent(self, event) -> None:  # noqa: N802 (Qt override)
        """Repaint only what losing the keyboard changes: the frame (a style may draw the focus around the
        view), the current row (its focus mark) and the selected rows (a style may dim them). Qt's own
        handlers repaint the whole tree, every icon and label (~2 ms), each time a page takes the keyboard
        from the navigation, as opening a session or a section from it does."""
        viewport = self.viewport()
        # (QWidget's update, named: PySide 6.10 resolves self.update(region) on an item view to its
        # update(QModelIndex) and crashes)
        QWidget.update(self, QRegion(self.rect()) - QRegion(viewport.geometry()))
        rows = self.visualRegionForSelection(self.selectionModel().selection())
        current = self.currentIndex()
        if current.isValid():
            rect = self.visualRect(current)
            rows += QRect(0, rect.top(), viewport.width(), rect.height())
        viewport.update(rows)
        app = QApplication.instance()
        if app.autoSipEnabled() and self.testAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled):
            QGuiApplication.inputMethod().hide()  # the rest of what QWidget's handler does

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._selecting:
            return
        if current.isValid() and current.data(NavIdRole):
            self.section_selected.emit(current.data(NavIdRole))

    def _open_folder(self, index: QModelIndex) -> None:
        if not index.isValid() or index.data(NavIdRole) or not self.nav_model.hasChildren(index):
            return
        self.expand(index)
        self.setCurrentIndex(self.nav_model.index(0, 0, index))  # emits section_selected for that page

    def select(self, nav_id: str) -> None:
        """Mark ``nav_id``'s node as the page shown, without emitting a new selection; a page outside the
        tree (e.g. Search) clears the mark. The selection model's signals still reach the view, so the
        rows whose mark changed are repainted (blocked, the old page stayed drawn marked)."""
        item = self._items.get(nav_id)
        self._selecting = True
        try:
            if item is None:
                self.selectionModel().clearSelection()
                self.setCurrentIndex(self.nav_model.index(-1, -1))
            elif self.currentIndex() != item.index():
                parent = item.index().parent()
                if parent.isValid():
                    self.expand(parent)  # a page inside a folder: its row is seen
                self.setCurrentIndex(item.index())
        finally:
            self._selecting = False

    def set_count(self, nav_id: str, count: int | None) -> None:
        self.set_counts({nav_id: count})

    def set_counts(self, counts: dict[str, int | None]) -> None:
        """Each section's label with its count (folded away when empty), then the labels measured once:
        measured after each count, the window's one answer for every section took ~50 ms of a loaded
        machine's start-up turn (every label measured again for each)."""
        for nav_id, count in counts.items():
            item = self._items.get(nav_id)
            if item is None:
                continue
            if nav_id not in NEVER_FOLDED and count is not None:
                self._fold(nav_id, count == 0)
            title = self._shown_title(nav_id)
            text = title if count is None else f"{title}  ({number(count)})"
            if text != item.text():
                item.setText(text)
                self._labels_changed += 1
                self.updateGeometry()  # its minimum (every label whole) may have grown
        needed = self.needed_width()
        if needed > self.width():
            self.width_needed.emit(needed)

    def _shown_title(self, nav_id: str) -> str:
        """A section's title, named with its group's while it is in the Empty folder and another section
        has the same title: out of its group, PGlite's versions of channels read "Channels (0)" right under
        the Channels list's own. (Only then: every label in full is the navigation's minimum width.)"""
        title = self._titles[nav_id]
        home = self._homes.get(nav_id, (None, 0))[0]
        if home is not None and self._empty is not None and self._items[nav_id].parent() is self._empty:
            same = title.casefold()
            if any(other.casefold() == same for key, other in self._titles.items() if key != nav_id):
                return f"{home.text()}: {title}"
        return title

    def _fold(self, nav_id: str, empty: bool) -> None:
        """Move a section into the "Empty" folder (nothing in it: one line for all such, not a column of
        "(0)") or back to its own place among its siblings once something arrives. The page shown stays
        marked, and no move is taken for the user's choice of another page."""
        item = self._items[nav_id]
        folded = self._empty is not None and item.parent() is self._empty
        if empty == folded or nav_id not in self._homes:
            return
        shown = self.currentIndex().data(NavIdRole)
        self._selecting = True
        try:
            self._take(item)
            if empty:
                self._empty_folder().appendRow(item)
            else:
                home, order = self._homes[nav_id]
                parent = home if home is not None else self.nav_model.invisibleRootItem()
                row = 0
                while row < parent.rowCount() and self._order_of(parent.child(row)) < order:
                    row += 1
                parent.insertRow(row, item)
            self._tidy_folders()
        finally:
            self._selecting = False
        self._labels_changed += 1
        if shown:
            self.select(shown)

    def _take(self, item: QStandardItem) -> None:
        parent = item.parent() or self.nav_model.invisibleRootItem()
        parent.takeRow(item.row())

    def _order_of(self, item: QStandardItem) -> float:
        """A row's place in the section list; a group node sits where its first section does; the Empty
        folder goes last but for Problems."""
        if item is self._empty:
            return self._homes.get("problems", (None, 10**6))[1] - 0.5
        nav_id = item.data(NavIdRole)
        if nav_id in self._homes:
            return self._homes[nav_id][1]
        orders = [o for home, o in self._homes.values() if home is item]
        return min(orders, default=10**6)

    def _empty_folder(self) -> QStandardItem:
        if self._empty is None:
            self._empty = self._item("folder", EMPTY)
            self._empty.setSelectable(False)
            self._empty.setToolTip("Sections with nothing in them")
            root = self.nav_model.invisibleRootItem()
            row = 0
            while row < root.rowCount() and self._order_of(root.child(row)) < self._order_of(self._empty):
                row += 1
            root.insertRow(row, self._empty)
            self.setRootIsDecorated(True)
        return self._empty

    def _tidy_folders(self) -> None:
        """The Empty folder says how many sections it holds, and goes when it holds none; a group whose
        sections all folded away is hidden rather than shown as a folder with nothing in it."""
        if self._empty is not None:
            if self._empty.rowCount() == 0:
                self.nav_model.invisibleRootItem().takeRow(self._empty.row())
                self._empty = None
            else:
                self._empty.setText(f"{EMPTY}  ({number(self._empty.rowCount())})")
        root = self.nav_model.invisibleRootItem()
        for row in range(root.rowCount()):
            node = root.child(row)
            if node is not self._empty and not node.data(NavIdRole):
                self.setRowHidden(row, QModelIndex(), node.rowCount() == 0)

    def needed_width(self) -> int:
        """Pixels that show every label whole: the longest text, its icon, the item padding, a scroll bar."""
        return self._measured()[0]

    def preferred_width(self) -> int:
        """The width to start with: the longest title with room for a count up to 9,999 (a larger count
        widens the navigation when it arrives)."""
        return self._measured()[1]

    def _measured(self) -> tuple[int, int]:
        bar = self.verticalScrollBar()
        key = (self._labels_changed, self.font().key(), self.iconSize().width(), self.frameWidth(),
               bar.isVisible(), self.indentation(), self.rootIsDecorated())
        if self._widths is None or self._widths[0] != key:
            metrics = QFontMetrics(self.font())
            # a page inside a folder starts an indentation further in (and every row does once folders
            # bring their arrows): measured without it, "Memory by namespace" was cut
            root = self.indentation() if self.rootIsDecorated() else 0

            def indent(item) -> int:
                return root + (self.indentation() if item.parent() is not None else 0)

            # Each row as wide as the view's own delegate draws it (icon, text, the style's margins): the
            # text and icon measured alone came ~5 px short, and "Settings and auth (2)" lost its count.
            option = QStyleOptionViewItem()
            self.initViewItemOption(option)
            delegate = self.itemDelegate()
            rows = [(delegate.sizeHint(option, item.index()).width(), metrics.horizontalAdvance(item.text()),
                     indent(item), key) for key, item in self._items.items()]
            scrollbar = bar.sizeHint().width() if bar.isVisible() else 0
            frame = 2 * self.frameWidth() + scrollbar
            needed = max((width + at for width, _, at, _ in rows), default=0) + frame
            # the titles with room for a count: each row's drawn width less its text, plus its title's
            titles = max((width - text + at + metrics.horizontalAdvance(self._titles[key])
                          for width, text, at, key in rows), default=0)
            preferred = max(needed, titles + frame + metrics.horizontalAdvance("  (9,999)"))
            self._widths = (key, needed, preferred)
        return self._widths[1], self._widths[2]

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return QSize(self.preferred_width(), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        """Never narrower than its labels: a smaller window, or a page that asks for more room, takes it
        from the page or the Details dock, not by cutting "Overview" to "Overvi"."""
        return QSize(self.needed_width(), super().minimumSizeHint().height())

    def clear_counts(self) -> None:
        for nav_id in self._items:
            self.set_count(nav_id, None)

    def icon_names(self) -> list[str]:
        """The drawing each entry shows (sections and group nodes), in navigation order."""
        out: list[str] = []

        def walk(parent: QStandardItem) -> None:
            for row in range(parent.rowCount()):
                out.append(parent.child(row).data(IconNameRole))
                walk(parent.child(row))

        walk(self.nav_model.invisibleRootItem())
        return out

    def text_of(self, nav_id: str) -> str:
        item = self._items.get(nav_id)
        return item.text() if item else ""
