"""What each scheduled run cost: its usage records found from the run (``api.Automations``) and priced as the
Costs page prices them (``costs.price_record``), so a task's cost is the sum of its runs' and drills down to
their records.

A run's records are the usage records of its session from its start up to its end, each counted for one run
only (the latest that started at or before it). A run the store gives no end (it failed, was cut off, is still
running) owns the records up to the next run of its session when it says it used tokens or is running; one
that used none owns none (Daycare's shared cron agents: what follows an empty run is another task's). Kind-
neutral: it reads ``Run`` and ``Usage`` only.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from decimal import Decimal

from daycare_gui.stores.common.costs import money, price_record, record_of_row
from daycare_gui.stores.records import Run, UsageRecord

_OPEN = 2**63


@dataclass
class RunCost:
    """The priced records of one run: ``usd`` sums the priced ones, the unpriced are counted apart, and among
    them those whose token counts cannot be read (``UsageRecord.problem``)."""

    records: int = 0
    tokens: int = 0
    usd: Decimal = Decimal(0)
    unpriced_records: int = 0
    unreadable_records: int = 0
    keys: list[str] = field(default_factory=list)

    def add(self, rec: UsageRecord) -> None:
        priced = price_record(rec).price.usd
        self.records += 1
        self.tokens += rec.tokens
        self.keys.append(rec.key)
        if priced is None:
            self.unpriced_records += 1
            self.unreadable_records += bool(rec.problem)
        else:
            self.usd += priced

    def shown(self) -> str:
        """As a table shows it: "" with no records, never "$0.00" for tokens the table could not price."""
        if not self.records:
            return ""
        what = "unreadable" if self.unreadable_records == self.unpriced_records else "unpriced"
        if self.unpriced_records == self.records:
            return what
        return money(self.usd) + (f" + {what}" if self.unpriced_records else "")

    def as_dict(self) -> dict:
        return {"records": self.records, "tokens": self.tokens, "usd": str(self.usd),
                "unpriced_records": self.unpriced_records, "unreadable_records": self.unreadable_records}


def _spans(runs: list[Run]) -> dict[str, tuple[list[int], list[tuple[int, int]]]]:
    """Per session id: the runs' starts (sorted) and each one's (last record time it owns, index in ``runs``)."""
    by_session: dict[str, list[int]] = {}
    for i, r in enumerate(runs):
        if r.session is not None and r.started_at is not None:
            by_session.setdefault(r.session.session_id, []).append(i)
    out = {}
    for sid, mine in by_session.items():
        mine.sort(key=lambda i: (runs[i].started_at, runs[i].id))
        spans = []
        for n, i in enumerate(mine):
            r = runs[i]
            nxt = runs[mine[n + 1]].started_at - 1 if n + 1 < len(mine) else _OPEN
            if r.finished_at is not None:
                end = min(r.finished_at, nxt)
            elif r.outcome == "running" or r.tokens:
                end = nxt
            else:
                end = -1  # no end and no tokens: it owns nothing
            spans.append((end, i))
        out[sid] = ([runs[i].started_at for i in mine], spans)
    return out


def run_records(usage, runs: list[Run]) -> list[list[UsageRecord]]:
    """Each run's usage records (in the order of ``runs``), the store read once from the earliest start."""
    spans = _spans(runs)
    out: list[list[UsageRecord]] = [[] for _ in runs]
    if usage is None or not spans:
        return out
    earliest = min(starts[0] for starts, _ in spans.values())
    rows = usage.rows(earliest)  # (plain tuples where the kind can: a record object only for the runs' own)
    if rows is None:
        found_in = ((rec.ref.session_id if rec.ref else None, rec.at, rec) for rec in usage.records(earliest))
    else:
        found_in = ((row[10], row[1], row) for row in rows)
    for session_id, at, rec in found_in:
        found = spans.get(session_id)
        if found is None or at is None:
            continue
        starts, owned = found
        n = bisect_right(starts, at) - 1
        if n >= 0 and at <= owned[n][0]:
            out[owned[n][1]].append(rec if isinstance(rec, UsageRecord) else record_of_row(rec))
    return out


def run_costs(usage, runs: list[Run]) -> list[RunCost]:
    """What each run cost, in the order of ``runs`` (an empty ``RunCost`` for a run with no usage records)."""
    out = []
    for recs in run_records(usage, runs):
        cost = RunCost()
        for rec in recs:
            cost.add(rec)
        out.append(cost)
    return out


def task_of_records(usage, automations) -> dict[str, tuple[str, str]]:
    """Record key → (automation id, title) of the run it belongs to, over every automation whose runs can be
    told: what the costs' "task" grouping totals by, so a task's cost is its runs' and drills down to them."""
    runs: list[Run] = []
    titles: dict[str, str] = {}
    for a in automations.automations():
        if a.runs_told:
            titles[a.id] = a.title
            runs += automations.runs(a.id)
    out: dict[str, tuple[str, str]] = {}
    for run, recs in zip(runs, run_records(usage, runs)):
        for rec in recs:
            out.setdefault(rec.key, (run.automation_id, titles.get(run.automation_id, run.automation_id)))
    return out


def compute_costs(usage, automations, by: str = "model", since=None, **kw):
    """``costs.compute``, with "task" totalled through the store's runs where it offers ``Automations``."""
    from daycare_gui.stores.common.costs import compute

    tasks = task_of_records(usage, automations) if by == "task" and usage is not None and automations is not None else None
    return compute(usage, by, since, tasks=tasks, **kw)
