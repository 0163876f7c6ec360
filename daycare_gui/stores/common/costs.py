"""Costs you can check: usage records priced one by one (``pricing.price``), totalled by day, model, agent,
task, user or session, each total keeping the keys of the records it came from so it drills down to them.

Kind-neutral: it reads only :class:`~daycare_gui.stores.api.Usage`. Sums are exact decimals of the per-record
prices (a total is the sum of its drill-down, to the fraction of a cent); rounding happens only on display.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal

from daycare_gui.stores.common.pricing import Price, Rates, TableInfo, price, slot, table_info
from daycare_gui.stores.common.wording import labelled
from daycare_gui.stores.records import SessionRef, StoredCost, UsageRecord

GROUPS = ("day", "model", "agent", "task", "user", "session")
NO_USAGE = "No token usage is stored here."
UNREADABLE = "Token counts that cannot be read"  # (the label of the calls no total counts)


def day_of(ms: int | None) -> str:
    if ms is None:
        return "(no time)"
    return _dt.datetime.fromtimestamp(ms / 1000, tz=_dt.timezone.utc).strftime("%Y-%m-%d")


def model_label(rec: UsageRecord) -> str:
    model = rec.model or "(no model)"
    return f"{rec.provider} / {model}" if rec.provider else model


def group_of(rec: UsageRecord, by: str) -> tuple[str, str]:
    """(group key, what the table shows) of one record under a grouping."""
    if by == "day":
        d = day_of(rec.at)
        return d, d
    if by == "model":
        label = model_label(rec)
        return label, label
    if by == "agent":
        tid = rec.ref.thread_id if rec.ref else ""
        return tid, rec.thread_title or tid or "(no agent)"
    if by == "session":
        sid = rec.ref.session_id if rec.ref else ""
        return sid, sid or "(no session)"
    if by == "task":
        return rec.task, rec.task or "(no task)"
    if by == "user":
        return rec.user, rec.user or "(no user)"
    raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPS)})")


@dataclass(frozen=True)
class PricedRecord:
    record: UsageRecord
    price: Price
    saved: Decimal | None = None  # what its cache reads saved against paying them as input (None: unpriced)


def price_record(rec: UsageRecord, *, with_savings: bool = False) -> PricedRecord:
    if rec.problem:  # (its counts are unknown, not none: never $0.00)
        return PricedRecord(rec, Price(None, why=rec.problem))
    buckets = dict(input=rec.input, output=rec.output, cache_read=rec.cache_read,
                   cache_write_5m=rec.cache_write_5m, cache_write_1h=rec.cache_write_1h)
    p = price(rec.provider, rec.model, rec.at, **buckets)
    saved = None
    if with_savings and p.usd is not None:
        saved = Decimal(0)
        if rec.cache_read:
            buckets["input"] += buckets.pop("cache_read")
            full = price(rec.provider, rec.model, rec.at, **buckets)
            saved = (full.usd - p.usd) if full.usd is not None else None
    return PricedRecord(rec, p, saved)


@dataclass
class Total:
    """One line of a costs table: ``usd`` sums the priced records only; the unpriced are counted apart."""

    group: str
    label: str
    records: int = 0
    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    usd: Decimal = Decimal(0)
    unpriced_records: int = 0
    unpriced_tokens: int = 0
    estimated_records: int = 0  # the system said it estimated them
    unsure_records: int = 0  # the store cannot tell estimates from real usage
    saved: Decimal = Decimal(0)
    keys: list[str] = field(default_factory=list)

    @property
    def tokens(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write

    @property
    def cache_read_share(self) -> float | None:
        """Cache reads as a share of all input tokens (uncached, reads and writes)."""
        seen = self.input + self.cache_read + self.cache_write
        return self.cache_read / seen if seen else None

    def add(self, pr: PricedRecord) -> None:
        r = pr.record
        self.records += 1
        self.input += r.input
        self.output += r.output
        self.cache_read += r.cache_read
        self.cache_write += r.cache_write_5m + r.cache_write_1h
        if pr.price.usd is None:
            self.unpriced_records += 1
            self.unpriced_tokens += r.tokens
        else:
            self.usd += pr.price.usd
        if pr.saved:
            self.saved += pr.saved
        if r.estimated is True:
            self.estimated_records += 1
        elif r.estimated is None:
            self.unsure_records += 1
        self.keys.append(r.key)

    def as_dict(self) -> dict:
        return {"group": self.group, "label": self.label, "records": self.records, "input": self.input,
                "output": self.output, "cache_read": self.cache_read, "cache_write": self.cache_write,
                "tokens": self.tokens, "usd": str(self.usd), "unpriced_records": self.unpriced_records,
                "unpriced_tokens": self.unpriced_tokens, "estimated_records": self.estimated_records,
                "unsure_records": self.unsure_records, "cache_read_share": self.cache_read_share,
                "saved_by_cache_usd": str(self.saved)}


@dataclass(frozen=True)
class StoredLine:
    """The store's own cost for one day and model beside the one recomputed from its records."""

    day: str
    model: str
    stored_usd: float | None
    stored_tokens: int
    usd: Decimal | None  # recomputed (None: no records of that day and model, or unpriced)
    tokens: int
    why: str  # the difference explained where it can be


@dataclass
class CostReport:
    by: str
    totals: list[Total]
    overall: Total
    unpriced: dict[str, tuple[int, str]]  # model label → (tokens, why unpriced)
    table: TableInfo
    source: str = ""
    empty: str = ""  # why there is nothing to show (no usage stored)
    sessions_cache: list[Total] = field(default_factory=list)  # per (session, model)
    models_cache: list[Total] = field(default_factory=list)
    stored: list[StoredLine] = field(default_factory=list)
    stored_note: str = ""
    # Calls whose token counts could not be read (``UsageRecord.problem``): in no total above, so no total is
    # lowered without a word; their keys drill down to them, ``unreadable_why`` is the first one's problem.
    unreadable: Total = field(default_factory=lambda: Total("", UNREADABLE))
    unreadable_why: str = ""

    def as_dict(self) -> dict:
        return {"by": self.by, "price_table": {"source": self.table.source, "version": self.table.version,
                                               "newest_price_date": self.table.newest_price_date},
                "source": self.source, "empty": self.empty or None,
                "totals": [t.as_dict() for t in self.totals], "overall": self.overall.as_dict(),
                "unpriced_models": {m: {"tokens": n, "why": w} for m, (n, w) in self.unpriced.items()},
                "cache_by_model": [t.as_dict() for t in self.models_cache],
                "cache_by_session": [t.as_dict() for t in self.sessions_cache if t.cache_read],
                "stored_costs": [{"day": s.day, "model": s.model, "stored_usd": s.stored_usd,
                                  "stored_tokens": s.stored_tokens, "usd": None if s.usd is None else str(s.usd),
                                  "tokens": s.tokens, "why": s.why} for s in self.stored],
                "stored_costs_note": self.stored_note or None,
                "unreadable_calls": {"records": self.unreadable.records, "why": self.unreadable_why or None,
                                     "keys": self.unreadable.keys}}


def _since_ms(since: _dt.date | None) -> int | None:
    if since is None:
        return None
    start = _dt.datetime(since.year, since.month, since.day, tzinfo=_dt.timezone.utc)
    return int(start.timestamp() * 1000)


_DAY_MS = 86_400_000


def _as_row(rec: UsageRecord) -> tuple:
    """A record as ``Usage.rows`` gives it."""
    ref = rec.ref
    return (rec.key, rec.at, rec.provider, rec.model, rec.input, rec.output, rec.cache_read, rec.cache_write_5m,
            rec.cache_write_1h, ref.thread_id if ref else "", ref.session_id if ref else "", rec.thread_title,
            rec.user, rec.task, rec.estimated, rec.problem)


def record_of_row(row: tuple) -> UsageRecord:
    (key, at, provider, model, inp, out, read, w5, w1h, thread, session, title, user, task, estimated, problem) = row
    return UsageRecord(key=key, at=at, provider=provider, model=model, input=inp, output=out, cache_read=read,
                       cache_write_5m=w5, cache_write_1h=w1h, ref=SessionRef(thread, session), thread_title=title,
                       user=user, task=task, estimated=estimated, problem=problem)


def _labeller(by: str, days: dict[int, str], tasks=None, names=None) -> Callable[[tuple], tuple[str, str]]:
    """(group key, what the table shows) of a row under a grouping: ``group_of`` for rows. ``tasks``: record
    key → (automation id, title) of the run it belongs to (``run_costs.task_of_records``), for "task";
    ``names``: user id → name, for "user" ("Alex Rivera (u1)")."""
    if by == "day":
        def of_day(row):
            at = row[1]
            if at is None:
                return day_of(None), day_of(None)
            d = days.get(at // _DAY_MS)
            if d is None:
                d = days[at // _DAY_MS] = day_of(at)
            return d, d
        return of_day
    if by == "model":
        def of_model(row):
            model = row[3] or "(no model)"
            label = f"{row[2]} / {model}" if row[2] else model
            return label, label
        return of_model
    if by == "agent":
        return lambda row: (row[9], row[11] or row[9] or "(no agent)")
    if by == "session":
        # (a session id alone says nothing to a person: its agent first)
        return lambda row: (row[10], f"{row[11] or row[9] or '(no agent)'} / {row[10]}" if row[10] else "(no session)")
    if by == "task" and tasks is not None:
        return lambda row: tasks.get(row[0]) or ("", "(no task)")
    if by == "task":
        return lambda row: (row[13], row[13] or "(no task)")
    names = names or {}
    shown: dict[str, tuple[str, str]] = {}  # (one label per user, not one per call)

    def of_user(row):
        uid = row[12]
        hit = shown.get(uid)
        if hit is None:
            hit = shown[uid] = (uid, labelled(names.get(uid), uid) or "(no user)")
        return hit
    return of_user


class _Cell:
    """Records that land in the same totals and share one price's rates: their tokens summed, priced once."""

    __slots__ = ("totals", "rates", "records", "sums", "usd", "saved", "unpriced_tokens", "why", "estimated",
                 "unsure")

    def __init__(self, totals: tuple[Total, ...], rates: Rates | None, why: str) -> None:
        self.totals, self.rates, self.why = totals, rates, why
        self.records = self.unpriced_tokens = self.estimated = self.unsure = 0
        self.sums = [0, 0, 0, 0, 0]  # input, output, cache read, cache write 5 min, 1 hour
        self.usd = self.saved = Decimal(0)  # (records priced one by one by the table: their band has no rates)

    def close(self) -> None:
        """Priced and added to every total it belongs to."""
        inp, out, read, w5, w1h = self.sums
        usd, saved = self.usd, self.saved
        if self.rates is not None:
            usd += self.rates.cost(self.records, self.sums)
            saved += self.rates.saved(read)
        for t in self.totals:
            t.records += self.records
            t.input += inp
            t.output += out
            t.cache_read += read
            t.cache_write += w5 + w1h
            if not self.why:
                t.usd += usd
                t.saved += saved
            else:
                t.unpriced_records += self.records
                t.unpriced_tokens += self.unpriced_tokens
            t.estimated_records += self.estimated
            t.unsure_records += self.unsure


PROGRESS_EVERY = 20_000  # records between two ``progress`` calls


def compute(usage, by: str = "model", since: _dt.date | None = None,
            cancelled: Callable[[], bool] | None = None,
            progress: Callable[[int], None] | None = None, tasks=None) -> CostReport:
    """Price and total every record of ``usage`` (an ``api.Usage`` or None: nothing stored), read once.

    Each record lands in its line, its session and model, its model, the overall total and (where the store
    keeps its own cost) its day and model; records that land in the same ones and share their price's rates
    are summed and priced once (``pricing.Rates``: the same exact sum as pricing each record). A record whose
    tier band the rates cannot price is priced by the table on its own, as ``price`` does. ``progress(records
    read)`` is told every ``PROGRESS_EVERY`` records; ``cancelled()`` asked every 500 (the report is then
    partial: the caller drops it). ``tasks``: what "task" totals by, where the store's runs can be told
    (``run_costs.task_of_records``); else each record's own ``task``."""
    if by not in GROUPS:
        raise ValueError(f"unknown grouping {by!r} (one of {', '.join(GROUPS)})")
    info = table_info()
    overall = Total("", "Total")
    if usage is None:
        return CostReport(by, [], overall, {}, info, empty=NO_USAGE)
    groups: dict[str, Total] = {}
    per_session: dict[tuple[str, str], Total] = {}
    per_model: dict[str, Total] = {}
    unpriced: dict[str, tuple[int, str]] = {}
    by_day_model: dict[tuple[str, str], Total] = {}
    cells: dict[tuple, _Cell] = {}
    stored = usage.stored_costs()
    stored_names: dict[str, set[str]] = {}  # day → the store's own model names that day
    for kept in stored:
        stored_names.setdefault(kept.day, set()).add(kept.model)
    rows = usage.rows(_since_ms(since))
    if rows is None:
        rows = (_as_row(rec) for rec in usage.records(_since_ms(since)))
    days: dict[int, str] = {}
    labels = _labeller(by, days, tasks, usage.user_names() if by == "user" else None)
    unreadable, unreadable_why = Total("", UNREADABLE), ""
    for n, row in enumerate(rows):
        if n % 500 == 0:
            if cancelled is not None and cancelled():
                break
            if progress is not None and n and n % PROGRESS_EVERY == 0:
                progress(n)
        (rkey, at, provider, model, inp, out, read, w5, w1h, thread, sid, title, _user, _task,
         estimated, problem) = row
        if problem:
            unreadable.records += 1
            unreadable.keys.append(rkey)
            unreadable_why = unreadable_why or problem
            continue
        key, label = labels(row)
        mlabel = f"{provider} / {model or '(no model)'}" if provider else (model or "(no model)")
        found = slot(provider, model, at)
        rates = None if found.why else found.rates(inp + read + w5 + w1h)
        if stored:
            day = days.get(at // _DAY_MS) if at is not None else day_of(None)
            if day is None:
                day = days[at // _DAY_MS] = day_of(at)
            full = f"{provider}/{model}" if provider else model
            named = stored_names.get(day, ())
            day_model = (day, full if full in named or model not in named else model)
        else:
            day_model = None
        pr, why = None, found.why
        if not why and rates is None:  # a band the rates cannot price: the table prices the record itself
            pr = price_record(record_of_row(row), with_savings=True)
            why = "" if pr.price.usd is not None else pr.price.why
        # (a cell holds its rates, so their id is not reused while the cell lives)
        cell_key = (key, sid, mlabel, day_model, why or ("table" if pr is not None else id(rates)))
        cell = cells.get(cell_key)
        if cell is None:
            totals = [groups.setdefault(key, Total(key, label)), overall,
                      per_session.setdefault((sid, mlabel), Total(
                          f"{sid}\t{mlabel}", f"{title or thread or '(no agent)'} / {sid or '(no session)'} · {mlabel}")),
                      per_model.setdefault(mlabel, Total(mlabel, mlabel))]
            if day_model is not None:
                totals.append(by_day_model.setdefault(day_model, Total("", "")))
            cell = cells[cell_key] = _Cell(tuple(totals), None if pr is not None else rates, why)
        cell.records += 1
        sums = cell.sums
        sums[0] += inp
        sums[1] += out
        sums[2] += read
        sums[3] += w5
        sums[4] += w1h
        if why:
            tokens = inp + out + read + w5 + w1h
            cell.unpriced_tokens += tokens
            before, first_why = unpriced.get(mlabel, (0, why))
            unpriced[mlabel] = (before + tokens, first_why)
        elif pr is not None:
            cell.usd += pr.price.usd
            cell.saved += pr.saved or 0
        if estimated is True:
            cell.estimated += 1
        elif estimated is None:
            cell.unsure += 1
        for t in cell.totals:
            t.keys.append(rkey)
    for cell in cells.values():
        cell.close()
    totals = sorted(groups.values(), key=(lambda t: t.group) if by == "day" else (lambda t: (-t.usd, -t.tokens)))
    report = CostReport(by, totals, overall, unpriced, info, source=usage.source,
                        empty="" if overall.records or unreadable.records else NO_USAGE,
                        unreadable=unreadable, unreadable_why=unreadable_why)
    report.sessions_cache = sorted(per_session.values(), key=lambda t: -t.saved)
    report.models_cache = sorted(per_model.values(), key=lambda t: -t.saved)
    if stored:
        report.stored = _side_by_side(stored, by_day_model, since)
        report.stored_note = usage.stored_cost_note
    return report


def _side_by_side(stored: list[StoredCost], recomputed: dict[tuple[str, str], Total],
                  since: _dt.date | None) -> list[StoredLine]:
    mine: dict[tuple[str, str], list[StoredCost]] = {}
    for s in stored:
        if since is not None and s.day < since.isoformat():
            continue
        mine.setdefault((s.day, s.model), []).append(s)
    out = []
    for key in sorted(set(mine) | set(recomputed)):
        rows = mine.get(key, [])
        total = recomputed.get(key)
        stored_usd = sum(s.usd for s in rows) if rows else None
        stored_tokens = sum(s.input + s.output + s.cache_read + s.cache_write for s in rows)
        tokens = total.tokens if total else 0
        usd = total.usd if total and not total.unpriced_records else None
        out.append(StoredLine(key[0], key[1], stored_usd, stored_tokens, usd, tokens,
                              _why(rows, total, stored_tokens, tokens, stored_usd, usd)))
    return out


def _why(rows, total: Total | None, stored_tokens: int, tokens: int, stored_usd: float | None = None,
         usd: Decimal | None = None) -> str:
    if not rows:
        return ("no hourly row: these calls never reached the store's own table (compaction, memory and tool "
                "inference, context overflow, estimates)")
    if total is None:
        return "no records: the history holding these calls was deleted or compacted, or their time differs"
    if total.unpriced_records:
        return "the model is not in the price table: only the store's own figure is known"
    if tokens > stored_tokens:
        estimates = total.estimated_records
        said = (f"; {estimates} of the records {'is an estimate' if estimates == 1 else 'are estimates'}, which "
                "the store never adds" if estimates else "")
        return (f"{tokens - stored_tokens:,} tokens in the records never reached the hourly table (calls that "
                f"bypass it, estimates, a process stopped before adding them){said}")
    if tokens < stored_tokens:
        return (f"the hourly table holds {stored_tokens - tokens:,} tokens more than the records (history "
                "deleted, or an hour that straddles midnight)")
    if stored_usd is not None and usd is not None and abs(stored_usd - float(usd)) <= 5e-5 + 1e-6 * abs(stored_usd):
        # (float4 keeps about 7 significant digits, and the store adds each call to its running sum)
        return "same tokens and the same price: only the store's float4 rounding differs"
    return "same tokens: the difference is in the prices (the system's own table at the time, its tiers)"


def drill(usage, keys: Iterable[str], since: _dt.date | None = None) -> Iterator[PricedRecord]:
    """The priced records behind a total (its ``keys``), in the store's order, streamed (looked up by key
    where the kind can: ``Usage.records_of``)."""
    start = _since_ms(since)
    for rec in usage.records_of(keys):
        if start is None or (rec.at is not None and rec.at >= start):
            yield price_record(rec)


def money(usd: Decimal | None) -> str:
    """$ to the cent; a total under a cent shows its fraction, so a cheap call is not "$0.00"."""
    if usd is None:
        return "unpriced"
    if usd and abs(usd) < Decimal("0.01"):
        return f"${usd:.4f}"
    from daycare_gui.stores.common.pricing import cents

    return f"${cents(usd):,}"


def total_money(t: Total) -> str:
    """A total's cost as the tables show it: never "$0.00" for tokens the price table could not price."""
    if t.records and t.unpriced_records == t.records:
        return "unpriced"
    shown = money(t.usd)
    return f"{shown} + unpriced" if t.unpriced_records else shown


def unreadable_line(report) -> str:
    """The calls no total counts because their token counts cannot be read, in one sentence."""
    n = report.unreadable.records
    calls = "1 model call" if n == 1 else f"{n:,} model calls"
    return f"Not counted in any total: {calls} whose token counts cannot be read (the first: {report.unreadable_why})"
