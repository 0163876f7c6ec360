"""The thread list of any kind (Daycare agents, Linggen projects, CianaParrot chats): keys only, rows on
demand, filtered and sorted by the store through :class:`~daycare_gui.stores.api.Listing`.

The store says which filters it offers (``filters("threads")``: words always, then choices, flags and a
time range), which columns it can sort by, and answers ``keys(query)`` with an ordered list of ids, cheap
even for 100,000 agents; ``KeyedTableModel`` then asks ``fetch`` for the rows a view shows. Nothing here
knows which kind it lists.
"""

from __future__ import annotations

import datetime as _dt
import logging
import time

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from daycare_gui.stores import api
from daycare_gui.stores.common.secrets import mask_url_credentials
from daycare_gui.stores.records import FilterSpec, Query, Row
from daycare_gui.ui.formats import count, number
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.models.keyed_model import KeyedTableModel
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.flow_layout import FlowLayout
from daycare_gui.ui.widgets.tables import make_table, sort_only

log = logging.getLogger(__name__)
THREADS = api.THREADS
# Rows read together with the keys: a tall window's first screen, so it needs no second round trip.
FIRST_ROWS = 64
TIME_RANGES = (("Any time", None), ("today", 1), ("past week", 7), ("past month", 30), ("past year", 365))
DEFAULT_SORT = "Updated"  # newest first, where the store can sort by it


RUNS_FLAG = "scheduled-runs"  # the "Hide scheduled runs" box among the flags (not a flag the store filters by)
# "Hide scheduled runs" starts checked where runs are many: this many sessions or more that hold only scheduled
# runs (a cron agent's session per run: dozens of them bury the conversations). Fewer: it starts unchecked.
MANY_RUN_SESSIONS = 50


def _first_keys(cap: api.Conversations, runs_cap: api.Automations | None, query: Query) -> tuple:
    """On the worker, for the first screen: the filter bar (the store's filters, its own count, how many
    sessions hold only runs) and the keys with the first rows — the threads holding only runs already
    left out where "Hide scheduled runs" will start checked, so the list is shown once, as it stays."""
    try:
        runs = runs_cap.run_sessions() if runs_cap is not None else frozenset()
        bar = (tuple(cap.filters(THREADS)), _own_count(cap), len(runs))
    except Exception:  # noqa: BLE001 - a bar the store cannot describe: the list without its filters
        log.warning("the thread list's filters could not be read", exc_info=True)
        runs, bar = frozenset(), None
    keys = cap.keys(THREADS, query)
    if len(runs) >= MANY_RUN_SESSIONS:
        hidden = runs_cap.run_only_threads(cap, runs)
        keys = [k for k in keys if k not in hidden]
    return bar, keys, {r.key: r for r in cap.fetch(THREADS, keys[:FIRST_ROWS])}, runs


def _keys_without_runs(cap: api.Conversations, runs_cap: api.Automations | None, query: Query, hiding: bool
                       ) -> tuple[list, frozenset | None]:
    """On the worker: the keys, less the threads that hold only scheduled runs when they are hidden, and the
    run sessions read for it (None: not read)."""
    keys = cap.keys(THREADS, query)
    if runs_cap is None or not hiding:
        return keys, None
    runs = runs_cap.run_sessions()
    hidden = runs_cap.run_only_threads(cap, runs)
    return [k for k in keys if k not in hidden], runs


def cell_text(value) -> str:
    """A row's value as the list says it: times local, counts grouped, nothing for None."""
    if value is None:
        return ""
    if isinstance(value, _dt.datetime):
        stamp = value if value.tzinfo is not None else value.replace(tzinfo=_dt.timezone.utc)
        return fmt_time(int(stamp.timestamp() * 1000))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return number(value)
    return str(value)


def _cell(index: int):
    return lambda row: row.values[index] if index < len(row.values) else None


def _own_count(cap: api.Conversations) -> int | None:
    """The kind's own count of its threads, when it has one (the default would list them again)."""
    return cap.count() if type(cap).count is not api.Conversations.count else None


def _state(row: Row) -> str | None:
    return "error" if row.problem else (row.flag or None)


class ThreadList(QWidget):
    """A caption, a filter bar built from the store's filters, and the keyed table of threads."""

    current_changed = Signal(object)  # the key of the thread now current (None: none)
    current_row_arrived = Signal(object)  # the current thread's Row, once read (for the detail pane)
    missing = Signal(object)  # a key asked for by select_key that the store does not list

    def __init__(self, ctx, cap: api.Conversations, parent=None) -> None:
        super().__init__(parent)
        self.ctx, self.cap = ctx, cap
        self.label = cap.thread_label
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.head = head = QHBoxLayout()  # (a page may add its own buttons after the count)
        self.caption = QLabel(f"<b>{self.label}</b>")
        self.summary = QLabel("Loading…")
        self.summary.setObjectName("threadSummary")
        head.addWidget(self.caption)
        head.addStretch(1)
        head.addWidget(self.summary)
        layout.addLayout(head)
        self.filter_box = FilterBox(f"Filter {self.label.lower()} (Ctrl+F)")
        layout.addWidget(self.filter_box)
        # The store's own filters on a line of their own, so the words keep a box wide enough to read; they
        # wrap onto a second line rather than widen the page (four boxes side by side took 630 px, and the
        # navigation gave up its labels for them at 1280 px with the Details dock shown).
        self.bar = FlowLayout()
        layout.addLayout(self.bar)
        self.choice_boxes: dict[str, QComboBox] = {}
        self.flag_boxes: dict[str, QCheckBox] = {}
        self.time_box: QComboBox | None = None
        # "Hide scheduled runs", where the store tells its runs (Automations): a box among the flags, done
        # here (threads whose every session is a run; the pane hides run sessions), not by the store's keys
        self.runs_cap = ctx.opened.capability(api.Automations) if ctx.opened is not None else None

        self.columns_titles = tuple(cap.thread_columns())
        columns = [Column(title, _cell(i), display=cell_text,
                          tooltip=(lambda r: r.key) if i == 0 else None,
                          align_right=title in ("Sessions", "Tokens", "Threads", "Messages"))
                   for i, title in enumerate(self.columns_titles)]
        self.model = KeyedTableModel(columns, ctx.worker, self._fetch, channel="thread-rows", state=_state)
        self.table = make_table(self.model)
        self.table.setObjectName("threadTable")
        sortable = set(cap.sorts(THREADS)) & set(self.columns_titles)
        self.sortable = {i for i, t in enumerate(self.columns_titles) if t in sortable}
        self._sort = (DEFAULT_SORT, True) if DEFAULT_SORT in sortable else ("", False)
        if self.sortable:
            self.table.setSortingEnabled(True)
            header = self.table.horizontalHeader()
            if self._sort[0]:
                header.setSortIndicator(self.columns_titles.index(DEFAULT_SORT), Qt.SortOrder.DescendingOrder)
            else:
                header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
            sort_only(self.table, self.sortable)
        self.model.sort_requested.connect(self._sort_requested)
        layout.addWidget(self.table, 1)

        self.filter_box.changed.connect(lambda _t: self.reload())
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.model.rows_loaded.connect(self._rows_loaded)
        self.loaded = False  # the first keys are in
        self._pending: str | None = None  # a key to select once the keys are in
        self._wanted_row: str | None = None  # the current key whose row is on its way
        self._wanted_choices: dict[str, str] = {}  # a filter asked for before the filters arrived
        self.total: int | None = None
        self._own_total = False  # the kind counts its threads itself (total is that count)
        self._keys_asked = 0  # reloads asked for: the first keys (read with the filters) are current until one
        # The sessions that hold only runs, as last read with the keys (None: not read yet): the session list
        # hides them without reading them again for each thread selected (~90 ms on the 1M-record demo).
        self.known_runs: frozenset | None = None

    # -- the filter bar ---------------------------------------------------------------------------
    def load(self) -> None:
        """Read the filters, the keys and the first rows in one job on the worker: one round trip, and the
        keys read once (the filters arriving first made a second read, with runs hidden, and the list
        waited for both)."""
        cap, runs_cap, query = self.cap, self.runs_cap, self.query()
        asked = self._keys_asked
        self.ctx.worker.submit("thread-filters", lambda: _first_keys(cap, runs_cap, query),
                               on_result=lambda answer: self._first_arrived(asked, *answer),
                               on_error=self._keys_failed)

    def _first_arrived(self, asked: int, bar, keys: list, first: dict, runs: frozenset) -> None:
        self.known_runs = runs if bar is not None else None
        current = asked == self._keys_asked  # no newer keys asked for meanwhile (a filter typed)
        if bar is not None:  # (newer keys were read before the bar said to hide runs: read them again)
            self._filters_arrived(bar, reload=not current)
        if current:
            self._keys_arrived(keys, first)

    def _filters_arrived(self, answer: tuple[tuple[FilterSpec, ...], int | None, int], *, reload: bool = True
                         ) -> None:
        """The filter bar; ``reload``: read the keys again when "Hide scheduled runs" starts checked (the
        first keys, read with the bar, already leave those threads out)."""
        specs, own, run_sessions = answer
        if own is not None:
            self.total, self._own_total = own, True
            self._say_count(self.model.rowCount())
        for spec in specs:
            if spec.kind == "choice" and spec.name not in self.choice_boxes:
                box = QComboBox()
                box.setObjectName(f"threadFilter-{spec.name}")
                box.addItem(f"Any {spec.label}", None)
                for value, label in spec.choices:
                    box.addItem(label, value)
                self.choice_boxes[spec.name] = box
                self.bar.addWidget(box)
                box.currentIndexChanged.connect(lambda _i: self.reload())
            elif spec.kind == "flag" and spec.name not in self.flag_boxes:
                check = QCheckBox(spec.label)
                self.flag_boxes[spec.name] = check
                self.bar.addWidget(check)
                check.toggled.connect(lambda _on: self.reload())
            elif spec.kind == "time" and self.time_box is None:
                self.time_box = QComboBox()
                self.time_box.setObjectName("threadFilter-time")
                for label, days in TIME_RANGES:
                    self.time_box.addItem(label if days is None else f"{spec.label} {label}", days)
                self.bar.addWidget(self.time_box)
                self.time_box.currentIndexChanged.connect(lambda _i: self.reload())
        if self.runs_cap is not None and RUNS_FLAG not in self.flag_boxes:
            check = QCheckBox("Hide scheduled runs")
            check.setObjectName("threadFilter-runs")
            check.setToolTip("Hide the sessions that only hold scheduled runs (cron, heartbeats, missions), "
                             "and the threads that hold nothing else; the Automations page lists them. On at "
                             f"first where there are {MANY_RUN_SESSIONS} such sessions or more")
            self.flag_boxes[RUNS_FLAG] = check
            self.bar.addWidget(check)
            if run_sessions >= MANY_RUN_SESSIONS:  # runs are many: hidden until the box is unchecked
                check.setChecked(True)
                if reload:
                    self.reload()
            check.toggled.connect(lambda _on: self.reload())
        wanted, self._wanted_choices = self._wanted_choices, {}
        if wanted:
            self.filter_to(Query(choices=tuple(wanted.items())))

    def query(self) -> Query:
        choices = [(name, box.currentData()) for name, box in self.choice_boxes.items() if box.currentData()]
        choices += [(n, v) for n, v in self._wanted_choices.items() if n not in self.choice_boxes]
        days = self.time_box.currentData() if self.time_box is not None else None
        since = int(time.time() * 1000) - days * 86_400_000 if days else None
        return Query(text=self.filter_box.text().strip(), choices=tuple(choices),
                     flags=frozenset(n for n, c in self.flag_boxes.items() if c.isChecked() and n != RUNS_FLAG),
                     since=since, sort=self._sort[0], descending=self._sort[1])

    def filter_to(self, query: Query) -> None:
        """Show only the threads ``query``'s choices pick (a user's agents); other filters are cleared."""
        self._clear_filters(reload=False)
        for name, value in query.choices:
            box = self.choice_boxes.get(name)
            if box is None:  # the filters are not in yet: applied when they are
                self._wanted_choices[name] = value
                continue
            index = box.findData(value)
            if index < 0:
                box.addItem(str(value), value)
                index = box.count() - 1
            box.blockSignals(True)
            box.setCurrentIndex(index)
            box.blockSignals(False)
        self.reload()

    def filtered(self) -> bool:
        return bool(self.filter_box.text().strip() or self._wanted_choices
                    or any(b.currentIndex() > 0 for b in self.choice_boxes.values())
                    or any(c.isChecked() for c in self.flag_boxes.values())
                    or (self.time_box is not None and self.time_box.currentIndex() > 0))

    def _clear_filters(self, *, reload: bool = True) -> None:
        widgets = [self.filter_box, *self.choice_boxes.values(), *self.flag_boxes.values()]
        if self.time_box is not None:
            widgets.append(self.time_box)
        for w in widgets:
            w.blockSignals(True)
        self.filter_box.clear()
        self.filter_box.cancel_pending()
        for box in self.choice_boxes.values():
            box.setCurrentIndex(0)
        for check in self.flag_boxes.values():
            check.setChecked(False)
        if self.time_box is not None:
            self.time_box.setCurrentIndex(0)
        for w in widgets:
            w.blockSignals(False)
        self._wanted_choices = {}
        if reload:
            self.reload()

    # -- keys and rows ----------------------------------------------------------------------------
    def _fetch(self, keys: list) -> dict:
        return {r.key: r for r in self.cap.fetch(THREADS, list(keys))}

    def hiding_runs(self) -> bool:
        box = self.flag_boxes.get(RUNS_FLAG)
        return box is not None and box.isChecked()

    def _runs_read(self, runs: frozenset | None) -> None:
        if runs is not None:
            self.known_runs = runs

    def reload(self) -> None:
        self._keys_asked += 1
        cap, runs_cap, query, hiding = self.cap, self.runs_cap, self.query(), self.hiding_runs()

        def work():  # the keys and the first screen's rows in one round trip
            keys, runs = _keys_without_runs(cap, runs_cap, query, hiding)
            return keys, {r.key: r for r in cap.fetch(THREADS, keys[:FIRST_ROWS])}, runs

        def arrived(keys, first, runs) -> None:
            self._runs_read(runs)
            self._keys_arrived(keys, first)

        self.ctx.worker.submit("thread-keys", work, on_result=lambda result: arrived(*result),
                               on_error=self._keys_failed)

    def refresh(self) -> None:
        """The store changed: the keys again (same filter and sort), rows updated in place, selection kept."""
        cap, runs_cap, query, hiding = self.cap, self.runs_cap, self.query(), self.hiding_runs()

        def work():
            keys, runs = _keys_without_runs(cap, runs_cap, query, hiding)
            return keys, _own_count(cap), runs

        def arrived(keys, own, runs) -> None:
            self._runs_read(runs)
            self._keys_refreshed(keys, own)

        self.ctx.worker.submit("thread-keys", work, on_result=lambda answer: arrived(*answer),
                               on_error=self._keys_failed)

    def _keys_failed(self, message: str) -> None:
        self.summary.setText(f"Could not read the {self.label.lower()}: {mask_url_credentials(message)}")

    def _say_count(self, shown: int) -> None:
        """The caption counts the threads as the navigation does (the kind's own count: a list may hold a
        row that is no thread, as Linggen's "Sessions without a project"); a filter says what it left."""
        total = self.total if self.total is not None else shown
        self.caption.setText(f"<b>{self.label}</b> ({total:,})")
        noun = self.label.lower().rstrip("s") or "thread"
        self.summary.setText(count(shown, noun) if self.filtered() else "")

    def _keys_refreshed(self, keys: list[str], own: int | None) -> None:
        self.model.update_keys(keys)
        if own is not None:
            self.total = own
        if not self.filtered() and not self._own_total:
            self.total = len(keys)
        self._say_count(len(keys))

    def _keys_arrived(self, keys: list[str], first: dict) -> None:
        current = self.current_key()
        self.model.set_keys(keys)
        self.model.seed_rows(FIRST_ROWS, first)
        # Laid out now, not in a later turn of the event loop: the scroll bar then appears before the
        # first paint with rows, instead of just after it (every row painted twice).
        self.table.doItemsLayout()
        QCoreApplication.sendPostedEvents(self.table, QEvent.Type.LayoutRequest)
        if not self.filtered() and not self._own_total:
            self.total = len(keys)
        self._say_count(len(keys))
        if not self.loaded and first:  # the columns fitted once, to the first screen's rows
            self._fit_columns()
        self.loaded = True
        target, self._pending = self._pending, None
        if target is not None and self.model.row_of_key(target) < 0 and self.filtered():
            self._pending = target  # hidden by a filter: every thread, then select it
            self._clear_filters()
            return
        target = target or current
        row = self.model.row_of_key(target) if target is not None else -1
        if row >= 0:
            self._select_row(row)
        elif self._pending is None and target is not None and target != current:
            self.missing.emit(target)
        elif current is None and keys:
            self._select_row(0)

    def _fit_columns(self) -> None:
        """Each column as wide as the first screen's cells, none wider than a third of the list: the names
        readable, and the later columns reachable without scrolling far. On screen, only the rows that fit
        are measured: those below are not seen yet, and measuring each cell asks the model and the delegate
        in Python (make_table's 50 rows took ~40 ms of the first list's paint). Not on screen yet (a page
        opened at an agent is shown once it is selected) the view's height says nothing: make_table's rows.
        (Not Qt's precision 0, "the visible rows": a hidden view measures every row with it.)"""
        header = self.table.horizontalHeader()
        precision = header.resizeContentsPrecision()
        if self.table.isVisible():
            row_height = max(1, self.table.verticalHeader().defaultSectionSize())
            header.setResizeContentsPrecision(max(1, min(precision, self.table.viewport().height() // row_height + 1)))
        try:
            self.table.resizeColumnsToContents()
        finally:
            header.setResizeContentsPrecision(precision)  # a double click on a divider measures as before
        widest = max(120, self.table.viewport().width() // 3)
        for column in range(self.model.columnCount()):
            if self.table.columnWidth(column) > widest:
                self.table.setColumnWidth(column, widest)

    def _select_row(self, row: int) -> None:
        self.table.selectRow(row)
        self.table.scrollTo(self.model.index(row, 0))

    def _sort_requested(self, column: int, order) -> None:
        if column in self.sortable:
            self._sort = (self.columns_titles[column], order == Qt.SortOrder.DescendingOrder)
            self.reload()

    # -- selection ---------------------------------------------------------------------------------
    def current_key(self) -> str | None:
        return self.model.key(self.table.currentIndex().row())

    def current_row(self) -> Row | None:
        return self.model.record(self.table.currentIndex().row())

    def select_key(self, key: str) -> None:
        """Select the thread ``key``, clearing filters that hide it; ``missing`` when the store has none."""
        if not self.loaded:
            self._pending = key
            return
        row = self.model.row_of_key(key)
        if row >= 0:
            self._select_row(row)
        elif self.filtered():
            self._pending = key
            self._clear_filters()
        else:
            self.missing.emit(key)

    def _row_changed(self, current, _previous) -> None:
        key = self.model.key(current.row())
        row = self.model.record(current.row())
        self._wanted_row = key if row is None else None
        self.current_changed.emit(key)
        if row is not None:
            self.current_row_arrived.emit(row)

    def _rows_loaded(self) -> None:
        if self._wanted_row is None:
            return
        row = self.current_row()
        if row is not None and row.key == self._wanted_row:
            self._wanted_row = None
            self.current_row_arrived.emit(row)
