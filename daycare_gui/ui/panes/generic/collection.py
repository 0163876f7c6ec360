"""A kind's own list (runs, missions, memory, checkpoints): paged rows, as a table or a tree, with the
row's detail, its links to follow, and a form for the fields the kind lets the user edit.

When the kind can search the list (``Collections.search_columns``), a search box runs the query on the
worker and shows the hits, best first, in the same list; the snippet is in the viewer beside it, and its
link opens the row in the whole list again."""

from __future__ import annotations

import datetime
import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
)

from daycare_gui.stores import api
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.records import Collection, Row
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import number
from daycare_gui.ui.models.columns import heading, list_title
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.edit_form import EditDialog, save_with_consent
from daycare_gui.ui.panes.generic.thread_list import cell_text
from daycare_gui.ui.theme import set_tone
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape, markdown_html

PAGE = 500
RowRole = Qt.ItemDataRole.UserRole + 1


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):  # a time (Conversations/Listing rows): local, as every list
        return cell_text(value)
    if isinstance(value, bool):  # as every other table of the window says it (row_table.value_text)
        return "yes" if value else "no"
    if isinstance(value, float):  # the locale's grouping and decimal mark (ui.formats)
        if not math.isfinite(value):  # a store's JSON may hold 1e400 (infinite) or NaN
            return "NaN" if math.isnan(value) else "∞" if value > 0 else "-∞"
        return number(value) if abs(value) < 1e6 else number(round(value))
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value) if abs(value) < 10**12 else str(value)
    text = mask_free_text(str(value))  # (a key pasted into a note or a memory is shown masked)
    return text if len(text) <= 200 else text[:199] + "…"


class CollectionPane(Pane):
    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.spec: Collection = ctx.arg
        self.pane_id = f"collection:{self.spec.id}"
        self.cap: api.Collections = ctx.opened.capability(api.Collections)
        layout = QVBoxLayout(self)
        # what the page is, as every list's caption says it ("Versions: Tasks cron (3)")
        self.title = list_title(self.spec.title, self.spec.group)
        self.caption = QLabel(f"<b>{escape(self.title)}</b>")
        layout.addWidget(self.caption)
        top = QHBoxLayout()
        self.filter_box = FilterBox("Filter loaded rows (Ctrl+F)")
        self.edit_button = QPushButton("Edit…")
        self.edit_button.setEnabled(False)
        try:
            self.search_columns = tuple(self.cap.search_columns(self.spec.id))
        except Exception:  # a kind's bug must not keep the list from opening
            self.search_columns = ()
        self.search_box = FilterBox(f"Search {self.spec.title.lower()} (full text, best first)", delay_ms=400)
        self.search_box.setObjectName("collectionSearch")
        self.search_box.changed.connect(self.search)
        self.search_box.returnPressed.connect(lambda: (self.search_box.cancel_pending(),
                                                       self.search(self.search_box.text())))
        self.query = ""  # the search whose hits the list shows; "" while it shows the rows
        top.addWidget(self.search_box, 1)
        top.addWidget(self.filter_box, 1)
        top.addWidget(self.edit_button)
        layout.addLayout(top)
        self.search_box.setVisible(bool(self.search_columns))  # (parented by now: never a window of its own)
        # A kind's warning about the hits shown (e.g. an index out of step with the list), above them.
        self.search_warning = QLabel()
        self.search_warning.setObjectName("searchWarning")
        self.search_warning.setWordWrap(True)
        self.search_warning.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        set_tone(self.search_warning, "warning")  # coloured from the palette by the app's rules
        self.search_warning.hide()
        layout.addWidget(self.search_warning)
        self.tree = QTreeWidget()
        self.tree.setObjectName("collectionRows")
        self.tree.setColumnCount(len(self.spec.columns))
        self.tree.setHeaderLabels([heading(c) for c in self.spec.columns])
        self.tree.setRootIsDecorated(self.spec.tree)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSortingEnabled(not self.spec.tree)
        self.tree.header().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the store's order (owner first) until a click
        self.viewer = SafeTextBrowser()
        self.viewer.setPlaceholderText("Select a row to read it whole here.")
        self.viewer.anchorClicked.connect(self._link)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.viewer)
        split.setSizes([700, 400])
        layout.addWidget(split, 1)
        bottom = QHBoxLayout()
        self.summary = QLabel("Loading…")
        self.more_button = QPushButton("Load more")
        self.more_button.setVisible(False)
        bottom.addWidget(self.summary, 1)
        bottom.addWidget(self.more_button)
        layout.addLayout(bottom)
        self.tree.currentItemChanged.connect(self._selected)
        self.tree.itemActivated.connect(lambda _item, _column: self._follow(0))  # Enter: the row's first link
        self.filter_box.changed.connect(self._filter)
        self.more_button.clicked.connect(self._more)
        self.edit_button.clicked.connect(self._edit)
        self.total = 0
        self.items: int | None = None  # a tree's own items, where its rows also hold groups (Collections.items)
        self.loaded = 0
        self._items: dict[str, QTreeWidgetItem] = {}
        self._pending: str | None = None

    def load(self) -> None:
        self.ctx.worker.cancel(f"{self.pane_id}-search")
        self.query = ""
        self.search_warning.hide()
        self._columns(self.spec.columns, tree=self.spec.tree)
        self.tree.clear()
        self._items.clear()
        self.loaded = 0
        cap, cid = self.cap, self.spec.id
        self.ctx.worker.submit(f"{self.pane_id}-page",
                               lambda: (cap.size(cid), cap.items(cid), cap.rows(cid, 0, PAGE)),
                               on_result=self._first_arrived,
                               on_error=lambda m: self.summary.setText(f"Could not read: {m}"))

    def _first_arrived(self, answer) -> None:
        self.total, self.items, rows = answer
        self._add(rows)

    def _more(self) -> None:
        cap, cid, start = self.cap, self.spec.id, self.loaded
        self.ctx.worker.submit(f"{self.pane_id}-page", lambda: cap.rows(cid, start, PAGE), on_result=self._add)

    def _add(self, rows: list[Row]) -> None:
        for row in rows:
            item = QTreeWidgetItem([_text(v) for v in row.values])
            item.setData(0, RowRole, row)
            tip = row.problem or row.flag
            if row.flag or row.problem:
                for col in range(len(row.values)):
                    item.setForeground(col, Qt.GlobalColor.red)
                    item.setToolTip(col, tip)
            parent = self._items.get(row.parent) if row.parent else None
            (parent.addChild(item) if parent is not None else self.tree.addTopLevelItem(item))
            self._items[row.key] = item
        self.loaded += len(rows)
        if self.spec.tree:
            self.tree.expandToDepth(1)
        for col in range(self.tree.columnCount()):
            self.tree.resizeColumnToContents(col)
        more = self.loaded < self.total
        self.more_button.setVisible(more)
        rows_text = f"{self.loaded:,} of {self.total:,} rows" if more else f"{self.total:,} rows"
        if self.items is not None and self.items != self.total:  # ("6 items (11 rows with their groups)")
            rows_text = f"{self.items:,} items ({rows_text} with their groups and parts)"
        self.summary.setText(rows_text)
        shown = self.items if self.items is not None else self.total
        self.caption.setText(f"<b>{escape(self.title)}</b> ({shown:,})")
        self.ctx.set_count(self.pane_id, shown)
        if self._pending is not None:
            self.open_item(self._pending)

    # -- search -------------------------------------------------------------------------------------------
    def _columns(self, titles, *, tree: bool) -> None:
        titles = [heading(c) for c in titles]
        if [self.tree.headerItem().text(i) for i in range(self.tree.columnCount())] != titles:
            self.tree.clear()
            self.tree.setColumnCount(len(titles))
            self.tree.setHeaderLabels(titles)
        self.tree.setRootIsDecorated(tree)
        self.tree.setSortingEnabled(not tree)

    def search(self, text: str) -> None:
        """Show the hits for ``text`` in the list (an empty text: the rows again)."""
        query = text.strip()
        if not self.search_columns or query == self.query:
            return
        if not query:
            self.load()
            return
        cap, cid = self.cap, self.spec.id
        self.summary.setText(f"Searching for “{query}”…")
        self.ctx.worker.submit(f"{self.pane_id}-search", lambda: cap.search_rows(cid, query, PAGE),
                               on_result=lambda hits, q=query: self._hits_arrived(q, hits),
                               on_error=lambda m: self.summary.setText(f"Search failed: {m}"))

    def _hits_arrived(self, query: str, hits: list[Row]) -> None:
        self.query = query
        self._columns(self.search_columns, tree=False)
        self.tree.setSortingEnabled(False)  # best first, as the index ranked them
        self.tree.clear()
        self._items.clear()
        problem = next((h.problem for h in hits if h.problem and not h.key), None)
        warning = next((h.flag for h in hits if h.flag and not h.key and not h.problem), None)
        self.search_warning.setText(f"⚠ {warning}" if warning else "")
        self.search_warning.setVisible(bool(warning))
        found = [h for h in hits if h.key]
        for row in found:
            item = QTreeWidgetItem([_text(v) for v in row.values])
            item.setData(0, RowRole, row)
            self.tree.addTopLevelItem(item)
            self._items[row.key] = item
        for col in range(self.tree.columnCount() - 1):  # the snippet takes the rest
            self.tree.resizeColumnToContents(col)
        self.more_button.setVisible(False)
        more = " (the best shown)" if len(found) >= PAGE else ""
        self.summary.setText(problem or f"{len(found):,} {'hit' if len(found) == 1 else 'hits'} for “{query}”{more}")
        if found:
            self.tree.setCurrentItem(self.tree.topLevelItem(0))

    def _filter(self, text: str) -> None:
        needle = text.lower()
        for item in self._items.values():
            row: Row = item.data(0, RowRole)
            hay = " ".join(_text(v) for v in row.values).lower()
            item.setHidden(bool(needle) and needle not in hay and not self.spec.tree)

    def link_target(self, _view=None) -> tuple[str, str] | None:
        row = self.current_row()
        return ("row", f"{self.spec.id}:{row.key}") if row is not None else None

    def current_row(self) -> Row | None:
        item = self.tree.currentItem()
        return item.data(0, RowRole) if item is not None else None

    def _selected(self, current, _previous) -> None:
        row = current.data(0, RowRole) if current is not None else None
        if row is None:
            return
        titles = self.search_columns if self.query else self.spec.columns
        fields = tuple((heading(c), _text(v)) for c, v in zip(titles, row.values))
        if row.flag:
            fields += (("Flag", row.flag),)
        if row.problem:
            fields += (("Problem", row.problem),)
        self.ctx.show_detail(DetailItem(_text(row.values[0]) if row.values else row.key, fields, raw=row.raw,
                                        markdown=row.markdown))
        links = "".join(f"<li><a href='link:{i}'>{escape(str(lk.label or lk.target))}</a></li>" for i, lk in enumerate(row.links))
        # one setHtml (not append): the viewer lays out what it was given again when the palette changes
        links_html = f"<p><b>Links</b></p><ul>{links}</ul>" if links else ""
        self.viewer.setHtml(markdown_html(row.markdown or "") + links_html)
        try:
            self.edit_button.setEnabled(bool(self.cap.editable(self.spec.id, row)))
        except Exception:
            self.edit_button.setEnabled(False)

    def _link(self, url) -> None:
        if url.scheme() == "link":
            self._follow(int(url.path()))

    def _follow(self, index: int) -> None:
        row = self.current_row()
        if row is None or not 0 <= index < len(row.links):
            return
        link = row.links[index]
        from daycare_gui.ui.panes.generic import link_route

        if link.target in ("session", "threads"):  # routed as quick open routes them
            self.ctx.navigate(*link_route(self.ctx.opened, link))
        elif link.target == "row":
            cid, key = link.value
            if cid == self.spec.id and self.query:  # from a hit to the entry in the whole list
                self.search_box.blockSignals(True)
                self.search_box.clear()
                self.search_box.cancel_pending()
                self.search_box.blockSignals(False)
                self.load()
            self.ctx.navigate(*link_route(self.ctx.opened, link))

    def _edit(self) -> None:
        row = self.current_row()
        if row is None:
            return
        fields = self.cap.editable(self.spec.id, row)
        raw = row.raw if isinstance(row.raw, dict) else {}
        dialog = EditDialog(f"Edit {row.key}", fields, {f.name: raw.get(f.name) for f in fields}, self)
        if not dialog.exec():
            return
        changes = dialog.changes()
        if not changes:
            return
        cap, cid = self.cap, self.spec.id
        save_with_consent(self, self.ctx.worker, f"{self.pane_id}-save",
                          lambda force: cap.update(cid, row, changes, force=force), lambda _row: self.load())

    def open_item(self, target) -> None:
        item = self._items.get(str(target))
        if item is None:
            self._pending = str(target) if self.loaded < self.total or not self.loaded else None
            return
        self._pending = None
        self.tree.setCurrentItem(item)
        self.tree.scrollToItem(item)

    def rows_shown(self) -> list[Row]:
        return [item.data(0, RowRole) for item in self._items.values()]
