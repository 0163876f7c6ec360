"""The window without a mouse: F6 moves between its areas, and Help → Keyboard Shortcuts lists every key.

The list is generated from ``ui.actions`` (the window's actions and the keys panes and dialogs bind), so
it cannot go stale: a test fails when a source binds a key the registry does not list.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.ui.actions import shortcut_rows


def focus_areas(window) -> list[QWidget]:
    """Navigation, the current page's main list (else the page), and the Details dock when shown."""
    areas: list[QWidget] = []
    if window.central.currentWidget() is window.splitter:
        areas.append(window.nav)
        pane = window.pane_stack.currentWidget()
        if pane is not None:
            areas.append(_main_view(pane) or pane)
    else:
        areas.append(window.welcome)
    if window.detail_dock.isVisible():
        areas.append(window.detail)
    return areas


def _main_view(pane: QWidget) -> QWidget | None:
    """The list the page is about: its ``table`` when it names one, else its first visible list."""
    named = getattr(pane, "table", None)
    if isinstance(named, QAbstractItemView) and named.isVisible():
        return named
    return next((v for v in pane.findChildren(QAbstractItemView) if v.isVisible()
                 and v.focusPolicy() != Qt.FocusPolicy.NoFocus), None)


def cycle_focus(window, step: int) -> None:
    """F6 / Shift+F6: the keyboard focus to the next (previous) area."""
    areas = focus_areas(window)
    if not areas:
        return
    focused = window.focusWidget()
    current = next((i for i, a in enumerate(areas) if focused is not None and (focused is a or a.isAncestorOf(focused))),
                   -1)
    target = areas[(current + step) % len(areas)] if current >= 0 else areas[0 if step > 0 else -1]
    if target.focusPolicy() == Qt.FocusPolicy.NoFocus:
        target.setFocus(Qt.FocusReason.TabFocusReason)
        target.focusNextChild()
    else:
        target.setFocus(Qt.FocusReason.TabFocusReason)


class ShortcutsDialog(QDialog):
    def __init__(self, texts: dict[str, str], parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard Shortcuts")
        layout = QVBoxLayout(self)
        self.table = QTreeWidget()
        self.table.setObjectName("shortcutsTable")
        self.table.setHeaderLabels(["Keys", "What it does", "Where"])
        self.table.setRootIsDecorated(False)
        self.table.setAlternatingRowColors(True)
        self.rows = shortcut_rows(texts)
        self.table.addTopLevelItems([QTreeWidgetItem(list(row)) for row in self.rows])
        self.table.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        self.resize(620, 560)
