"""What the shared documents page shows beside a document's text: a masked outline (settings, credentials:
keys and which are set, never a secret) and the earlier versions a system keeps, each as a diff."""

from __future__ import annotations

import difflib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from daycare_gui.stores.records import Row
from daycare_gui.ui.widgets.filter_bar import FilterBox

DIFF_LINES = 2000  # lines of a diff shown


class OutlineView(QWidget):
    """``Row``s with parent keys as a tree of (key, value), filtered by key or value (parents of a match
    stay visible). The rows come masked from the store; nothing here sees the document's bytes."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.filter_box = FilterBox("Filter keys and values (Ctrl+F)", delay_ms=120)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Key", "Value"])
        self.tree.setColumnWidth(0, 280)
        layout.addWidget(self.filter_box)
        layout.addWidget(self.tree, 1)
        self.filter_box.changed.connect(self._filter)
        self.rows: list[Row] = []

    def set_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self.tree.clear()
        items: dict[str, QTreeWidgetItem] = {}
        for row in rows:
            key, value = (list(row.values) + ["", ""])[:2]
            item = QTreeWidgetItem([str(key), "" if value is None else str(value)])
            item.setData(0, Qt.ItemDataRole.UserRole, row)
            item.setToolTip(1, item.text(1))
            parent = items.get(row.parent) if row.parent is not None else None
            if parent is not None:
                parent.addChild(item)
            else:
                self.tree.addTopLevelItem(item)
            items[row.key] = item
        self.tree.expandToDepth(0)
        self._filter(self.filter_box.text())

    def current_row(self) -> Row | None:
        item = self.tree.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()

        def visit(item: QTreeWidgetItem) -> bool:
            own = not needle or needle in item.text(0).lower() or needle in item.text(1).lower()
            child_match = False
            for i in range(item.childCount()):
                child_match = visit(item.child(i)) or child_match
            item.setHidden(not (own or child_match))
            if needle and child_match:
                item.setExpanded(True)
            return own or child_match

        for i in range(self.tree.topLevelItemCount()):
            visit(self.tree.topLevelItem(i))


def version_diff(old: bytes, new: bytes, old_title: str) -> str:
    """What changed from an earlier version to the document now, as Markdown (a diff block)."""
    a = old.decode("utf-8", errors="replace").splitlines()
    b = new.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(a, b, old_title, "now", lineterm=""))
    if not lines:
        return f"*{old_title} is the same as the document now.*"
    shown = lines[:DIFF_LINES] + (["… (diff cut)"] if len(lines) > DIFF_LINES else [])
    return "```diff\n" + "\n".join(shown) + "\n```"


def body_of(text: str) -> str:
    """The text to render: a leading frontmatter block is left out (its fields are in the detail pane)."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                return "\n".join(lines[i + 1:]).lstrip("\n")
    return text
