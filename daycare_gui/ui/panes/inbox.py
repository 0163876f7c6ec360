"""Inbox: items waiting for agents, oldest first. Items older than STUCK_AFTER_MS are marked stuck: the
engine deletes items right after handling them, so an old one means the agent or the engine is wedged."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout

from daycare_gui.core.display import count, local_time
from daycare_gui.core.queries.inbox import STUCK_AFTER_MS
from daycare_gui.core.queries.inbox_overview import InboxAgent, InboxEntry, inbox_agents, inbox_overview
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column, fmt_time
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.record_table import FilteredRecords, make_table, select_row
from daycare_gui.ui.widgets.tables import ColumnFitter


def fmt_duration(ms: int) -> str:
    s = max(0, ms // 1000)
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if s >= size:
            rest = s % size
            sub = {"d": (3600, "h"), "h": (60, "m"), "m": (1, "s")}[unit]
            return f"{s // size}{unit} {rest // sub[0]}{sub[1]}" if rest // sub[0] else f"{s // size}{unit}"
    return f"{s}s"


COLUMNS = [
    Column("Posted", lambda e: e.item.posted_at, lambda ms: local_time(ms, seconds=False),
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
        self.records = FilteredRecords(COLUMNS, state=lambda e: "stuck" if e.stuck else None)
        self.table = make_table(self.records.proxy)
        # Agent names can be long: held to 130 px (the full name in the tooltip); Summary, the long text,
        # takes what is left
        self.fitter = ColumnFitter(self.table, caps={4: 130})
        layout.addWidget(self.table, 1)
        self.summary = QLabel("Loading…")
        layout.addWidget(self.summary)
        self.setTabOrder(self.filter_box, self.agent_box)
        self.setTabOrder(self.agent_box, self.stuck_only)
        self.setTabOrder(self.stuck_only, self.table)

        self.filter_box.changed.connect(self._filter_changed)
        self.stuck_only.toggled.connect(self._stuck_toggled)
        self.agent_box.currentIndexChanged.connect(lambda _i: self.reload())
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.table.activated.connect(self._open_agent)
        self._pending_agent: str | None = None

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        db = self.ctx.store.db
        if db is None:
            self.summary.setText("No database in this store: the inbox lives in the database.")
            return
        now = self.clock()
        self.ctx.worker.submit("inbox-agents", lambda: inbox_agents(db, now), on_result=self._agents_arrived)
        self.reload()

    def reload(self) -> None:
        db = self.ctx.store.db
        if db is None:
            return
        now, agent = self.clock(), self.agent_box.currentData()
        self.ctx.worker.submit("inbox-items", lambda: inbox_overview(db, now, agent), on_result=self._arrived,
                               on_error=lambda msg: self.summary.setText(f"Could not read the inbox: {msg}"))

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

    def _arrived(self, entries: list[InboxEntry]) -> None:
        self.records.set_records(entries)
        self.fitter.fit()
        self._update_summary()
        if entries:
            select_row(self.table, 0)

    def _update_summary(self) -> None:
        records = self.records.model.records()
        stuck = sum(e.stuck for e in records)
        shown = self.records.proxy.rowCount()
        text = f"{count(len(records), 'item')}, {stuck:,} stuck"
        if shown != len(records):
            text = f"{shown} shown of " + text
        self.summary.setText(text + " — oldest first; Enter opens the agent")

    def _filter_changed(self, text: str) -> None:
        self.records.set_text(text)
        self._update_summary()

    def _stuck_toggled(self, on: bool) -> None:
        self.records.proxy.set_predicate((lambda e: e.stuck) if on else None)
        self._update_summary()

    # -- selection -------------------------------------------------------------------------------
    def _selected(self, current, _previous) -> None:
        entry = self.records.record_at(current)
        if entry is not None:
            self.ctx.show_detail(inbox_detail(entry))

    def _open_agent(self, index) -> None:
        entry = self.records.record_at(index)
        if entry is not None:
            self.ctx.navigate("agents", entry.agent_id)

    # -- pane API ----------------------------------------------------------------------------------
    def open_item(self, target) -> None:
        """``target``: an agent id (show that agent's items) or ``{"item_id": …}``."""
        if isinstance(target, dict) and target.get("item_id"):
            select_row(self.table, self.records.proxy_row_of_key(target["item_id"]))
            return
        index = self.agent_box.findData(target)
        if index >= 0:
            self.agent_box.setCurrentIndex(index)
        else:
            self._pending_agent = target  # the agent list has not arrived yet
