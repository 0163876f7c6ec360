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

from daycare_gui.stores.common.pricing import Price, TableInfo, price, table_info
from daycare_gui.stores.records import StoredCost, UsageRecord

GROUPS = ("day", "model", "agent", "task", "user", "session")
NO_USAGE = "No token usage is stored here."


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

    def as_dict(self) -> dict:
        return {"by": self.by, "price_table": {"source": self.table.source, "version": self.table.version,
                                               "newest_price_date": self.table.newest_price_date},
                "source": self.source, "empty": self.empty or None,
                "totals": [t.as_dict() for t in self.totals], "overall": self.overall.as_dict(),
                "unpriced_models": {m: {"tokens": n, "why": w} for m, (n, w) in self.unpriced.items()},
                "cache_by_model": [t.as_dict() for t in self.models_cache],
                "stored_costs": [{"day": s.day, "model": s.model, "stored_usd": s.stored_usd,
                                  "stored_tokens": s.stored_tokens, "usd": None if s.usd is None else str(s.usd),
                                  "tokens": s.tokens, "why": s.why} for s in self.stored],
                "stored_costs_note": self.stored_note or None}


def _since_ms(since: _dt.date | None) -> int | None:
    if since is None:
        return None
    start = _dt.datetime(since.year, since.month, since.day, tzinfo=_dt.timezone.utc)
    return int(start.timestamp() * 1000)


def compute(usage, by: str = "model", since: _dt.date | None = None,
            cancelled: Callable[[], bool] | None = None) -> CostReport:
    """Price and total every record of ``usage`` (an ``api.Usage`` or None: nothing stored)."""
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
    stored = usage.stored_costs()
    for n, rec in enumerate(usage.records(_since_ms(since))):
        if cancelled is not None and n % 500 == 0 and cancelled():
            break
        pr = price_record(rec, with_savings=True)
        key, label = group_of(rec, by)
        groups.setdefault(key, Total(key, label)).add(pr)
        overall.add(pr)
        mlabel = model_label(rec)
        sid = rec.ref.session_id if rec.ref else ""
        per_session.setdefault((sid, mlabel), Total(f"{sid}\t{mlabel}", f"{sid or '(no session)'} · {mlabel}")).add(pr)
        per_model.setdefault(mlabel, Total(mlabel, mlabel)).add(pr)
        if pr.price.usd is None:
            tokens, why = unpriced.get(mlabel, (0, pr.price.why))
            unpriced[mlabel] = (tokens + rec.tokens, why)
        if stored:
            day = day_of(rec.at)
            by_day_model.setdefault((day, _stored_key(rec, stored, day)), Total("", "")).add(pr)
    totals = sorted(groups.values(), key=(lambda t: t.group) if by == "day" else (lambda t: (-t.usd, -t.tokens)))
    report = CostReport(by, totals, overall, unpriced, info, source=usage.source,
                        empty="" if overall.records else NO_USAGE)
    report.sessions_cache = sorted(per_session.values(), key=lambda t: -t.saved)
    report.models_cache = sorted(per_model.values(), key=lambda t: -t.saved)
    if stored:
        report.stored = _side_by_side(stored, by_day_model, since)
        report.stored_note = usage.stored_cost_note
    return report


def _stored_key(rec: UsageRecord, stored: list[StoredCost], day: str) -> str:
    """The store's own name of the record's model on that day: "provider/model" as Daycare's hourly table
    writes it, or the model alone where the table holds only that."""
    full = f"{rec.provider}/{rec.model}" if rec.provider else rec.model
    names = {s.model for s in stored if s.day == day}
    if full in names or rec.model not in names:
        return full
    return rec.model


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
                              _why(rows, total, stored_tokens, tokens)))
    return out


def _why(rows, total: Total | None, stored_tokens: int, tokens: int) -> str:
    if not rows:
        return ("no hourly row: these calls never reached the store's own table (compaction, memory and tool "
                "inference, context overflow, estimates)")
    if total is None:
        return "no records: the history holding these calls was deleted or compacted, or their time differs"
    if total.unpriced_records:
        return "the model is not in the price table: only the store's own figure is known"
    if tokens > stored_tokens:
        return (f"{tokens - stored_tokens:,} tokens in the records never reached the hourly table (calls that "
                "bypass it, estimates)")
    if tokens < stored_tokens:
        return (f"the hourly table holds {stored_tokens - tokens:,} tokens more than the records (history "
                "deleted, or an hour that straddles midnight)")
    return "same tokens: the difference is in the prices (the system's own table at the time, its tiers)"


def drill(usage, keys: Iterable[str], since: _dt.date | None = None) -> Iterator[PricedRecord]:
    """The priced records behind a total (its ``keys``), in the store's order, streamed."""
    wanted = set(keys)
    for rec in usage.records(_since_ms(since)):
        if rec.key in wanted:
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
