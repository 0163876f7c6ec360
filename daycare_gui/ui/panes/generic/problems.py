"""Problems of any opened store: every file, line and value that did not read.

The list is the store's problem log after its deep scan (``OpenedStore.scan``, which adds what reading every
file finds), fetched on the worker. The filter narrows the loaded list (it is small and already in memory);
errors are coloured; a double-click or Enter copies ``path:line`` so the user can open the spot in an editor.
"""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QLabel, QTableView, QVBoxLayout

from daycare_gui.stores.problems import Problem
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.models.roles import RecordRole, SortRole
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.theme import colours
from daycare_gui.ui.widgets.filter_bar import FilterBox

PROBLEM_COLUMNS = [
    Column("Severity", lambda p: p.severity),
    Column("Path", lambda p: p.path, tooltip=lambda p: p.path),
    Column("Line", lambda p: p.line, align_right=True, sort_value=lambda p: -1 if p.line is None else p.line),
    Column("Message", lambda p: p.message, tooltip=lambda p: p.message),
]


def location(problem: Problem) -> str:
    return f"{problem.path}:{problem.line}" if problem.line is not None else problem.path


class ProblemModel(RecordListModel):
    """Problems with errors in red, so they stand out from warnings."""

    def __init__(self, parent=None) -> None:
        # (two problems may share a line: the message tells them apart)
        super().__init__(PROBLEM_COLUMNS, key=lambda p: f"{location(p)}:{p.message}", state=lambda p: p.severity,
                         parent=parent)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid() and index.column() == 0:
            problem = self.record(index.row())
            if problem is not None and problem.severity == "error":
                return QColor(colours().states["error"])
        return super().data(index, role)


class ProblemFilter(QSortFilterProxyModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterKeyColumn(-1)  # any column
        self.setSortRole(SortRole)


def scanned_problems(opened) -> list[Problem]:
    """On the worker: the deep scan first (it adds to the log), then every problem in the order found."""
    opened.scan()
    return opened.problems.as_list()


class ProblemsPane(Pane):
    pane_id = "problems"
    title = "Problems"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.filter_box = FilterBox("Filter problems by path, message or severity (Ctrl+F)", delay_ms=120)
        self.summary = QLabel("Loading…")
        bar.addWidget(self.filter_box, 1)
        bar.addWidget(self.summary, 0, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(bar)
        self.model = ProblemModel(self)
        self.proxy = ProblemFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        # No sort column at first: problems keep the order they were found in until a header is clicked.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setWordWrap(False)
        self.table.activated.connect(self._copy_location)  # Enter and double-click
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        layout.addWidget(self.table, 1)
        self.hint = QLabel("Double-click or press Enter on a problem to copy its path:line.")
        layout.addWidget(self.hint)
        self.filter_box.changed.connect(self._filter)
        self.filter_box.returnPressed.connect(self.table.setFocus)

    def load(self) -> None:
        opened = self.ctx.opened
        self.ctx.worker.submit("problems", lambda: scanned_problems(opened), on_result=self._arrived,
                               on_error=lambda msg: self.summary.setText(f"Cannot list problems: {msg}"))

    def _arrived(self, problems: list[Problem]) -> None:
        self.model.set_records(problems)
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(1, min(self.table.columnWidth(1), 520))
        self.ctx.set_count("problems", len(problems))
        self._update_summary()
        if problems:
            self.table.selectRow(0)

    def _filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())
        self._update_summary()

    def _update_summary(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        errors = sum(1 for p in self.model.records() if p.severity == "error")
        text = f"{count(total, 'problem')}: {count(errors, 'error')}, {count(total - errors, 'warning')}"
        if shown != total:
            text = f"{shown:,} of {text}"
        self.summary.setText(text if total else "No problems found while loading this store.")

    def problem_at(self, proxy_row: int) -> Problem | None:
        return self.proxy.index(proxy_row, 0).data(RecordRole)

    def _selected(self, current, _previous) -> None:
        problem = self.problem_at(current.row()) if current.isValid() else None
        if problem is None:
            return
        self.ctx.show_detail(DetailItem(
            f"Problem in {problem.path}",
            (("Severity", problem.severity), ("Path", problem.path),
             ("Line", "" if problem.line is None else str(problem.line)), ("Message", problem.message),
             ("Location", location(problem))),
            problem.to_dict()))

    def _copy_location(self, index) -> None:
        problem = self.problem_at(index.row())
        if problem is not None:
            QGuiApplication.clipboard().setText(location(problem))
            self.hint.setText(f"Copied {location(problem)}")

    def open_item(self, target) -> None:
        """``target``: text to filter by (e.g. a path)."""
        if isinstance(target, str):
            self.filter_box.setText(target)
            self._filter(target)
