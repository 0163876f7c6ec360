"""The detail pane: parsed fields of the selected item and its raw JSON, each copyable."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.widgets.json_view import pretty_json
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, set_markdown
from daycare_gui.ui.widgets.tables import ColumnFitter


class DetailPane(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("detailPane")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.heading = QLabel("Nothing selected")
        self.heading.setWordWrap(True)
        self.heading.setObjectName("detailHeading")
        layout.addWidget(self.heading)
        self.tabs = QTabWidget()
        self.fields = QTableWidget(0, 2)
        self.fields.setHorizontalHeaderLabels(["Field", "Value"])
        self.fields.horizontalHeader().setStretchLastSection(True)
        self.fields.verticalHeader().hide()
        self.fields.setWordWrap(True)
        self.fields.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        # names as wide as they need (up to 130 px), values the rest, wrapped: no sideways scrolling in a
        # narrow dock
        self.fields.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.fitter = ColumnFitter(self.fields, stretch=1, cap=130)
        self.fields.horizontalHeader().sectionResized.connect(lambda *_: self.fields.resizeRowsToContents())
        self.text = SafeTextBrowser()
        self.raw = QPlainTextEdit()
        self.raw.setReadOnly(True)
        self.raw.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.tabs.addTab(self.fields, "Fields")
        self.tabs.addTab(self.text, "Text")
        self.tabs.addTab(self.raw, "Raw JSON")
        layout.addWidget(self.tabs, 1)
        buttons = QHBoxLayout()
        self.copy_fields = QPushButton("Copy fields")
        self.copy_raw = QPushButton("Copy JSON")
        self.copy_fields.clicked.connect(self._copy_fields)
        self.copy_raw.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.raw.toPlainText()))
        buttons.addWidget(self.copy_fields)
        buttons.addWidget(self.copy_raw)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        self.item: DetailItem | None = None
        self.show_item(None)

    def show_item(self, item: DetailItem | None) -> None:
        self.item = item
        if item is None:
            self.heading.setText("Nothing selected")
            self.fields.setRowCount(0)
            self.raw.setPlainText("")
            self.text.setHtml("")
            self.tabs.setTabEnabled(1, False)
            return
        self.heading.setText(f"<b>{item.title}</b>")
        self.fields.setRowCount(len(item.fields))
        for row, (key, value) in enumerate(item.fields):
            self.fields.setItem(row, 0, QTableWidgetItem(key))
            self.fields.setItem(row, 1, QTableWidgetItem(value))
        self.fitter.fit()
        self.fields.resizeRowsToContents()
        self.raw.setPlainText(pretty_json(item.raw) if item.raw is not None else "")
        self.tabs.setTabEnabled(1, item.markdown is not None)
        if item.markdown is not None:
            set_markdown(self.text, item.markdown)
        elif self.tabs.currentIndex() == 1:
            self.tabs.setCurrentIndex(0)
        if item.prefer_raw:
            self.tabs.setCurrentWidget(self.raw)

    def _copy_fields(self) -> None:
        if self.item is None:
            return
        QGuiApplication.clipboard().setText("\n".join(f"{k}: {v}" for k, v in self.item.fields))
