"""Inbox: items waiting for agents, oldest first. Items older than STUCK_AFTER_MS are marked stuck: the
engine deletes items right after handling them, so an old one means the agent or the engine is wedged.

The filters (agent, text, stuck only) run in SQL, and the list pages by key: the first page shows at once
and the next is read, after the last item held, when the list is scrolled to its end."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout

from daycare_gui.core.queries.inbox import STUCK_AFTER_MS, InboxFilter, inbox_totals
from daycare_gui.core.queries.inbox_overview import InboxAgent, InboxEntry, inbox_agents, inbox_overview
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.formats import count
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.record_table import make_table, select_row
from daycare_gui.ui.widgets.tables import ColumnFitter

PAGE = 200  # items per page


def fmt_duration(ms: int) -> str:
    s = max(0, ms // 1000)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if s >= size:
            rest = s % size
            sub = {"d": (3600, "h"), "h": (60, "m"), "m": (1, "s")}[unit]
            return f"{s // size}{unit} {rest // sub[0]}{sub[1]}" if rest // sub[0] else f"{s // size}{unit}"
    return f"{s}s"


COLUMNS = [
    Column("Posted", lambda e: e.item.posted_at, lambda ms: fmt_time(ms, seconds=False),
           tooltip=lambda e: fmt_time(e.item.posted_at)),
    Column("Age", lambda e: e.age_ms, fmt_duration, align_right=True),
    Column("State", lambda e: "stuck" if e.stuck else "waiting"),
    Column("Kind", lambda e: e.item.type),
    Column("Agent", lambda e: e.agent_label, tooltip=lambda e: e.agent_id),
    Column("Summary", lambda e: e.item.summary()),
]


def inbox_detail(entry: InboxEntry) -> DetailItem:
    item = entry.item
    fields = (("Id", item.id), ("Agent", entry.agent_label), ("Agent id", item.agent_id), ("Kind", item.type),
              ("Posted", fmt_time(item.posted_at)), ("Age", fmt_duration(entry.age_ms)),
              ("State", f"stuck (waiting longer than {STUCK_AFTER_MS // 60000} minutes)" if entry.stuck else "waiting"),
              ("Summary", item.summary(2000)))
    return DetailItem(f"Inbox item {item.type} for {entry.agent_label}", fields, item.payload)


class InboxPane(Pane):
    pane_id = "inbox"
    title = "Inbox"
    # "now" for ages and stuck flags; a class attribute so tests can pin it to a store's own time
    clock = staticmethod(lambda: int(time.time() * 1000))

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.filter_box = FilterBox("Filter inbox by kind, agent or text (Ctrl+F)")
        self.agent_box = QComboBox()
        self.agent_box.addItem("All agents", None)
        self.agent_box.setMinimumContentsLength(24)
        self.stuck_only = QCheckBox("Stuck only")
        self.stuck_only.setToolTip(f"Only items waiting longer than {STUCK_AFTER_MS // 60000} minutes")
        bar.addWidget(self.filter_box, 1)
        bar.addWidget(self.agent_box)
        bar.addWidget(self.stuck_only)
        layout.addLayout(bar)
        self.model = RecordListModel(COLUMNS, state=lambda e: "stuck" if e.stuck else None)
        self.model.set_more(self._fetch_more)
        self.table = make_table(self.model)
        # Agent names can be long: held to 130 px (the full name in the tooltip); Summary, the long text,
        # takes what is left
        self.fitter = ColumnFitter(self.table, caps={4: 130})
        layout.addWidget(self.table, 1)
        self.summary = QLabel("Loading…")
        layout.addWidget(self.summary)
        self.setTabOrder(self.filter_box, self.agent_box)
        self.setTabOrder(self.agent_box, self.stuck_only)
        self.setTabOrder(self.stuck_only, self.table)

        self.filter_box.changed.connect(lambda _t: self.reload())
        self.stuck_only.toggled.connect(lambda _on: self.reload())
        self.agent_box.currentIndexChanged.connect(lambda _i: self.reload())
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.table.activated.connect(self._open_agent)
        self._pending_agent: str | None = None
        self._query: tuple[int, InboxFilter] | None = None  # "now" and the filter of the rows shown
        self._totals = (0, 0)

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        db = self.ctx.store.db
        if db is None:
            self.summary.setText("No database in this store: the inbox lives in the database.")
            return
        now = self.clock()
        self.ctx.worker.submit("inbox-agents", lambda: inbox_agents(db, now), on_result=self._agents_arrived)
        self.reload()

    def current_filter(self) -> InboxFilter:
        return InboxFilter(self.agent_box.currentData(), self.filter_box.text(), self.stuck_only.isChecked())

    def reload(self) -> None:
        db = self.ctx.store.db
        if db is None:
            return
        now, flt = self.clock(), self.current_filter()
        self._query = (now, flt)
        self.ctx.worker.submit("inbox-items", lambda: (inbox_overview(db, now, flt=flt, limit=PAGE),
                                                       inbox_totals(db, now, flt)),
                               on_result=self._arrived, on_error=self._failed)

    def _fetch_more(self, last: InboxEntry | None) -> None:
        db = self.ctx.store.db
        if db is None or last is None or self._query is None:
            return
        now, flt = self._query  # the same "now": an item does not turn stuck between two pages
        # The first page's channel: a new filter's first page makes a pending next page stale.
        self.ctx.worker.submit("inbox-items", lambda: inbox_overview(db, now, flt=flt, after=last, limit=PAGE),
                               on_result=self._more_arrived, on_error=self._failed)

    def store_changed(self) -> bool:
        """A live engine wrote: read the items shown again (as many as are loaded, same filter, a new "now")
        and update the rows in place — handled items go, new ones appear, ages move on, the selection stays."""
        db = self.ctx.store.db
        if db is None or db.mode.name == "snapshot" or self._query is None:
            return False
        now, flt = self.clock(), self._query[1]
        limit = max(PAGE, self.model.rowCount())
        self.ctx.worker.submit("inbox-items", lambda: (inbox_overview(db, now, flt=flt, limit=limit),
                                                       inbox_totals(db, now, flt)),
                               on_result=lambda result: self._refreshed(now, limit, result), on_error=self._failed)
        return True

    def _refreshed(self, now: int, limit: int, result) -> None:
        entries, self._totals = result
        self._query = (now, self._query[1] if self._query else self.current_filter())
        self.model.update_records(entries, more=len(entries) == limit)
        self._update_summary()

    def _failed(self, message: str) -> None:
        self.summary.setText(f"Could not read the inbox: {message}")

    def _agents_arrived(self, agents: list[InboxAgent]) -> None:
        current = self._pending_agent or self.agent_box.currentData()
        self._pending_agent = None
        self.agent_box.blockSignals(True)
        self.agent_box.clear()
        self.agent_box.addItem("All agents", None)
        for a in agents:
            self.agent_box.addItem(a.label, a.agent_id)
        index = self.agent_box.findData(current) if current else 0
        self.agent_box.setCurrentIndex(max(0, index))
        self.agent_box.blockSignals(False)
        if current and index > 0:
            self.reload()

    def _arrived(self, result) -> None:
        entries, self._totals = result
        self.model.set_records(entries, more=len(entries) == PAGE)
        self.fitter.fit()
        self._update_summary()
        if entries:
            select_row(self.table, 0)

    def _more_arrived(self, entries: list[InboxEntry]) -> None:
        self.model.append_records(entries, more=len(entries) == PAGE)
        self._update_summary()

    def _update_summary(self) -> None:
        total, stuck = self._totals
        flt = self._query[1] if self._query else InboxFilter()
        narrowed = bool(flt.text.strip() or flt.stuck_only or flt.agent_id)
        text = f"{count(total, 'matching item' if narrowed else 'item')}, {stuck:,} stuck"
        if self.model.has_more():
            text += f" ({self.model.rowCount():,} loaded; scroll down for more)"
        self.summary.setText(text + " — oldest first; Enter opens the agent")

    # -- selection -------------------------------------------------------------------------------
    def _selected(self, current, _previous) -> None:
        entry = self.model.record(current.row())
        if entry is not None:
            self.ctx.show_detail(inbox_detail(entry))

    def _open_agent(self, index) -> None:
        entry = self.model.record(index.row())
        if entry is not None:
            self.ctx.navigate("agents", entry.agent_id)

    # -- pane API ----------------------------------------------------------------------------------
    def open_item(self, target) -> None:
        """``target``: an agent id (show that agent's items) or ``{"item_id": …}``."""
        if isinstance(target, dict) and target.get("item_id"):
            select_row(self.table, self.model.row_of_key(target["item_id"]))
            return
        index = self.agent_box.findData(target)
        if index >= 0:
            self.agent_box.setCurrentIndex(index)
        else:
            self._pending_agent = target  # the agent list has not arrived yet
