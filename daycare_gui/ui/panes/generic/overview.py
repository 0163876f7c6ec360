"""What any opened store is: its kind, layout, engine, notes; what it holds (tables with their rows, and
the kind's other counts); activity and tokens per day, with tokens and cost per model."""

from __future__ import annotations

import datetime as _dt
import math
from collections import defaultdict
from dataclasses import dataclass

from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.common.wording import words_of
from daycare_gui.ui.models.columns import Column, fmt_int
from daycare_gui.ui.models.record_list_model import RecordListModel
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.charts import ActivityChart
from daycare_gui.ui.widgets.day_chart import DayChart
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape
from daycare_gui.ui.widgets.tables import make_table

DAYS = 30


@dataclass(frozen=True)
class CountRow:
    id: str
    count: int


COUNT_COLUMNS = [Column("Name", lambda r: r.id), Column("Count", lambda r: r.count, fmt_int, align_right=True)]


def other_name(key: str) -> str:
    """A kind's other count named in words, what it counts first: ``files.skills`` → "Skills (files)" (read
    as one phrase it was "Files skills")."""
    where, dot, what = key.partition(".")
    return f"{words_of(what)} ({words_of(where).lower()})" if dot and where and what else words_of(key)


# A kind's other counts are named in words (a table keeps its own name: it is what Storage lists)
OTHER_COLUMNS = [Column("Name", lambda r: other_name(r.id), tooltip=lambda r: r.id), COUNT_COLUMNS[1]]


def _counted(ask) -> tuple[list, str | None]:
    """A chart's days, or why they could not be counted: a failed count must not read as "nothing"."""
    try:
        return ask(), None
    except Exception as exc:  # the store's own error (a locked database, a bad JSON value), said in the chart
        return [], str(exc) or type(exc).__name__


def overview_facts(opened) -> dict:
    """Runs on the background worker: the summary, the counts (tables apart from the kind's other counts),
    and the last 30 active days of records and of tokens (with their cost) where the store keeps them."""
    charts = opened.capability(api.Charts)
    activity, activity_failure = _counted(lambda: charts.activity_per_day()[-DAYS:] if charts is not None else [])
    tokens, token_failure = _counted(lambda: _last_days(charts.tokens_per_day()) if charts is not None else [])
    unreadable, _ = _counted(lambda: charts.unreadable_token_calls() if charts is not None and not token_failure else 0)
    cost, _ = _counted(lambda: _last_days(charts.cost_per_day()) if charts is not None else [])
    totals, totals_failure = _counted(lambda: charts.tokens_by_model() if charts is not None and not tokens else [])
    token_failure = token_failure or totals_failure
    counts = opened.counts()
    tables_cap = opened.capability(api.Tables)
    names = {t.name for t in tables_cap.tables() if not t.hidden} if tables_cap is not None else set()
    return {"summary": opened.summary(), "counts": counts, "tables": names, "activity": activity,
            "activity_failure": activity_failure, "tokens": tokens, "token_failure": token_failure,
            "cost": cost, "token_totals": totals, "unreadable_token_calls": unreadable or 0,
            "problems": len(opened.problems),
            "errors": sum(1 for p in opened.problems.as_list() if p.severity == "error")}


def activity_words(charts: api.Charts | None) -> dict[str, str]:
    """The activity chart's words from the kind: what it counts is the kind's to say, not the window's."""
    source = charts if charts is not None else api.Charts  # (no charts: the defaults)
    return {"what": source.activity_what, "none": source.activity_none, "unit": source.activity_unit}


def unreadable_calls(n: int) -> str:
    return f"{n:,} model call{'s' if n != 1 else ''} whose token counts cannot be read"


def _last_days(rows: list) -> list:
    days = sorted({r.day for r in rows})[-DAYS:]
    return [r for r in rows if days and r.day >= days[0]]


def day_totals(rows) -> list[tuple[int, int]]:
    """DayCounts of any series → (midnight UTC in ms, total) per day, what the day charts draw."""
    totals: dict[str, float] = defaultdict(float)
    for r in rows:
        totals[r.day] += r.value
    out = []
    for day, value in sorted(totals.items()):
        try:
            ms = int(_dt.datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=_dt.timezone.utc).timestamp() * 1000)
        except ValueError:
            continue
        if math.isfinite(value):  # (a store's JSON may hold 1e400 or NaN: no bar to draw for it)
            out.append((ms, round(value)))
    return out


class TokensPerDayChart(ActivityChart):
    """Tokens per day (every model together) drawn like the activity chart; the models are in the text."""

    def __init__(self, parent=None) -> None:
        DayChart.__init__(self, "Tokens per day", "No token usage recorded.", "token", parent)


class StoreOverviewPane(Pane):
    has_details = False  # nothing here is shown in the Details dock
    pane_id = "overview"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        self.facts: dict | None = None
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.view = SafeTextBrowser()
        self.view.setObjectName("storeOverview")
        self.view.setHtml("<p>Loading…</p>")
        top.addWidget(self.view, 3)
        # What it holds: the database's tables (Enter browses one in Storage), then the kind's other counts.
        counts = QVBoxLayout()
        self.tables_model = RecordListModel(COUNT_COLUMNS)
        self.other_model = RecordListModel(OTHER_COLUMNS)
        self.tables_view = make_table(self.tables_model, row_height=22)
        self.tables_view.setToolTip("Press Enter to browse a table in Storage")
        self.tables_view.activated.connect(self._open_table)
        self.other_view = make_table(self.other_model, row_height=22)
        self.tables_box = QGroupBox("Database tables")
        self.other_box = QGroupBox("Other items")
        for box, view in ((self.tables_box, self.tables_view), (self.other_box, self.other_view)):
            inner = QVBoxLayout(box)
            inner.addWidget(view)
            counts.addWidget(box, 1)
        top.addLayout(counts, 2)
        layout.addLayout(top, 1)
        problems_row = QHBoxLayout()
        self.problems_label = QLabel("Counting problems…")
        self.problems_label.setWordWrap(True)
        self.problems_button = QPushButton("Show problems")
        self.problems_button.setToolTip("Open the Problems page (every file, line and value that did not read)")
        self.problems_button.clicked.connect(lambda: self.ctx.navigate("problems", None))
        self.storage_button = QPushButton("Tables and migrations…")
        self.storage_button.clicked.connect(lambda: self.ctx.navigate("storage", None))
        problems_row.addWidget(self.problems_label, 1)
        problems_row.addWidget(self.problems_button)
        problems_row.addWidget(self.storage_button)
        layout.addLayout(problems_row)
        charts = QHBoxLayout()
        self.activity_chart = ActivityChart(**activity_words(ctx.opened.capability(api.Charts)))
        self.tokens_chart = TokensPerDayChart()
        self.tokens_chart.hide()  # shown only for a store that keeps token usage
        charts.addWidget(self.activity_chart, 1)
        charts.addWidget(self.tokens_chart, 1)
        layout.addLayout(charts)
        self.setTabOrder(self.tables_view, self.other_view)
        self.setTabOrder(self.other_view, self.problems_button)
        self.setTabOrder(self.problems_button, self.storage_button)

    def load(self) -> None:
        opened = self.ctx.opened
        self.ctx.slow_worker.submit("generic-overview", lambda: overview_facts(opened),
                                    on_result=self._arrived, on_error=self._failed)

    def _failed(self, message: str) -> None:
        self.view.setHtml(f"<p>Could not read: {escape(message)}</p>")
        for chart in (self.activity_chart, self.tokens_chart):
            chart.show_message("Not counted: the overview could not be loaded.")

    def _arrived(self, facts: dict) -> None:
        self.facts = facts
        s = facts["summary"]
        rows = [("Kind", s.kind), ("Layout", s.generation), ("Opened", s.open_mode or "read-only"),
                ("Engine", ("RUNNING — edits are refused unless you insist" if s.engine_running else "not running")
                 + (f" ({s.engine_detail})" if s.engine_detail else "")), *s.facts]
        html = [f"<h2>{escape(s.title)}</h2><table cellpadding='3'>"]
        html += [f"<tr><td><b>{escape(words_of(k))}</b></td><td>{escape(str(v))}</td></tr>" for k, v in rows]
        html.append("</table>")
        for note in s.notes:
            html.append(f"<p><i>{escape(note)}</i></p>")
        self._show_counts(facts["counts"], facts["tables"])
        if facts["activity_failure"]:  # a count that failed is said once, in its chart, where its numbers would be
            self.activity_chart.show_message(f"Could not count activity: {facts['activity_failure']}")
        else:
            self.activity_chart.set_days(day_totals(facts["activity"]))
        unreadable = facts.get("unreadable_token_calls", 0)
        self.tokens_chart.setVisible(bool(facts["tokens"] or facts["token_failure"] or unreadable))
        if facts["token_failure"]:
            self.tokens_chart.show_message(f"Could not count token usage: {facts['token_failure']}")
        elif not facts["tokens"] and unreadable:
            self.tokens_chart.show_message(f"{unreadable_calls(unreadable)}: Costs lists them.")
        else:
            self.tokens_chart.set_days(day_totals(facts["tokens"]))
        if facts["tokens"]:
            html.append(_models_table(facts["tokens"], facts["cost"]))
        elif facts["token_totals"]:
            html.append(_totals_table(facts["token_totals"]))
        if unreadable:  # (counted apart, as Costs counts them: read as 0, every figure here would be low)
            html.append(f"<p><i>Not counted in these tokens: {escape(unreadable_calls(unreadable))} (Costs "
                        "lists them and says why).</i></p>")
        self.view.setHtml("".join(html))
        n, errors = facts["problems"], facts["errors"]
        # (as many as opening found: reading pages may find more, which the navigation's count follows)
        self.problems_label.setText(
            f"{n:,} problem{'s' if n != 1 else ''} found while opening the store ({errors:,} error"
            f"{'s' if errors != 1 else ''}, {n - errors:,} warning{'s' if n - errors != 1 else ''}); pages may "
            "find more as they read (see Problems)." if n else
            "No problems found while opening the store; pages may find some as they read (see Problems).")

    def _show_counts(self, counts: dict, tables: set[str]) -> None:
        numeric = {str(k): v for k, v in counts.items() if isinstance(v, int) and not isinstance(v, bool)}
        self.tables_model.set_records([CountRow(k, v) for k, v in numeric.items() if k in tables])
        self.other_model.set_records([CountRow(k, v) for k, v in numeric.items() if k not in tables])
        self.tables_box.setTitle(f"Database tables ({len(tables)})" if tables else "Database tables — none")
        self.tables_box.setVisible(bool(tables))
        self.other_box.setTitle(f"Other items ({self.other_model.rowCount()} with a count)")
        self.other_box.setVisible(self.other_model.rowCount() > 0)
        for view in (self.tables_view, self.other_view):  # names take the width; counts fit their numbers
            header = view.horizontalHeader()
            header.setStretchLastSection(False)
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
            header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)

    def _open_table(self, index) -> None:
        row = self.tables_model.record(index.row())
        if row is not None:
            self.ctx.navigate("storage", row.id)

    def focus_filter(self) -> None:
        self.tables_view.setFocus()

    def shown_text(self) -> str:
        """What the page says, as text: the summary, then what it holds (a cell per line)."""
        lines = [self.view.toPlainText()]
        if self.facts is not None:
            lines.append("What it holds")
            for model in (self.other_model, self.tables_model):
                for r in range(model.rowCount()):
                    lines += [model.index(r, 0).data(), model.index(r, 1).data()]
        return "\n".join(lines) + "\n"


def _models_table(tokens, cost) -> str:
    """Tokens and cost per model over the days the chart shows, largest first."""
    by_model: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in tokens:
        by_model[r.series or "(no model)"][0] += r.value
    for r in cost:
        by_model[r.series or "(no model)"][1] += r.value
    days = sorted({r.day for r in tokens})
    priced = bool(cost)  # a store that records no cost shows none, rather than a column of 0.00
    html = [f"<h3>Tokens by model, {escape(days[0])} to {escape(days[-1])}</h3><table cellpadding='2'>",
            "<tr><th align='left'>Model</th><th align='right'>Tokens</th>"
            + ("<th align='right'>Stored cost</th>" if priced else "") + "</tr>"]
    for model, (n, c) in sorted(by_model.items(), key=lambda kv: -kv[1][0]):
        html.append(f"<tr><td>{escape(model)}</td><td align='right'>{_num(n)}</td>"
                    + (f"<td align='right'>${c:,.2f}</td>" if priced else "") + "</tr>")
    html.append("</table>")
    if priced:  # the store's own figure, not ours: the Costs page sets it beside the price table's
        html.append("<p><i>Stored cost: in US dollars, as the store recorded it; Costs recomputes it from the "
                    "price table and shows the two side by side.</i></p>")
    return "".join(html)


def _totals_table(totals) -> str:
    """Tokens per model over the store's life, where it keeps no days."""
    html = ["<h3>Tokens by model, all time</h3><table cellpadding='2'>",
            "<tr><th align='left'>Model</th><th align='right'>Tokens</th></tr>"]
    html += [f"<tr><td>{escape(model)}</td><td align='right'>{_num(n)}</td></tr>" for model, n in totals]
    html.append("</table>")
    return "".join(html)


def _num(v) -> str:
    if isinstance(v, (int, float)):
        return f"{v:,.0f}"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_num(x)}" for k, x in v.items())
    return escape(str(v))
