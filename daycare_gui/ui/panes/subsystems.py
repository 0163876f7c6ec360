"""Read-only views of Daycare's smaller subsystems: channels, signals, processes, expose, system prompts.

One generic pane (:class:`SubsystemTablesPane`) shows one or more tables (tabs when several) with a filter box
that runs in SQL; each concrete pane only names its tables. Without a database, rows come from the legacy files
(see ``core.queries.subsystems``). Values that may be secrets are masked by the core before they get here.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QTabWidget, QVBoxLayout

from daycare_gui.core.queries.subsystems import RowSet, ShownRow, channel_contents, subsystem_rows
from daycare_gui.ui.formats import count
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.filter_bar import FilterBox
from daycare_gui.ui.widgets.row_table import RowTable, describe_rowset, row_detail

# Rows per page: a table shows its first page at once and reads on by key as it is scrolled.
PAGE = 200


class SubsystemTablesPane(Pane):
    # (table, tab title, noun for the caption, in the singular) — several make tabs
    TABLES: tuple[tuple[str, str, str], ...] = ()
    FILTER_HINT = "Filter (Ctrl+F)"
    ITEM = "Row"  # detail heading prefix

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        self.filter_box = FilterBox(self.FILTER_HINT)
        self.summary = QLabel()
        bar.addWidget(self.filter_box, 1)
        bar.addWidget(self.summary, 0, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(bar)
        self.tables: dict[str, RowTable] = {}
        self.rowsets: dict[str, RowSet] = {}
        self.tabs: QTabWidget | None = None
        for table, title, _noun in self.TABLES:
            view = RowTable("Loading…")
            view.row_selected.connect(lambda row, t=title, v=view: self._row_selected(t, row, v.model.names))
            view.model.set_more(lambda last, t=table: self._fetch_more(t, last))
            self.tables[table] = view
        self.main = self._build_main()
        layout.addWidget(self.main, 1)
        self.filter_box.changed.connect(lambda _t: self.reload())
        self.filter_box.returnPressed.connect(self._focus_first_table)
        self._pending_target = None
        self._text = ""

    def _build_main(self):
        if len(self.TABLES) == 1:
            return self.tables[self.TABLES[0][0]]
        self.tabs = QTabWidget()
        for table, title, _noun in self.TABLES:
            self.tabs.addTab(self.tables[table], title)
        self.tabs.currentChanged.connect(self._tab_changed)
        return self.tabs

    def _tab_changed(self, index: int) -> None:
        view = self.tabs.widget(index)
        row = view.current_row() if isinstance(view, RowTable) else None
        if row is not None:
            self._row_selected(self.tabs.tabText(index).split(" (")[0], row, view.model.names)

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> None:
        self.reload()

    def reload(self) -> None:
        store, text = self.ctx.store, self.filter_box.text()
        self._text = text  # later pages continue the same filter
        for table, _title, noun in self.TABLES:
            self.ctx.worker.submit(f"{self.pane_id}:{table}",
                                   lambda t=table: subsystem_rows(store, t, text=text, limit=PAGE),
                                   on_result=lambda rs, t=table, n=noun: self._arrived(t, n, rs),
                                   on_error=lambda msg, t=table: self.tables[t].caption.setText(f"Cannot read {t}: {msg}"))

    def _fetch_more(self, table: str, last: ShownRow | None) -> None:
        """The table was scrolled to its end: the next page, after the last row held (same channel as the
        first page, so a new filter's first page makes a pending one stale)."""
        store, text, first = self.ctx.store, self._text, self.rowsets.get(table)
        if last is None or first is None:
            return
        noun = next(n for name, _t, n in self.TABLES if name == table)
        self.ctx.worker.submit(f"{self.pane_id}:{table}",
                               lambda: subsystem_rows(store, table, text=text, limit=PAGE, after_rowid=last.key),
                               on_result=lambda rs: self._more_arrived(table, noun, rs),
                               on_error=lambda msg: self.tables[table].caption.setText(f"Cannot read {table}: {msg}"))

    def _more_arrived(self, table: str, noun: str, page: RowSet) -> None:
        view, first = self.tables[table], self.rowsets[table]
        view.model.append_rows(page.rows, more=len(page.rows) == PAGE)
        self.rowsets[table] = replace(first, rows=first.rows + page.rows, problems=first.problems + page.problems)
        view.caption.setText(describe_rowset(noun)(self.rowsets[table]))

    def _arrived(self, table: str, noun: str, rowset: RowSet) -> None:
        self.rowsets[table] = rowset
        view = self.tables[table]
        current = view.current_row()
        view.set_rowset(rowset, describe_rowset(noun), more=rowset.source == "database" and rowset.truncated)
        if self.tabs is not None:
            index = self.tabs.indexOf(view)
            title = next(t for name, t, _n in self.TABLES if name == table)
            self.tabs.setTabText(index, f"{title} ({rowset.total:,})" if rowset.source != "none" else title)
        self.summary.setText("  ·  ".join(count(rs.total, n) for name, _t, n in self.TABLES
                                          if (rs := self.rowsets.get(name)) is not None and rs.source != "none"))
        target = self._pending_target
        keep = view.model.row_of_key(current.key) if current is not None else -1
        if target is not None:
            found = self._find(view, target)
            if found >= 0:
                self._pending_target = None
                keep = found
        # Only the visible tab updates the detail pane; the others keep their row quietly.
        quiet = self.tabs is not None and self.tabs.currentWidget() is not view
        view.blockSignals(quiet)
        view.select_row(keep if keep >= 0 else 0)
        view.blockSignals(False)

    def _row_selected(self, title: str, row: ShownRow, names=None) -> None:
        name = row.values.get("name") or row.values.get("id") or row.key
        self.ctx.show_detail(row_detail(f"{title}: {name}", row, names))

    # -- pane API ----------------------------------------------------------------------------------
    def _focus_first_table(self) -> None:
        view = self.tabs.currentWidget() if self.tabs is not None else self.main
        view.setFocus()

    @staticmethod
    def _find(view: RowTable, target) -> int:
        for row in range(view.model.rowCount()):
            record = view.model.record(row)
            if target in (record.key, record.values.get("id"), record.values.get("name")):
                return row
        return -1

    def open_item(self, target) -> None:
        """``target``: a row id (or channel name) in any of this pane's tables."""
        for view in self.tables.values():
            row = self._find(view, target)
            if row >= 0:
                if self.tabs is not None:
                    self.tabs.setCurrentWidget(view)
                view.select_row(row)
                return
        self._pending_target = target


class ChannelsPane(SubsystemTablesPane):
    pane_id = "channels"
    title = "Channels"
    TABLES = (("channels", "Channel", "channel"),)
    FILTER_HINT = "Filter channels by name, id, leader or user (Ctrl+F)"

    def _build_main(self):
        self.members = RowTable("Members — select a channel")
        self.messages = RowTable("Messages — select a channel")
        self.members.row_selected.connect(lambda row: self._row_selected("Member", row, self.members.model.names))
        self.messages.row_selected.connect(lambda row: self._row_selected("Message", row, self.messages.model.names))
        self.contents_tabs = QTabWidget()
        self.contents_tabs.addTab(self.messages, "Messages")
        self.contents_tabs.addTab(self.members, "Members")
        split = QSplitter(Qt.Orientation.Vertical)
        channel_view = self.tables["channels"]
        split.addWidget(channel_view)
        split.addWidget(self.contents_tabs)
        split.setSizes([220, 420])
        channel_view.row_selected.connect(self._channel_selected)
        return split

    def _channel_selected(self, row: ShownRow) -> None:
        store = self.ctx.store
        self.ctx.worker.submit("channels:contents", lambda: channel_contents(store, row),
                               on_result=lambda c: self._contents_arrived(row, c),
                               on_error=lambda msg: self.messages.caption.setText(f"Cannot read messages: {msg}"))

    def _contents_arrived(self, channel: ShownRow, contents) -> None:
        name = channel.values.get("name") or channel.values.get("id")
        self.members.set_rowset(contents.members, lambda rs: f"Members of {name}: {rs.total:,}")
        self.messages.set_rowset(contents.messages, lambda rs: f"Messages in {name}: {rs.total:,}"
                                 + (f" (first {len(rs.rows):,} shown)" if rs.truncated else ""))
        self.contents_tabs.setTabText(0, f"Messages ({contents.messages.total:,})")
        self.contents_tabs.setTabText(1, f"Members ({contents.members.total:,})")


class SignalsPane(SubsystemTablesPane):
    pane_id = "signals"
    title = "Signals"
    TABLES = (("signals_events", "Events", "event"),
              ("signals_subscriptions", "Subscriptions", "subscription"),
              ("signals_delayed", "Delayed", "delayed signal"))
    FILTER_HINT = "Filter signals by type, source, user or data (Ctrl+F)"


class ProcessesPane(SubsystemTablesPane):
    pane_id = "processes"
    title = "Processes"
    TABLES = (("processes", "Process", "process"),)
    FILTER_HINT = "Filter processes by name, command, status or folder (Ctrl+F); environment values are masked"


class ExposePane(SubsystemTablesPane):
    pane_id = "expose"
    title = "Expose"
    TABLES = (("expose_endpoints", "Endpoint", "endpoint"),)
    FILTER_HINT = "Filter endpoints by domain, provider, mode or target (Ctrl+F)"


class SystemPromptsPane(SubsystemTablesPane):
    pane_id = "system_prompts"
    title = "System prompts"
    TABLES = (("system_prompts", "System prompt", "prompt"),)
    FILTER_HINT = "Filter prompts by text, scope, kind or user (Ctrl+F)"

    def _row_selected(self, title: str, row: ShownRow, names=None) -> None:
        item = row_detail(f"{title}: {row.values.get('kind', '')} ({row.values.get('scope', '')})", row, names)
        prompt = row.values.get("prompt")
        if isinstance(prompt, str):  # the prompt is Markdown: let the detail pane render it
            from dataclasses import replace

            item = replace(item, markdown=prompt)
        self.ctx.show_detail(item)
