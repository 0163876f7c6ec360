"""Storage of any opened store: every table with its row count and columns, a paged read-only table
browser, the migrations against the list its system knows, and the upgrade (or why there is none).

It reads only capabilities: ``Tables`` (the list, and pages through ``rows_after``: keyed by rowid where the
kind has keys, so a page deep in a big table costs what the first does) and ``Storage`` (migrations, the
upgrade plan). Cells are shown masked whatever the kind did: a key or token in any column stays hidden.
Pages arrive through the worker (more when the view is scrolled to the end or "Load more rows" is pressed).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

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

from daycare_gui.stores import api
from daycare_gui.stores.common.secrets import mask_free_text
from daycare_gui.stores.records import MigrationLine, UpgradePlan
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column, fmt_int, fmt_time
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.theme import colours, set_tone
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.row_table import RowTable, row_detail
from daycare_gui.ui.widgets.tables import make_table

PAGE = 200

TABLE_COLUMNS = [
    Column("Table", lambda t: t.name),
    Column("Rows", lambda t: t.count, fmt_int, align_right=True,
           sort_value=lambda t: -1 if t.count is None else t.count),
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
NO_MIGRATIONS = "This store keeps no list of migrations."


def shown_value(value: Any) -> Any:
    """A cell as the browser may show it: text masked (a key or token in any column), bytes by size,
    JSON masked all the way down."""
    if isinstance(value, str):
        return mask_free_text(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return f"<{len(bytes(value)):,} bytes>"
    if isinstance(value, dict):
        return {k: shown_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [shown_value(v) for v in value]
    return value


@dataclass(frozen=True)
class BrowsedRow:
    """A table row as the row table shows it: ``values`` by column (the shape of the subsystem rows)."""

    key: str
    values: dict
    source: str
    problems: tuple[str, ...] = field(default=())

    @property
    def id(self) -> str:
        return self.key


def browsed_rows(table: str, columns, rows: list) -> list[BrowsedRow]:
    out = []
    for r in rows:
        values = r.raw if isinstance(r.raw, dict) else dict(zip(columns, r.values))
        out.append(BrowsedRow(r.key, {c: shown_value(v) for c, v in values.items()}, f"table {table}",
                              (r.problem,) if r.problem else ()))
    return out


class _NumberedLine:
    """A migration line with its position (applied order first), keyed for the list model."""

    def __init__(self, order: int | None, line: MigrationLine) -> None:
        self.order = order
        self.line = line
        self.id = line.id


def numbered(lines: list[MigrationLine]) -> list[_NumberedLine]:
    out, order = [], 0
    for line in lines:
        if line.applied_at is not None or line.status in ("applied", "unknown"):
            order += 1
            out.append(_NumberedLine(order, line))
        else:
            out.append(_NumberedLine(None, line))
    return out


def migrations_tab_text(lines: list[MigrationLine]) -> str:
    by = {s: sum(1 for m in lines if m.status == s) for s in ("applied", "unknown", "pending", "later pending")}
    text = f"Migrations ({by['applied'] + by['unknown']} applied"
    text += f", {by['pending']} pending" if by["pending"] else ""
    text += f", {by['later pending']} later pending" if by["later pending"] else ""
    return text + ")"


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


def _label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # names and reasons are the store's data, never markup
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class StoragePane(Pane):
    pane_id = "storage"
    title = "Storage"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.tables_cap: api.Tables | None = ctx.opened.capability(api.Tables)
        self.storage: api.Storage | None = ctx.opened.capability(api.Storage)
        layout = QVBoxLayout(self)
        self.summary = _label("Loading…")
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

        # -- migrations and the upgrade -------------------------------------------------------------------
        self.migration_model = MigrationModel(self)
        self.migrations_view = _list_view(self.migration_model)
        self.migrations_view.selectionModel().currentRowChanged.connect(self._migration_selected)
        migrations_page = QWidget()
        mig_box = QVBoxLayout(migrations_page)
        self.migration_text = _label()
        mig_box.addWidget(self.migration_text)
        mig_box.addWidget(self.migrations_view, 1)
        upgrade_row = QHBoxLayout()
        self.upgrade_reason = _label("Checking whether an upgrade is possible…")
        self.upgrade_button = QPushButton("Upgrade Storage…")
        self.upgrade_button.setToolTip("A dry run first; then the store's migrations run on a copy, "
                                       "after a backup, and the copy replaces the store only if all passed")
        self.upgrade_button.setEnabled(False)  # until the dry run says there is something to run
        self.upgrade_button.clicked.connect(self._upgrade)
        upgrade_row.addWidget(self.upgrade_reason, 1)
        upgrade_row.addWidget(self.upgrade_button)
        mig_box.addLayout(upgrade_row)
        self.tabs.addTab(migrations_page, "Migrations")

        # -- where the bytes go, and the prune (#38) ---------------------------------------------------------
        from daycare_gui.ui.panes.generic.space_tab import SpaceTab

        self.space_tab = SpaceTab(ctx, self.storage)
        self.tabs.addTab(self.space_tab, "Space")

        self.filter_box.changed.connect(self._filter_tables)
        self.filter_box.returnPressed.connect(self.tables_view.setFocus)
        self.infos: list = []
        self.plan: UpgradePlan | str | None = None
        self._table: str | None = None
        self._columns: tuple[str, ...] = ()
        self._exhausted = True
        self._loading = False
        self._pending_table: str | None = None

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        tables, storage = self.tables_cap, self.storage
        for module in storage.modules if storage is not None else ():
            importlib.import_module(module)  # here on the GUI thread: a worker must never import first

        def facts():
            listed = [t for t in tables.tables() if not t.hidden] if tables is not None else None
            if storage is None:
                return listed, [], NO_MIGRATIONS
            return listed, storage.migrations(), storage.migration_summary()

        self.ctx.worker.submit("storage-tables", facts, on_result=self._facts_arrived,
                               on_error=lambda msg: self.summary.setText(f"Cannot list tables: {msg}"))
        # the dry run may read a lot (imports of older files): on the slow worker, after the lists
        planner = storage if storage is not None else api.Storage()
        self.ctx.slow_worker.submit("storage-upgrade-plan", planner.upgrade_plan, on_result=self._plan_arrived,
                                    on_error=lambda msg: self._plan_arrived(f"The dry run could not be made: {msg}"))
        self.space_tab.load()  # (reads every page of the database: after the upgrade's dry run)

    def _facts_arrived(self, facts) -> None:
        listed, lines, text = facts
        self.migration_model.set_records(numbered(lines))
        self.migrations_view.resizeColumnsToContents()
        self.migration_text.setText(text or NO_MIGRATIONS)
        self.tabs.setTabText(1, migrations_tab_text(lines) if lines else "Migrations")
        if listed is None:
            self.summary.setText(f"{self.ctx.opened.title}: no database tables to browse.")
            self.browser.caption.setText("Nothing to browse: this store has no database tables.")
            self.tabs.setTabText(0, "Tables (none)")
            return
        self.infos = listed
        rows = sum(t.count or 0 for t in listed)
        self.summary.setText(f"{self.ctx.opened.title} — {len(listed)} tables, {rows:,} rows; opened read-only."
                             + (f" Migrations: {text}" if lines else ""))
        self.tabs.setTabText(0, f"Tables ({len(listed)})")
        self.ctx.set_count("storage", len(listed))
        self._filter_tables(self.filter_box.text())
        if self._pending_table:
            self.open_item(self._pending_table)

    def _plan_arrived(self, plan: UpgradePlan | str) -> None:
        self.plan = plan
        if isinstance(plan, str):
            reason = plan
        elif not plan.steps:
            reason = f"Up to date: {plan.up_to_date}" if plan.up_to_date else "Up to date: nothing to run."
        else:
            n = len(plan.steps)
            reason = f"{n} migration{'' if n == 1 else 's'} to run (a dry run; nothing changed yet)."
        runnable = isinstance(plan, UpgradePlan) and bool(plan.steps)
        self.upgrade_button.setEnabled(runnable)
        self.upgrade_reason.setText(reason)
        set_tone(self.upgrade_reason, None if runnable or not isinstance(plan, str) else "note")

    def _upgrade(self) -> None:
        """The same dialog as Storage → Upgrade Storage…, through the window (which reopens the store after)."""
        open_upgrade = getattr(self.window(), "open_upgrade", None)
        if callable(open_upgrade):
            open_upgrade()

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
        self._count = info.count if info is not None else None
        self._columns = tuple(info.columns) if info is not None else ()
        self.browser.caption.setText(f"{table}: loading…")
        self._fetch(None)

    def _fetch(self, after: str | None) -> None:
        cap, table, known = self.tables_cap, self._table, self._columns
        self._loading = True
        self.more_button.setEnabled(False)

        def page():
            columns = known or tuple(cap.columns(table))
            return columns, browsed_rows(table, columns, cap.rows_after(table, after, PAGE))

        self.ctx.worker.submit("storage-rows", page,
                               on_result=lambda got: self._rows_arrived(table, after, *got),
                               on_error=lambda msg: self._rows_failed(table, msg))

    def _rows_arrived(self, table: str, after, columns, rows: list[BrowsedRow]) -> None:
        if table != self._table:
            return
        self._loading = False
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
        self.browser.caption.setText(f"<b>{table}</b>: {shown:,} of {total} {'row' if self._count == 1 else 'rows'} "
                                     "loaded, in the table's order (read-only; JSON shown parsed, secrets masked)")

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

    def _row_selected(self, row: BrowsedRow) -> None:
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
