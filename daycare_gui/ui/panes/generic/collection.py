"""A kind's own list (runs, missions, memory, checkpoints): paged rows, as a table or a tree, with the
row's detail, its links to follow, and a form for the fields the kind lets the user edit."""

from __future__ import annotations

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
from daycare_gui.stores.records import Collection, Row
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.edit_form import EditDialog, save_with_consent
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, set_markdown

PAGE = 500
RowRole = Qt.ItemDataRole.UserRole + 1


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1e6 else f"{value:,.0f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}" if abs(value) < 10**12 else str(value)
    text = str(value)
    return text if len(text) <= 200 else text[:199] + "…"


class CollectionPane(Pane):
    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.spec: Collection = ctx.arg
        self.pane_id = f"collection:{self.spec.id}"
        self.cap: api.Collections = ctx.opened.capability(api.Collections)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.filter_box = FilterBox("Filter loaded rows (Ctrl+F)")
        self.edit_button = QPushButton("Edit…")
        self.edit_button.setEnabled(False)
        top.addWidget(self.filter_box, 1)
        top.addWidget(self.edit_button)
        layout.addLayout(top)
        self.tree = QTreeWidget()
        self.tree.setObjectName("collectionRows")
        self.tree.setColumnCount(len(self.spec.columns))
        self.tree.setHeaderLabels(list(self.spec.columns))
        self.tree.setRootIsDecorated(self.spec.tree)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSortingEnabled(not self.spec.tree)
        self.viewer = SafeTextBrowser()
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
        self.filter_box.changed.connect(self._filter)
        self.more_button.clicked.connect(self._more)
        self.edit_button.clicked.connect(self._edit)
        self.total = 0
        self.loaded = 0
        self._items: dict[str, QTreeWidgetItem] = {}
        self._pending: str | None = None

    def load(self) -> None:
        self.tree.clear()
        self._items.clear()
        self.loaded = 0
        cap, cid = self.cap, self.spec.id
        self.ctx.worker.submit(f"{self.pane_id}-page", lambda: (cap.size(cid), cap.rows(cid, 0, PAGE)),
                               on_result=self._first_arrived,
                               on_error=lambda m: self.summary.setText(f"Could not read: {m}"))

    def _first_arrived(self, answer) -> None:
        self.total, rows = answer
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
        self.summary.setText(f"{self.loaded:,} of {self.total:,} rows" if more else f"{self.total:,} rows")
        self.ctx.set_count(self.pane_id, self.total)
        if self._pending is not None:
            self.open_item(self._pending)

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
        fields = tuple((c, _text(v)) for c, v in zip(self.spec.columns, row.values))
        if row.flag:
            fields += (("Flag", row.flag),)
        if row.problem:
            fields += (("Problem", row.problem),)
        self.ctx.show_detail(DetailItem(_text(row.values[0]) if row.values else row.key, fields, raw=row.raw,
                                        markdown=row.markdown))
        links = "".join(f"<li><a href='link:{i}'>{lk.label or lk.target}</a></li>" for i, lk in enumerate(row.links))
        set_markdown(self.viewer, row.markdown or "")
        if links:
            self.viewer.append(f"<p><b>Links</b></p><ul>{links}</ul>")
        try:
            self.edit_button.setEnabled(bool(self.cap.editable(self.spec.id, row)))
        except Exception:
            self.edit_button.setEnabled(False)

    def _link(self, url) -> None:
        row = self.current_row()
        if row is None or url.scheme() != "link":
            return
        link = row.links[int(url.path())]
        if link.target == "session":
            self.ctx.navigate("conversations", link.value)
        elif link.target == "row":
            cid, key = link.value
            self.ctx.navigate(f"collection:{cid}", key)

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
