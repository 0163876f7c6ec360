"""Scheduled work and its runs, for any kind that offers ``Automations``: each task or trigger with its schedule
in words, its next runs and its health at a glance (how many of the last runs worked, the last error, a task
that stopped firing, a run stuck "running"); the selected one's runs as a table, newest first — started,
finished, outcome with the error, tokens, and what the run was told from. Enter or a double click on a run opens
its conversation at the record it starts at.

Everything is read on the worker: the automations with their latest runs (for the health column), then the
selected automation's runs. Health is worked out by shared code (``stores.common.run_health``), never here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from daycare_gui.stores import api
from daycare_gui.stores.common.pricing import import_table
from daycare_gui.stores.common.run_cache import RunCache
from daycare_gui.stores.common.run_costs import RunCost, run_costs
from daycare_gui.stores.common.run_health import STUCK_AFTER_MS, RunHealth, run_health
from daycare_gui.stores.common.task_times import TaskTimes, task_times
from daycare_gui.stores.records import Automation, JumpEntry, Run
from daycare_gui.ui.models.columns import Column
from daycare_gui.ui.panes.base import Pane
from daycare_gui.ui.panes.generic.common import RecordList, detail_of, when
from daycare_gui.ui.widgets.markdown_view import escape

HEALTH_RUNS = 200  # the latest runs each automation's health is read from (bounded: a task may have 10,000)
SHOWN_RUNS = 20_000  # the selected automation's runs listed at most (the latest)
RUN_PAGE = 100  # runs handed to the table at once: more as it is scrolled to the end (a first screen at once)


@dataclass(frozen=True)
class ShownAutomation:
    """An automation with its schedule's words, next runs and health worked out on the worker."""

    automation: Automation
    times: TaskTimes | None
    health: RunHealth
    last_run: Run | None

    @property
    def id(self) -> str:
        return self.automation.id


def read_automations(cap: api.Automations | RunCache, now_ms: int | None = None, progress=None,
                     cancelled=None) -> list[ShownAutomation] | None:
    """On the worker: every automation with its latest runs' health; ``progress(done, total, what)`` told
    before each automation's runs are read, ``cancelled()`` asked then (None once it says so)."""
    now = now_ms if now_ms is not None else int(time.time() * 1000)
    out = []
    automations = cap.automations()
    for i, a in enumerate(automations):
        if cancelled is not None and cancelled():
            return None
        if progress is not None:
            progress(i, len(automations), a.title)
        runs = cap.runs(a.id, limit=HEALTH_RUNS) if a.runs_told else []
        out.append(ShownAutomation(a, task_times(a.task) if a.task is not None else None,
                                   run_health(a, runs, now_ms=now), runs[0] if runs else None))
    out.sort(key=_attention)  # what needs a look first; the store's order within each group
    return out


def _attention(s: ShownAutomation) -> int:
    """0: stuck or stopped firing, 1: failed lately, 2: working, 3: disabled or deleted."""
    return {"stuck": 0, "error": 1, None: 2}.get(_state(s), 3)


def _words(s: ShownAutomation) -> str:
    task = s.automation.task
    if task is None:
        return ""
    if s.times is not None and s.times.error:
        return f"invalid: {s.times.error}"
    text = s.times.words if s.times is not None else task.schedule
    return text if task.enabled else f"disabled ({text})"


def _next(s: ShownAutomation) -> int | None:
    if s.times is None or s.automation.task is None or not s.automation.task.enabled:
        return None
    first = s.times.overdue or (s.times.next_runs[0] if s.times.next_runs else None)
    return int(first.timestamp() * 1000) if first is not None else None


def _health(s: ShownAutomation) -> str:
    if not s.automation.runs_told:
        return f"runs cannot be told apart: {s.automation.why}" if s.automation.why else "runs cannot be told apart"
    return s.health.summary()


def _state(s: ShownAutomation) -> str | None:
    if s.health.stuck or s.health.stopped_firing:
        return "stuck"
    if s.health.failed:
        return "error"
    task = s.automation.task
    return "disabled" if s.automation.deleted or (task is not None and not task.enabled) else None


AUTOMATION_COLUMNS = [
    Column("Automation", lambda s: s.automation.title + (" (deleted)" if s.automation.deleted else ""),
           tooltip=lambda s: f"{s.automation.title}\n{s.automation.id}"),
    Column("Schedule", _words, tooltip=_words),
    Column("Next run", _next, display=when),
    Column("Last run", lambda s: s.last_run.started_at if s.last_run else None, display=when),
    Column("Runs", lambda s: s.health.runs_seen, align_right=True),
    Column("Health", _health, tooltip=lambda s: "\n".join(s.health.problems()) or _health(s)),
]


def _outcome(r: Run) -> str:
    return f"{r.outcome}: {r.error.strip().splitlines()[0]}" if r.error.strip() else r.outcome


RUN_COLUMNS = [
    Column("Started", lambda r: r.started_at, display=when),
    Column("Finished", lambda r: r.finished_at, display=when),
    Column("Outcome", _outcome, tooltip=lambda r: r.error or r.outcome),
    Column("Tokens", lambda r: r.tokens, display=lambda v: "" if v is None else f"{v:,}", align_right=True),
    Column("How sure", lambda r: r.certainty, tooltip=lambda r: r.evidence),
    Column("Told from", lambda r: r.evidence, tooltip=lambda r: r.evidence),
]


def _cost_tip(c: RunCost | None) -> str:
    if c is None:
        return ""
    if not c.records:
        return "no usage records in this run's span of its session"
    return (f"{c.shown()}: {c.records:,} model call{'s' if c.records != 1 else ''}, {c.tokens:,} tokens"
            + (f" ({c.unpriced_records:,} unpriced)" if c.unpriced_records else ""))


def _run_state(r: Run, now_ms: int | None = None) -> str | None:
    """How a run's row is drawn: a run still running is only marked stuck once health would call it so (a
    run that started minutes ago is just running)."""
    if r.outcome == "running":
        now = now_ms if now_ms is not None else int(time.time() * 1000)
        return "stuck" if r.started_at is not None and now - r.started_at > STUCK_AFTER_MS else None
    return {"failed": "error", "interrupted": "error", "skipped": "disabled"}.get(r.outcome)


class AutomationsPane(Pane):
    pane_id = "automations"

    def __init__(self, ctx, parent=None) -> None:
        super().__init__(ctx, parent)
        # (None: a store that keeps no records to tell runs from, such as Daycare's legacy folders)
        self.cap: api.Automations | None = ctx.opened.capability(api.Automations)
        # runs reconstructed once per store fingerprint (a big store takes seconds to tell them)
        self.cache = RunCache(self.cap) if self.cap is not None else None
        self._held: list[Run] = []  # the selected automation's runs; the table holds the first pages of them
        layout = QVBoxLayout(self)
        self.stack = QStackedWidget()
        self.nothing = QLabel("Nothing scheduled: this store holds no scheduled tasks or triggers.")
        self.nothing.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.nothing.setObjectName("nothingScheduled")
        self.list = RecordList("Automations", AUTOMATION_COLUMNS, key=lambda s: s.id, state=_state)
        self.filter_box, self.table = self.list.filter_box, self.list.table
        # what each run's usage records cost (stores.common.run_costs), priced on the slow worker once the
        # runs are on screen; keyed by run id (unique within the automation shown)
        self.usage: api.Usage | None = ctx.opened.capability(api.Usage)
        self._costs: dict[str, RunCost] = {}
        cost = Column("Cost", lambda r: self._costs.get(r.id), align_right=True,
                      display=lambda c: "" if c is None else c.shown(),
                      sort_value=lambda r: self._costs[r.id].usd if r.id in self._costs else -1,
                      tooltip=lambda r: _cost_tip(self._costs.get(r.id)))
        columns = RUN_COLUMNS[:4] + [cost] + RUN_COLUMNS[4:]
        self.runs = RecordList("Runs", columns, key=lambda r: r.id, state=_run_state)
        self.runs.table.setSortingEnabled(False)  # newest first, as read
        self.runs.records.model.set_more(self._more_runs)
        self.runs.filter_box.changed.connect(lambda text: self._more_runs(None, every=True) if text else None)
        self.health_label = QLabel()
        self.health_label.setWordWrap(True)
        self.health_label.setTextFormat(Qt.TextFormat.RichText)
        self.open_button = QPushButton("Open conversation")
        self.open_button.setToolTip("Open the selected run's records in its conversation (Enter)")
        self.open_button.setEnabled(False)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.health_label)
        lower_layout.addWidget(self.runs, 1)
        lower_layout.addWidget(self.open_button, 0, Qt.AlignmentFlag.AlignLeft)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.list)
        split.addWidget(lower)
        split.setStretchFactor(1, 2)
        self.stack.addWidget(split)
        self.stack.addWidget(self.nothing)
        layout.addWidget(self.stack)
        self._all: list[ShownAutomation] = []
        self._pending = None
        self.table.selectionModel().currentRowChanged.connect(self._selected)
        self.runs.table.selectionModel().currentRowChanged.connect(self._run_selected)
        self.runs.table.doubleClicked.connect(lambda _i: self.open_run())
        self.runs.table.activated.connect(lambda _i: self.open_run())
        self.open_button.clicked.connect(self.open_run)

    # -- loading -----------------------------------------------------------------------------------------
    def load(self) -> None:
        cap = self.cap
        if cap is None:  # (a store whose scheduled work leaves no records to tell its runs from)
            self.nothing.setText("No runs to show: this store keeps no records that scheduled runs can be told from.")
            self._arrived([])
            return
        cache = self.cache
        self.list.caption.setText("<b>Automations</b> (reading…)")
        self.ctx.worker.submit_long("automations", lambda progress, cancelled: read_automations(
            cache, progress=progress, cancelled=cancelled), on_result=self._read, on_progress=self._reading)

    def _reading(self, done: int, total: int, what: str) -> None:
        self.list.caption.setText(f"<b>Automations</b> (reading the runs of {escape(what)}: {done + 1:,} of "
                                  f"{total:,}…)")

    def _read(self, shown: list[ShownAutomation] | None) -> None:
        if shown is not None:  # (None: stopped, a newer read follows)
            self._arrived(shown)

    def store_changed(self) -> bool:
        self.load()
        return True

    def open_item(self, target) -> None:
        """``target``: an automation's id; kept until the list arrives."""
        if not self.list.select_key(target):
            self._pending = target

    def _arrived(self, shown: list[ShownAutomation]) -> None:
        self._all = shown
        self.stack.setCurrentWidget(self.nothing if not shown else self.stack.widget(0))
        keep = self.list.current()
        self.list.set_records(shown)
        self.list.caption.setText(f"<b>Automations</b> ({len(shown):,})")
        self.ctx.set_count("automations", len(shown))
        target, self._pending = self._pending, None
        if target is not None:
            self.list.select_key(target)
        elif keep is not None:
            self.list.select_key(keep.id)
        elif shown:
            self.table.selectRow(0)

    def _selected(self, current, _previous) -> None:
        s = self.list.records.record_at(current)
        if s is None:
            return
        self.health_label.setText(self._health_html(s))
        self._held = []
        self.runs.set_records([])
        self.runs.caption.setText(f"<b>Runs of {escape(s.automation.title)}</b> (reading…)")
        self.ctx.show_detail(self.describe(s))
        if not s.automation.runs_told:
            self.runs.caption.setText(f"<b>Runs of {escape(s.automation.title)}</b>")
            return
        cache, key = self.cache, s.id
        self.ctx.worker.submit("automation-runs", lambda: cache.runs(key, limit=SHOWN_RUNS),
                               on_result=lambda runs: self._runs_arrived(key, runs))

    def _runs_arrived(self, key: str, runs: list[Run]) -> None:
        s = self.list.current()
        if s is None or s.id != key:
            return
        # The first page to the table (its columns fitted to it); the rest as the table is scrolled down
        # (or all of it for a filter), so a task with 10,000 runs is on screen at once.
        self._held = runs
        self._costs = {}
        self.runs.records.model.set_records(runs[:RUN_PAGE], more=len(runs) > RUN_PAGE)
        if self.usage is not None and runs:
            usage = self.usage
            import_table()  # (here, on the GUI thread: never first on a worker)
            self.ctx.slow_worker.submit("automation-run-costs", lambda: run_costs(usage, runs),
                                        on_result=lambda costs: self._costs_arrived(key, runs, costs))
        self.runs.table.resizeColumnsToContents()
        if self.runs.filter_box.text():
            self._more_runs(None, every=True)
        more = " (the latest)" if len(runs) >= SHOWN_RUNS else ""
        self.runs.caption.setText(f"<b>Runs of {escape(s.automation.title)}</b> ({len(runs):,}{more})")
        if runs:
            self.runs.table.selectRow(0)

    def _costs_arrived(self, key: str, runs: list[Run], costs: list[RunCost]) -> None:
        s = self.list.current()
        if s is None or s.id != key or runs is not self._held:
            return
        self._costs = {r.id: c for r, c in zip(runs, costs)}
        model = self.runs.records.model
        if model.rowCount():
            column = next(i for i in range(model.columnCount()) if model.headerData(
                i, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) == "Cost")
            model.dataChanged.emit(model.index(0, column), model.index(model.rowCount() - 1, column))
            self.runs.table.resizeColumnToContents(column)  # (fitted while it was empty)
            self._run_selected(self.runs.table.currentIndex(), None)  # its details say the cost too

    def _more_runs(self, _last, *, every: bool = False) -> None:
        """The next page of the held runs to the table (``every``: all of them, for the filter to see)."""
        model = self.runs.records.model
        shown = model.rowCount()
        if shown >= len(self._held):
            return
        end = len(self._held) if every else shown + RUN_PAGE
        model.append_records(self._held[shown:end], more=end < len(self._held))

    def _health_html(self, s: ShownAutomation) -> str:
        a = s.automation
        parts = [f"<b>{escape(_words(s) or 'No schedule of its own')}</b>"]
        if s.times is not None and s.times.next_runs:
            parts.append("Next: " + ", ".join(f"{t:%a %Y-%m-%d %H:%M}" for t in s.times.next_runs[:3]))
        if not a.runs_told:
            parts.append(escape(_health(s)))
        else:
            parts.append(escape(s.health.summary()))
        lines = ["<p>" + " · ".join(parts) + "</p>"]
        problems = s.health.problems()[1:]  # (the first is in the summary)
        lines += [f"<p>⚠ {escape(p)}</p>" for p in problems]
        lines += [f"<p><i>{escape(n)}</i></p>" for n in a.notes]
        return "".join(lines)

    def describe(self, s: ShownAutomation):
        a, h = s.automation, s.health
        fields = [("Id", a.id), ("Schedule", _words(s)), ("Next run", when(_next(s))), ("Runs seen", str(h.runs_seen)),
                  ("Health", _health(s))]
        if h.expected is not None:
            fields.append(("Due since the first run seen", f"{h.expected}{'+' if h.expected_capped else ''}"))
        if h.last_failure is not None:
            fields.append(("Last failure", f"{when(h.last_failure.started_at)}: {h.last_failure.error or 'no error kept'}"))
        fields += [(f"Note {i + 1}", n) for i, n in enumerate(a.notes)]
        return detail_of(f"Automation: {a.title}", a.task or a, fields=tuple(fields))

    # -- runs --------------------------------------------------------------------------------------------
    def _run_selected(self, current, _previous) -> None:
        r = self.runs.records.record_at(current)
        self.open_button.setEnabled(r is not None and r.session is not None)
        if r is None:
            return
        fields = (("Started", when(r.started_at)), ("Finished", when(r.finished_at)), ("Outcome", r.outcome),
                  ("Error", r.error), ("Tokens", "" if r.tokens is None else f"{r.tokens:,}"),
                  ("Cost", _cost_tip(self._costs.get(r.id))),
                  ("How sure", r.certainty), ("Told from", r.evidence),
                  ("Conversation", f"{r.session.thread_id} / {r.session.session_id}" if r.session else "none"))
        self.ctx.show_detail(detail_of(f"Run {r.id}", r, fields=tuple(f for f in fields if f[1])))

    def current_run(self) -> Run | None:
        return self.runs.current()

    def open_run(self) -> None:
        """The run's conversation at the record it starts at, routed as a search hit is (the window's
        conversation page, whichever it is)."""
        r = self.runs.current()
        if r is None or r.session is None:
            return
        from daycare_gui.ui.panes.generic import route_for
        from daycare_gui.ui.panes.generic.conversation_window import MessageTarget

        if r.message_id:
            entry = JumpEntry("message", r.message_id, r.id, ref=MessageTarget(r.session, r.message_id))
        else:
            entry = JumpEntry("session", r.session.session_id, r.id, ref=r.session)
        section, target = route_for(self.ctx.opened, entry)
        if section:
            self.ctx.navigate(section, target)
