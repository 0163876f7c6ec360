"""What any opened store is: its kind, layout, engine, counts, notes, and activity and tokens per day."""

from __future__ import annotations

import datetime as _dt
import math
from collections import defaultdict

from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.stores.common.wording import words_of
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.charts import ActivityChart
from daycare_gui.ui.widgets.day_chart import DayChart
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape

DAYS = 30


def overview_facts(opened) -> dict:
    """Runs on the background worker: the summary, the counts, and the last 30 active days of records
    and of tokens (with their cost) where the store keeps them."""
    charts = opened.capability(api.Charts)
    activity = charts.activity_per_day()[-DAYS:] if charts is not None else []
    tokens = _last_days(charts.tokens_per_day()) if charts is not None else []
    cost = _last_days(charts.cost_per_day()) if charts is not None else []
    return {"summary": opened.summary(), "counts": opened.counts(), "activity": activity, "tokens": tokens,
            "cost": cost, "problems": len(opened.problems)}


def activity_words(charts: api.Charts | None) -> dict[str, str]:
    """The activity chart's words from the kind: what it counts is the kind's to say, not the window's."""
    source = charts if charts is not None else api.Charts  # (no charts: the defaults)
    return {"what": source.activity_what, "none": source.activity_none, "unit": source.activity_unit}


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
        layout = QVBoxLayout(self)
        self.view = SafeTextBrowser()
        self.view.setObjectName("storeOverview")
        self.view.setHtml("<p>Loading…</p>")
        layout.addWidget(self.view, 1)
        charts = QHBoxLayout()
        self.activity_chart = ActivityChart(**activity_words(ctx.opened.capability(api.Charts)))
        self.tokens_chart = TokensPerDayChart()
        self.tokens_chart.hide()  # shown only for a store that keeps token usage
        charts.addWidget(self.activity_chart, 1)
        charts.addWidget(self.tokens_chart, 1)
        layout.addLayout(charts)

    def load(self) -> None:
        opened = self.ctx.opened
        self.ctx.slow_worker.submit("generic-overview", lambda: overview_facts(opened),
                                    on_result=self._arrived,
                                    on_error=lambda m: self.view.setHtml(f"<p>Could not read: {escape(m)}</p>"))

    def _arrived(self, facts: dict) -> None:
        s = facts["summary"]
        rows = [("Kind", s.kind), ("Layout", s.generation), ("Opened", s.open_mode or "read-only"),
                ("Engine", ("RUNNING — edits are refused unless you insist" if s.engine_running else "not running")
                 + (f" ({s.engine_detail})" if s.engine_detail else "")), *s.facts]
        html = [f"<h2>{escape(s.title)}</h2><table cellpadding='3'>"]
        html += [f"<tr><td><b>{escape(words_of(k))}</b></td><td>{escape(str(v))}</td></tr>" for k, v in rows]
        html.append("</table>")
        for note in s.notes:
            html.append(f"<p><i>{escape(note)}</i></p>")
        counts = facts["counts"]
        if counts:
            html.append("<h3>What it holds</h3><table cellpadding='2'>")
            html += [f"<tr><td>{escape(words_of(str(k)))}</td><td align='right'>{_num(v)}</td></tr>"
                     for k, v in counts.items()]
            html.append("</table>")
        self.activity_chart.set_days(day_totals(facts["activity"]))
        self.tokens_chart.setVisible(bool(facts["tokens"]))
        self.tokens_chart.set_days(day_totals(facts["tokens"]))
        if facts["tokens"]:
            html.append(_models_table(facts["tokens"], facts["cost"]))
        n = facts["problems"]
        # (as many as opening found: reading pages may find more, which the navigation's count follows)
        html.append(f"<p>{n:,} problem{'s' if n != 1 else ''} found while opening the store; pages may find "
                    "more as they are read (see Problems).</p>")
        self.view.setHtml("".join(html))

    def shown_text(self) -> str:
        return self.view.toPlainText()


def _models_table(tokens, cost) -> str:
    """Tokens and cost per model over the days the chart shows, largest first."""
    by_model: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in tokens:
        by_model[r.series or "(no model)"][0] += r.value
    for r in cost:
        by_model[r.series or "(no model)"][1] += r.value
    days = sorted({r.day for r in tokens})
    html = [f"<h3>Tokens by model, {escape(days[0])} to {escape(days[-1])}</h3><table cellpadding='2'>",
            "<tr><th align='left'>Model</th><th align='right'>Tokens</th><th align='right'>Cost</th></tr>"]
    for model, (n, c) in sorted(by_model.items(), key=lambda kv: -kv[1][0]):
        html.append(f"<tr><td>{escape(model)}</td><td align='right'>{_num(n)}</td>"
                    f"<td align='right'>{c:,.2f}</td></tr>")
    html.append("</table>")
    return "".join(html)


def _num(v) -> str:
    if isinstance(v, (int, float)):
        return f"{v:,.0f}"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_num(x)}" for k, x in v.items())
    return escape(str(v))
