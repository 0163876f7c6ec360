"""What any opened store is: its kind, layout, engine, counts, notes and activity per day."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout

from daycare_gui.stores import api
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.widgets.markdown_view import SafeTextBrowser, escape


def overview_facts(opened) -> dict:
    """Runs on the background worker: the summary, the counts and the last 30 days of activity."""
    charts = opened.capability(api.Charts)
    activity = charts.activity_per_day()[-30:] if charts is not None else []
    return {"summary": opened.summary(), "counts": opened.counts(), "activity": activity,
            "problems": len(opened.problems)}


class StoreOverviewPane(Pane):
    has_details = False  # nothing here is shown in the Details dock
    pane_id = "overview"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        layout = QVBoxLayout(self)
        self.view = SafeTextBrowser()
        self.view.setObjectName("storeOverview")
        self.view.setHtml("<p>Loading…</p>")
        layout.addWidget(self.view)

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
        html += [f"<tr><td><b>{escape(k)}</b></td><td>{escape(str(v))}</td></tr>" for k, v in rows]
        html.append("</table>")
        for note in s.notes:
            html.append(f"<p><i>{escape(note)}</i></p>")
        counts = facts["counts"]
        if counts:
            html.append("<h3>What it holds</h3><table cellpadding='2'>")
            html += [f"<tr><td>{escape(str(k))}</td><td align='right'>{_num(v)}</td></tr>"
                     for k, v in counts.items()]
            html.append("</table>")
        if facts["activity"]:
            peak = max(d.value for d in facts["activity"]) or 1
            html.append("<h3>Activity per day</h3><table cellpadding='1'>")
            for d in facts["activity"]:
                bar = "█" * max(1, round(30 * d.value / peak))
                html.append(f"<tr><td>{escape(d.day)}</td><td>{bar}</td><td align='right'>{_num(d.value)}</td></tr>")
            html.append("</table>")
        n = facts["problems"]
        html.append(f"<p>{n:,} problem{'s' if n != 1 else ''} found while reading (see Problems).</p>")
        self.view.setHtml("".join(html))

    def shown_text(self) -> str:
        return self.view.toPlainText()


def _num(v) -> str:
    if isinstance(v, (int, float)):
        return f"{v:,.0f}"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_num(x)}" for k, x in v.items())
    return escape(str(v))
