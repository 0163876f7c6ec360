"""Costs of any store that offers ``api.Usage``: totals by model, day, agent, task or user, priced from the
bundled price table, each total drilling down to the records it was summed from; a double-click on a record
opens the conversation at it. Pricing and totals are computed on the worker (``stores/common/costs``)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QVBoxLayout, QWidget

from daycare_gui.stores import api
from daycare_gui.stores.common.costs import drill, model_label, money, total_money, unreadable_line
from daycare_gui.stores.common.pricing import import_table
from daycare_gui.stores.common.run_costs import compute_costs
from daycare_gui.stores.records import JumpEntry
from daycare_gui.ui.context import DetailItem
from daycare_gui.ui.models.columns import Column, fmt_int
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, when
from daycare_gui.ui.widgets.markdown_view import escape

DRILL_LIMIT = 5000
GROUPINGS = (("model", "Model"), ("day", "Day"), ("agent", "Agent"), ("task", "Task"), ("user", "User"),
             ("session", "Session"))  # by session: each conversation's cache reads and what they saved


def _flags(t) -> str:
    out = []
    if t.unpriced_records:
        out.append(f"unpriced: {fmt_int(t.unpriced_tokens)} tokens")
    if t.estimated_records:
        out.append(f"{fmt_int(t.estimated_records)} estimated")
    if t.unsure_records:
        out.append("estimates cannot be told apart")
    return "; ".join(out)


TOTAL_COLUMNS = [
    Column("Group", lambda t: t.label),
    Column("Calls", lambda t: t.records, display=fmt_int, align_right=True),
    Column("Tokens", lambda t: t.tokens, display=fmt_int, align_right=True),
    Column("Cost", total_money, align_right=True, sort_value=lambda t: t.usd),
    Column("Cache reads", lambda t: t.cache_read_share, align_right=True,
           display=lambda v: "" if v is None else f"{v:.0%}", sort_value=lambda t: t.cache_read_share or 0),
    Column("Saved by cache", lambda t: money(t.saved) if t.saved else "", align_right=True,
           sort_value=lambda t: t.saved),
    Column("Notes", _flags),
]

def _count_column(title: str, count) -> Column:
    """A column of ``count(record)``, or "—" where the record's counts cannot be read (0 would read as a call
    that used none)."""
    return Column(title, lambda p: "—" if p.record.problem else fmt_int(count(p.record)), align_right=True,
                  sort_value=lambda p: count(p.record))


RECORD_COLUMNS = [
    Column("Time", lambda p: p.record.at, display=when, align_right=True),
    Column("Model", lambda p: model_label(p.record)),
    Column("Agent", lambda p: p.record.thread_title or (p.record.ref.thread_id if p.record.ref else "")),
    _count_column("Input", lambda r: r.input),
    _count_column("Output", lambda r: r.output),
    _count_column("Cache read", lambda r: r.cache_read),
    _count_column("Cache write", lambda r: r.cache_write_5m + r.cache_write_1h),
    Column("Cost", lambda p: "unreadable" if p.record.problem else money(p.price.usd), align_right=True,
           sort_value=lambda p: -1 if p.price.usd is None else p.price.usd, tooltip=lambda p: p.record.problem),
]


def _usd4(v) -> str:
    return "—" if v is None else f"${v:,.4f}"


def _difference(s) -> str:
    """Recomputed less stored, where both are known."""
    if s.stored_usd is None or s.usd is None:
        return ""
    d = float(s.usd) - s.stored_usd
    return f"{'+' if d >= 0 else '−'}${abs(d):,.4f}"


# The store's own cost beside the recomputed one, a line per day and model (Daycare's token_stats_hourly)
STORED_COLUMNS = [
    Column("Day", lambda s: s.day),
    Column("Model", lambda s: s.model),
    Column("Store's cost", lambda s: s.stored_usd, display=_usd4, align_right=True,
           sort_value=lambda s: s.stored_usd if s.stored_usd is not None else -1),
    Column("Recomputed", lambda s: s.usd if s.tokens else None, display=_usd4, align_right=True,
           sort_value=lambda s: s.usd if s.usd is not None else -1),
    Column("Difference", _difference, align_right=True),
    Column("Why they differ", lambda s: s.why, tooltip=lambda s: s.why),
    Column("Tokens (store)", lambda s: s.stored_tokens, display=fmt_int, align_right=True),
    Column("Tokens (records)", lambda s: s.tokens, display=fmt_int, align_right=True),
]


class CostsPane(Pane):
    pane_id = "costs"
    title = "Costs"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.usage: api.Usage | None = ctx.opened.capability(api.Usage)
        # "by task" totals the records of each automation's runs, where the store's runs can be told
        self.automations: api.Automations | None = ctx.opened.capability(api.Automations)
        self.report = None
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Group by"))
        self.group = QComboBox()
        for by, title in GROUPINGS:
            self.group.addItem(title, by)
        bar.addWidget(self.group)
        self.summary = QLabel("Pricing…")
        self.summary.setWordWrap(True)
        bar.addWidget(self.summary, 1)
        layout.addLayout(bar)
        self.prices = QLabel("")  # the table's version and where the usage comes from
        self.prices.setWordWrap(True)
        layout.addWidget(self.prices)
        split = QSplitter(Qt.Orientation.Vertical)
        self.totals = RecordList("Totals", TOTAL_COLUMNS, key=lambda t: t.group)
        self.records = RecordList("Records of the selected total (double-click opens the conversation there)",
                                  RECORD_COLUMNS, key=lambda p: p.record.key)
        split.addWidget(self.totals)
        split.addWidget(self.records)
        self.stored = RecordList("The store's own cost beside the recomputed one (not added to the total)",
                                 STORED_COLUMNS, key=lambda s: (s.day, s.model))
        self.stored.hide()  # (only a store that keeps its own cost)
        split.addWidget(self.stored)
        layout.addWidget(split, 1)
        self.notes = QLabel("")  # unpriced models, calls whose counts cannot be read, the store's own cost beside
        self.notes.setWordWrap(True)
        self.notes.setTextFormat(Qt.TextFormat.RichText)
        self.notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.notes.linkActivated.connect(lambda _link: self.show_unreadable())
        holder = QWidget()
        QVBoxLayout(holder).addWidget(self.notes)
        layout.addWidget(holder)
        self.group.currentIndexChanged.connect(lambda _i: self.load())
        self.totals.table.selectionModel().currentRowChanged.connect(self._total_selected)
        self.records.table.activated.connect(self._open_record)
        self.records.table.selectionModel().currentRowChanged.connect(self._record_selected)
        self.stored.table.selectionModel().currentRowChanged.connect(self._stored_selected)

    # -- totals -----------------------------------------------------------------------------------------
    def load(self) -> None:
        usage, automations, by = self.usage, self.automations, self.group.currentData()
        self.summary.setText("Pricing…")
        import_table()  # (here, on the GUI thread: never first on a worker)
        # long (seconds on a big store): on the background worker, so the pages the user goes to meanwhile
        # are not kept waiting; the calls read are said as it goes, and a new grouping (or the store
        # closing) stops it
        self.ctx.slow_worker.submit_long(
            "costs", lambda progress, cancelled: compute_costs(usage, automations, by, cancelled=cancelled,
                                                               progress=lambda n: progress(n, 0, "")),
            on_result=self._arrived, on_progress=lambda done, _total, _msg: self.summary.setText(
                f"Pricing… {fmt_int(done)} model calls read"),
            on_error=lambda msg: self.summary.setText(f"Cannot compute costs: {msg}"))

    def _arrived(self, report) -> None:
        self.report = report
        self.prices.setText(f"Prices: {report.table.line()}." + (f" Usage: {report.source}." if report.source else ""))
        self.totals.set_records(report.totals)
        # days in order; every other grouping dearest first
        by_day = report.by == "day"
        self.totals.table.sortByColumn(0 if by_day else 3, Qt.SortOrder.AscendingOrder if by_day
                                       else Qt.SortOrder.DescendingOrder)
        self.records.set_records([])
        self.stored.set_records(report.stored)
        self.stored.setVisible(bool(report.stored))
        if report.stored:
            self.stored.table.resizeColumnsToContents()
        if report.empty:
            self.summary.setText(report.empty)
            self.notes.setText("")
            return
        t = report.overall
        self.summary.setText(f"{total_money(t)} for {fmt_int(t.records)} model calls, {fmt_int(t.tokens)} tokens")
        self.notes.setText(self._notes(report))
        if report.totals:
            self.totals.table.selectRow(0)

    @staticmethod
    def _notes(report) -> str:
        """The notes under the tables, as rich text (every part from the store escaped)."""
        lines = []
        if report.unreadable.records:
            lines.append(f"{escape(unreadable_line(report))}. <a href=\"unreadable\">Show them</a>")
        for model, (tokens, why) in report.unpriced.items():
            lines.append(escape(f"Unpriced: {model}, {fmt_int(tokens)} tokens ({why}); not counted as $0."))
        if report.stored:
            own = sum(s.stored_usd or 0 for s in report.stored)
            lines.append(escape(f"The store's own cost: ${own:,.2f} over {len(report.stored)} day and model lines "
                                f"(not added to the total; each line in the table above). {report.stored_note}"))
        return "<br>".join(lines)

    def show_unreadable(self) -> None:
        """The calls no total counts (their token counts cannot be read) in the records' table."""
        if self.report is not None and self.report.unreadable.records:
            self.totals.table.clearSelection()
            self._drill(list(self.report.unreadable.keys), "model calls whose token counts cannot be read")

    def _stored_selected(self, current, _previous) -> None:
        line = self.stored.records.record_at(current) if current.isValid() else None
        if line is None:
            return
        fields = (("Day", line.day), ("Model", line.model), ("Store's cost", _usd4(line.stored_usd)),
                  ("Recomputed", _usd4(line.usd if line.tokens else None)), ("Difference", _difference(line)),
                  ("Tokens (store)", fmt_int(line.stored_tokens)), ("Tokens (records)", fmt_int(line.tokens)),
                  ("Why they differ", line.why))
        self.ctx.show_detail(DetailItem(f"The store's own cost: {line.day} {line.model}", fields))

    def _total_selected(self, current, _previous) -> None:
        total = self.totals.records.record_at(current) if current.isValid() else None
        if total is None:
            return
        self.ctx.show_detail(DetailItem(f"Total: {total.label}", _total_fields(total), raw=total.as_dict()))
        self._drill(list(total.keys), "records of the selected total")

    def _drill(self, keys: list[str], what: str) -> None:
        """The records of ``keys`` in the records' table (a big total lists its first records only)."""
        usage, shown = self.usage, keys[:DRILL_LIMIT]
        self.records.caption.setText(
            f"<b>{what[:1].upper()}{what[1:]}</b> (double-click opens the conversation there)" if len(keys) <= DRILL_LIMIT
            else f"<b>The first {fmt_int(DRILL_LIMIT)} of {fmt_int(len(keys))} {what}</b> "
                 "(double-click opens the conversation there)")
        self.ctx.worker.submit("costs-records", lambda: list(drill(usage, shown)), on_result=self.records.set_records)

    # -- records ----------------------------------------------------------------------------------------
    def _record_selected(self, current, _previous) -> None:
        pr = self.records.records.record_at(current) if current.isValid() else None
        if pr is None:
            return
        r = pr.record
        if r.problem:  # (its counts are unknown, not 0; no record id: it stands for a thread's calls)
            title = f"Model call {r.message_id}" if r.message_id else "Model calls that cannot be read"
            self.ctx.show_detail(DetailItem(title, (
                ("Time", when(r.at)), ("Model", model_label(r)), ("Cost", "unknown: not counted in any total"),
                ("Why", r.problem), ("Session", r.ref.session_id if r.ref else ""), ("Record", r.message_id))))
            return
        fields = (("Time", when(r.at)), ("Model", model_label(r)), ("Cost", money(pr.price.usd)),
                  ("Priced as", pr.price.matched or pr.price.why), ("Input", fmt_int(r.input)),
                  ("Output", fmt_int(r.output)), ("Cache read", fmt_int(r.cache_read)),
                  ("Cache write (5 min)", fmt_int(r.cache_write_5m)), ("Cache write (1 hour)", fmt_int(r.cache_write_1h)),
                  ("Estimated", {True: "yes", False: "no", None: "cannot tell"}[r.estimated]),
                  ("Session", r.ref.session_id if r.ref else ""), ("Record", r.message_id))
        self.ctx.show_detail(DetailItem(f"Model call {r.message_id}", fields))

    def _open_record(self, index) -> None:
        pr = self.records.records.record_at(index)
        if pr is None or pr.record.ref is None:
            return
        from daycare_gui.ui.panes.generic import route_for
        from daycare_gui.ui.panes.generic.conversations import MessageTarget

        ref, mid = pr.record.ref, pr.record.message_id
        section, _target = route_for(self.ctx.opened, JumpEntry("session", ref.session_id, ref.session_id, ref=ref))
        if section == "history":  # Daycare's own conversation page: (agent, session, record id)
            self.ctx.navigate("history", (ref.thread_id, ref.session_id, int(mid) if mid.isdigit() else None))
        else:
            self.ctx.navigate(section or "conversations", MessageTarget(ref, mid))


def _total_fields(t) -> tuple[tuple[str, str], ...]:
    """A total as a person reads it: money in dollars, the cache share in per cent (Raw JSON keeps the exact
    figures)."""
    share = t.cache_read_share
    fields = [("Group", t.label), ("Model calls", fmt_int(t.records)), ("Cost", total_money(t)),
              ("Input", fmt_int(t.input)), ("Output", fmt_int(t.output)), ("Cache read", fmt_int(t.cache_read)),
              ("Cache write", fmt_int(t.cache_write)), ("Tokens", fmt_int(t.tokens)),
              ("Cache-read share", "" if share is None else f"{share:.1%}"), ("Saved by the cache", money(t.saved))]
    if t.unpriced_records:
        fields.append(("Unpriced", f"{fmt_int(t.unpriced_records)} calls, {fmt_int(t.unpriced_tokens)} tokens"))
    if t.estimated_records:
        fields.append(("Estimated counts", f"{fmt_int(t.estimated_records)} calls"))
    if t.unsure_records:
        fields.append(("Estimated or not", f"{fmt_int(t.unsure_records)} calls the store does not say"))
    return tuple(fields)
