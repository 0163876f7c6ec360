"""Storage: every table with its row count and columns, a paged read-only table browser, and migrations.

Rows are fetched by rowid, one page at a time, through the worker (more arrive when the view is scrolled to
the end or "Load more" is pressed). JSON columns are shown parsed and masked where sensitive (the core does
both). Upgrading is not here: the Storage menu has "Upgrade Storage…" (see ``actions.menu_path``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from daycare_gui.core.queries.overview import (
    MigrationLine,
    TableInfo,
    migration_lines,
    migration_summary,
    table_infos,
)
from daycare_gui.core.queries.subsystems import ShownRow, page_shown_rows
from daycare_gui.ui.actions import menu_path
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column, fmt_int, fmt_time
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.theme import colours
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.row_table import RowTable, row_detail
from daycare_gui.ui.widgets.tables import make_table

PAGE = 200

TABLE_COLUMNS = [
    Column("Table", lambda t: t.name),
    Column("Rows", lambda t: t.rows, fmt_int, align_right=True, sort_value=lambda t: -1 if t.rows is None else t.rows),
    Column("Columns", lambda t: ", ".join(t.columns), tooltip=lambda t: "\n".join(t.columns)),
]

MIGRATION_COLUMNS = [
    Column("#", lambda m: m.order, align_right=True),
    Column("Status", lambda m: m.line.status),
    Column("Migration", lambda m: m.line.name),
    Column("Applied at", lambda m: m.line.applied_at, fmt_time),
    Column("Note", lambda m: m.line.note, tooltip=lambda m: m.line.note),
]
STATUS_STATES = ("pending", "unknown", "later pending")  # coloured from the palette (theme.Colours.states)


class _NumberedLine:
    """A migration line with its position (applied order first), keyed for the list model."""

    def __init__(self, order: int | None, line: MigrationLine) -> None:
        self.order = order
        self.line = line
        self.id = line.id


class MigrationModel(RecordListModel):
    def __init__(self, parent=None) -> None:
        super().__init__(MIGRATION_COLUMNS, parent=parent)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if role == Qt.ItemDataRole.ForegroundRole and index.isValid():
            rec = self.record(index.row())
            status = rec.line.status if rec is not None else None
            return QColor(colours().states[status]) if status in STATUS_STATES else None
        return super().data(index, role)


def _list_view(model) -> QTableView:
    return make_table(model, row_height=22)


class StoragePane(Pane):
    pane_id = "storage"
    title = "Storage"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        self.summary = QLabel("Loading…")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.summary)
        self.tabs = QTabWidget()
        layout.addWidget(self.tabs, 1)

        # -- tables and the browser -----------------------------------------------------------------
        tables_page = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        left_box = QVBoxLayout(left)
        left_box.setContentsMargins(0, 0, 0, 0)
        self.filter_box = FilterBox("Filter tables by name or column (Ctrl+F)", delay_ms=100)
        self.tables_model = RecordListModel(TABLE_COLUMNS, key=lambda t: t.name)
        self.tables_view = _list_view(self.tables_model)
        self.tables_view.selectionModel().currentRowChanged.connect(self._table_selected)
        self.tables_view.activated.connect(lambda _i: self.browser.setFocus())
        left_box.addWidget(self.filter_box)
        left_box.addWidget(self.tables_view, 1)
        self.browser = RowTable("Select a table to browse its rows (read-only).")
        self.browser.row_selected.connect(self._row_selected)
        self.more_button = QPushButton("Load more rows")
        self.more_button.setEnabled(False)
        self.more_button.clicked.connect(self._load_more)
        right = QWidget()
        right_box = QVBoxLayout(right)
        right_box.setContentsMargins(0, 0, 0, 0)
        right_box.addWidget(self.browser, 1)
        more_row = QHBoxLayout()
        more_row.addStretch(1)
        more_row.addWidget(self.more_button)
        right_box.addLayout(more_row)
        tables_page.addWidget(left)
        tables_page.addWidget(right)
        tables_page.setSizes([380, 700])
        self.tabs.addTab(tables_page, "Tables")
        self.browser.view.verticalScrollBar().valueChanged.connect(self._scrolled)

        # -- migrations ---------------------------------------------------------------------------------
        self.migration_model = MigrationModel(self)
        self.migrations_view = _list_view(self.migration_model)
        self.migrations_view.selectionModel().currentRowChanged.connect(self._migration_selected)
        migrations_page = QWidget()
        mig_box = QVBoxLayout(migrations_page)
        self.migration_text = QLabel()
        self.migration_text.setWordWrap(True)
        self.migration_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        mig_box.addWidget(self.migration_text)
        mig_box.addWidget(self.migrations_view, 1)
        self.upgrade_hint = QLabel(f"To apply pending migrations use {menu_path('upgrade')} "
                                   "(it makes a backup and works on a copy first).")
        mig_box.addWidget(self.upgrade_hint)
        self.tabs.addTab(migrations_page, "Migrations")

        self.filter_box.changed.connect(self._filter_tables)
        self.filter_box.returnPressed.connect(self.tables_view.setFocus)
        self.infos: list[TableInfo] = []
        self._table: str | None = None
        self._exhausted = True
        self._loading = False
        self._pending_table: str | None = None

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        store = self.ctx.store
        state = store.migrations
        lines = migration_lines(state)
        numbered, order = [], 0
        for line in lines:
            if line.applied_at is not None or line.status in ("applied", "unknown"):
                order += 1
                numbered.append(_NumberedLine(order, line))
            else:
                numbered.append(_NumberedLine(None, line))
        self.migration_model.set_records(numbered)
        self.migrations_view.resizeColumnsToContents()
        self.migration_text.setText(migration_summary(state))
        self.tabs.setTabText(1, f"Migrations ({len(state.applied)} applied"
                                + (f", {len(state.pending)} pending" if state.pending else "")
                                + (f", {len(state.later_pending)} later pending" if state.later_pending else "")
                                + ")")
        if store.db is None:
            self.summary.setText(f"No SQLite database is open ({store.generation}). "
                                 + " ".join(store.detection.notes))
            self.browser.caption.setText("Nothing to browse: this store has no database. Its files are under Files.")
            return
        db, cols = store.db, store.cols
        self.ctx.worker.submit("storage-tables", lambda: table_infos(db, cols), on_result=self._tables_arrived,
                               on_error=lambda msg: self.summary.setText(f"Cannot list tables: {msg}"))

    def _tables_arrived(self, infos: list[TableInfo]) -> None:
        self.infos = infos
        store = self.ctx.store
        rows = sum(t.rows or 0 for t in infos)
        self.summary.setText(f"{store.paths.db_path} — {len(infos)} tables, {rows:,} rows; opened read-only "
                             f"({store.db.mode.name}). Migrations: {store.migrations.generation_label}.")
        self.tabs.setTabText(0, f"Tables ({len(infos)})")
        self._filter_tables(self.filter_box.text())
        if self._pending_table:
            self.open_item(self._pending_table)

    def _filter_tables(self, text: str) -> None:
        needle = text.strip().lower()
        current = self._table
        shown = [t for t in self.infos if not needle or needle in t.name.lower()
                 or any(needle in c.lower() for c in t.columns)]
        self.tables_model.set_records(shown)
        self.tables_view.resizeColumnsToContents()
        self.tables_view.setColumnWidth(2, min(self.tables_view.columnWidth(2), 400))
        row = self.tables_model.row_of_key(current) if current else -1
        if row >= 0:
            self.tables_view.blockSignals(True)
            self.tables_view.selectRow(row)
            self.tables_view.blockSignals(False)

    # -- the browser ---------------------------------------------------------------------------------
    def _table_selected(self, current, _previous) -> None:
        info = self.tables_model.record(current.row())
        if info is None or info.name == self._table:
            return
        self.browse(info.name)

    def browse(self, table: str) -> None:
        self._table = table
        self._exhausted = False
        self.browser.model.set_rows([], [])
        info = next((t for t in self.infos if t.name == table), None)
        self._count = info.rows if info is not None else None
        self.browser.caption.setText(f"{table}: loading…")
        self._fetch(None)

    def _fetch(self, after) -> None:
        db, cols, table = self.ctx.store.db, self.ctx.store.cols, self._table
        self._loading = True
        self.more_button.setEnabled(False)
        self.ctx.worker.submit("storage-rows", lambda: page_shown_rows(db, table, after_rowid=after, limit=PAGE,
                                                                        cols=cols),
                               on_result=lambda rows: self._rows_arrived(table, after, rows),
                               on_error=lambda msg: self._rows_failed(table, msg))

    def _rows_arrived(self, table: str, after, rows: list[ShownRow]) -> None:
        if table != self._table:
            return
        self._loading = False
        columns = next((t.columns for t in self.infos if t.name == table), ())
        if after is None:
            self.browser.model.set_rows(columns, rows)
            self.browser.view.resizeColumnsToContents()
            for c in range(self.browser.model.columnCount()):
                self.browser.view.setColumnWidth(c, min(self.browser.view.columnWidth(c), 280))
        else:
            self.browser.model.append_rows(rows)
        self._exhausted = len(rows) < PAGE
        self.more_button.setEnabled(not self._exhausted)
        shown = self.browser.model.rowCount()
        total = f"{self._count:,}" if self._count is not None else "?"
        self.browser.caption.setText(f"<b>{table}</b>: {shown:,} of {total} {'row' if self._count == 1 else 'rows'} loaded, in rowid order "
                                     "(read-only; JSON shown parsed, secrets masked)")

    def _rows_failed(self, table: str, message: str) -> None:
        if table == self._table:
            self._loading = False
            self.browser.caption.setText(f"Cannot read {table}: {message}")

    def _load_more(self) -> None:
        if self._exhausted or self._loading or self._table is None:
            return
        last = self.browser.model.record(self.browser.model.rowCount() - 1)
        self._fetch(last.key if last is not None else None)

    def _scrolled(self, value: int) -> None:
        if value >= self.browser.view.verticalScrollBar().maximum() - 2:
            self._load_more()

    def _row_selected(self, row: ShownRow) -> None:
        self.ctx.show_detail(row_detail(f"{self._table} row {row.key}", row))

    def _migration_selected(self, current, _previous) -> None:
        rec = self.migration_model.record(current.row())
        if rec is None:
            return
        line = rec.line
        fields = (("Migration", line.name), ("Status", line.status),
                  ("Position", "" if rec.order is None else str(rec.order)),
                  ("Applied at", f"{fmt_time(line.applied_at)} ({line.applied_at})" if line.applied_at else ""),
                  ("Note", line.note))
        self.ctx.show_detail(DetailItem(f"Migration {line.name}", fields,
                                        {"name": line.name, "status": line.status, "applied_at": line.applied_at}))

    # -- pane API ----------------------------------------------------------------------------------
    def focus_filter(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.filter_box.setFocus()
        self.filter_box.selectAll()

    def link_target(self, _view=None) -> tuple[str, str] | None:
        info = self.tables_model.record(self.tables_view.currentIndex().row())
        return ("table", info.name) if info is not None else None

    def open_item(self, target) -> None:
        """``target``: a table name to browse, or ``"migrations"``."""
        if target == "migrations":
            self.tabs.setCurrentIndex(1)
            return
        row = self.tables_model.row_of_key(target)
        if row < 0:
            self._pending_table = target
            if self.infos and self.filter_box.text():
                self.filter_box.clear()
                self._filter_tables("")
                row = self.tables_model.row_of_key(target)
            if row < 0:
                return
        self._pending_table = None
        self.tabs.setCurrentIndex(0)
        self.tables_view.selectRow(row)
        self.tables_view.scrollTo(self.tables_model.index(row, 0))
