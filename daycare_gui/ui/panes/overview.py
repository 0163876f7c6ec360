"""Overview: what this store is, how it is opened, what it holds, token usage and activity over time."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column, fmt_int
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.theme import set_tone
from daycare_gui.ui.widgets.charts import ActivityChart, TokenUsageChart
from daycare_gui.ui.widgets.tables import make_table

if TYPE_CHECKING:
    from daycare_gui.core.queries.overview import StoreSummary

@dataclass(frozen=True)
class CountRow:
    id: str
    count: int


COUNT_COLUMNS = [Column("Name", lambda r: r.id), Column("Count", lambda r: r.count, fmt_int, align_right=True)]


def _label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _count_table(model) -> QTableView:
    view = make_table(model, row_height=22)
    view.setMinimumHeight(260)
    return view


class OverviewPane(Pane):
    has_details = False  # a summary page: nothing to select, so the Details dock stays out of the way
    pane_id = "overview"
    title = "Overview"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.summary: StoreSummary | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        layout = QVBoxLayout(body)

        self.heading = _label(f"<h2>{escape(ctx.store.title)}</h2>")
        layout.addWidget(self.heading)

        form = QFormLayout()
        self.generation_label = _label(ctx.store.generation)
        self.engine_label = _label(("running — " if ctx.store.engine.running else "not running — ")
                                   + ctx.store.engine.detail)
        self.mode_label = _label("…")
        self.migrations_label = _label(ctx.store.migrations.generation_label)
        self.notes_label = _label()
        form.addRow("Storage:", self.generation_label)
        form.addRow("Engine:", self.engine_label)
        form.addRow("Database:", self.mode_label)
        form.addRow("Migrations:", self.migrations_label)
        form.addRow("Notes:", self.notes_label)
        layout.addLayout(form)
        self.explanation_label = _label()
        self.explanation_label.setStyleSheet("padding: 6px; border: 1px solid palette(mid); border-radius: 4px;")
        self.explanation_label.hide()
        layout.addWidget(self.explanation_label)

        problems_row = QHBoxLayout()
        self.problems_label = _label("Counting problems…")
        self.problems_button = QPushButton("Show problems")
        self.problems_button.setToolTip("Open the Problems pane (every file, line and value that did not read)")
        self.problems_button.clicked.connect(lambda: self.ctx.navigate("problems", None))
        self.storage_button = QPushButton("Tables and migrations…")
        self.storage_button.clicked.connect(lambda: self.ctx.navigate("storage", None))
        problems_row.addWidget(self.problems_label, 1)
        problems_row.addWidget(self.problems_button)
        problems_row.addWidget(self.storage_button)
        layout.addLayout(problems_row)

        # Stacked, full width: model names are long and the day axis needs room for its dates.
        self.token_chart = TokenUsageChart()
        self.activity_chart = ActivityChart()
        layout.addWidget(self.token_chart)
        layout.addWidget(self.activity_chart)

        counts = QHBoxLayout()
        self.tables_model = RecordListModel(COUNT_COLUMNS)
        self.files_model = RecordListModel(COUNT_COLUMNS)
        self.tables_view = _count_table(self.tables_model)
        self.tables_view.setToolTip("Press Enter to browse a table in Storage")
        self.tables_view.activated.connect(self._open_table)
        self.files_view = _count_table(self.files_model)
        self.tables_box = QGroupBox("Database tables (rows)")
        self.files_box = QGroupBox("File collections (items)")
        for box, view in ((self.tables_box, self.tables_view), (self.files_box, self.files_view)):
            inner = QVBoxLayout(box)
            inner.addWidget(view)
            counts.addWidget(box, 1)
        layout.addLayout(counts)
        self.error_label = _label()
        set_tone(self.error_label, "error")
        layout.addWidget(self.error_label)
        layout.addStretch(1)
        self.setTabOrder(self.problems_button, self.storage_button)
        self.setTabOrder(self.storage_button, self.tables_view)
        self.setTabOrder(self.tables_view, self.files_view)

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        store = self.ctx.store

        def summary():  # on the background worker, which runs only once the preloader has imported this
            from daycare_gui.core.queries.overview import store_summary

            return store_summary(store)

        self.ctx.slow_worker.submit("overview", summary, on_result=self._arrived, on_error=self._failed)

    def _failed(self, message: str) -> None:
        self.error_label.setText(f"Could not load the overview: {message}")
        for chart in (self.token_chart, self.activity_chart):
            chart.show_message("Not counted: the overview could not be loaded.")

    def _arrived(self, s: StoreSummary) -> None:
        self.summary = s
        self.generation_label.setText(f"{s.generation_text} — generation “{s.generation}”")
        self.engine_label.setText(s.engine_text)
        self.mode_label.setText(s.mode_text)
        self.migrations_label.setText(s.migrations_label)
        self.notes_label.setText("\n".join(s.notes) if s.notes else "none")
        self.explanation_label.setText(s.explanation)
        self.explanation_label.setVisible(bool(s.explanation))
        if s.problems:
            # (what opening found: pages find more as they read, which the navigation's count follows)
            self.problems_label.setText(f"{count(s.problems, 'problem')} found while loading "
                                        f"({count(s.problem_errors, 'error')}, "
                                        f"{count(s.problems - s.problem_errors, 'warning')}); pages may find "
                                        "more as they read (see Problems).")
        else:
            self.problems_label.setText("No problems found while loading; pages may find some as they read "
                                        "(see Problems).")
        self.ctx.set_count("problems", s.problems)
        self.tables_model.set_records([CountRow(t, n) for t, n in s.table_counts.items()])
        self.files_model.set_records([CountRow(c, n) for c, n in s.file_counts.items()])
        self.tables_box.setTitle(f"Database tables ({len(s.table_counts)})" if s.table_counts
                                 else "Database tables — no database")
        self.files_box.setTitle(f"File collections ({len(s.file_counts)} with items)")
        for view in (self.tables_view, self.files_view):
            view.resizeColumnToContents(0)
        # A count that failed is said once, in its chart, where its numbers would be.
        if s.token_failure:
            self.token_chart.show_message(f"Could not count token usage: {s.token_failure}")
        else:
            self.token_chart.set_usage(s.tokens)
        if s.activity_failure:
            self.activity_chart.show_message(f"Could not count activity: {s.activity_failure}")
        else:
            self.activity_chart.set_days(s.activity)
        self.error_label.setText("")  # (only the overview failing as a whole is said here)

    def _open_table(self, index) -> None:
        row = self.tables_model.record(index.row())
        if row is not None:
            self.ctx.navigate("storage", row.id)

    def focus_filter(self) -> None:
        self.tables_view.setFocus()
