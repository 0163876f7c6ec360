"""What a model call cost, from the price table ``genai-prices`` ships (offline, never updated over the
network): one function, so every page, the CLI and the export price a record by the same rules.

The rules (the README's "Costs" section says them to users):

- Tokens come in exclusive buckets: ``input`` (neither read from nor written to the cache), ``cache_read``,
  ``cache_write_5m``, ``cache_write_1h`` and ``output``. Each is priced at its own rate in the table.
- A cache write whose duration the store does not say is a 5-minute write (Anthropic's default; OpenAI and
  Google charge no write premium, and the table then prices it as input).
- Long-context tiers are decided per record (one request) by all of its input tokens (uncached, cache reads
  and writes), as the providers bill them: over a tier's threshold, every token of that record pays the tier.
- The price in force at the record's time is used (the table keeps dated prices); a record without a time is
  priced at today's.
- The provider the store names is looked up first; when the table does not know that provider, the model
  is matched across all providers. A model the table does not know is *unpriced*: its tokens are kept and
  reported, never priced at $0.
"""

from __future__ import annotations

import datetime as _dt
import warnings
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache


@dataclass(frozen=True)
class Price:
    """``usd`` None: unpriced (``why`` says why); else the cost and the table entry that priced it."""

    usd: Decimal | None
    matched: str = ""  # "<provider id>/<model id>" of the table entry
    why: str = ""


@dataclass(frozen=True)
class TableInfo:
    source: str
    version: str
    newest_price_date: str  # the latest date a price in the table starts (YYYY-MM-DD), "" if none

    def line(self) -> str:
        dated = f", prices dated up to {self.newest_price_date}" if self.newest_price_date else ""
        return f"{self.source} {self.version}{dated}"


TABLE_MODULES = ("genai_prices", "genai_prices.types", "genai_prices.data_snapshot")


def import_table() -> None:
    """Import the price table's modules now (about a third of a second, once): a window calls it on its GUI
    thread before pricing on a worker, which must never be the first to import a module."""
    import importlib

    for name in TABLE_MODULES:
        importlib.import_module(name)


def _table():
    # Imported lazily: the bundled table is a large module, and only a costs page or command needs it.
    from genai_prices import data_snapshot

    return data_snapshot.get_snapshot()


@lru_cache(maxsize=1)
def table_info() -> TableInfo:
    from importlib.metadata import PackageNotFoundError, version

    try:
        ver = version("genai-prices")
    except PackageNotFoundError:  # pragma: no cover (a dependency)
        ver = "?"
    newest: _dt.date | None = None
    try:
        for provider in _table().providers:
            for model in provider.models:
                prices = model.prices if isinstance(model.prices, list) else []
                for conditional in prices:
                    start = getattr(getattr(conditional, "constraint", None), "start_date", None)
                    if isinstance(start, _dt.date) and (newest is None or start > newest):
                        newest = start
    except Exception:  # noqa: BLE001 (the table's shape is another project's: a date is a nicety)
        newest = None
    return TableInfo("genai-prices", ver, newest.isoformat() if newest else "")


@lru_cache(maxsize=4096)
def _lookup(provider: str, model: str):
    """(provider, model info) of the table entry, or a sentence saying why none."""
    snap = _table()
    if not model:
        return None, "the store names no model"
    try:
        return snap.find_provider_model(model, None, provider or None, None), ""
    except LookupError:
        pass
    if provider:  # a provider the table does not know (a router, a local server): match the model alone
        try:
            if snap.find_provider(None, provider, None):
                return None, f"{model!r} is not in the price table for {provider}"
        except LookupError:
            pass
        try:
            return snap.find_provider_model(model, None, None, None), ""
        except LookupError:
            pass
    return None, f"{model!r} is not in the price table"


def price(provider: str, model: str, at_ms: int | None, *, input: int = 0, output: int = 0,  # noqa: A002
          cache_read: int = 0, cache_write_5m: int = 0, cache_write_1h: int = 0) -> Price:
    """The cost in USD of one record's tokens (exclusive buckets, see the module's rules)."""
    found, why = _lookup(provider or "", (model or "").strip())
    if found is None:
        return Price(None, why=why)
    prov, info = found
    counts = (input, output, cache_read, cache_write_5m, cache_write_1h)
    when = (_dt.datetime.fromtimestamp(at_ms / 1000, tz=_dt.timezone.utc) if at_ms is not None
            else _dt.datetime.now(tz=_dt.timezone.utc))
    try:
        usd = _fast_price(prov, info, info.get_prices(when), counts, when)
        if usd is None:
            usd = _library_price(prov, info, counts, when)
    except (ValueError, LookupError, ArithmeticError) as exc:
        return Price(None, why=f"the price table cannot price it ({exc})")
    return Price(usd, f"{prov.id}/{info.id}")


# -- the same prices, faster -------------------------------------------------------------------------------
# The table's own calculation costs about half a millisecond a call, and a big store holds hundreds of
# thousands of calls. Within one price (and, for a tiered price, one tier band: the calls whose whole input
# falls between two thresholds) the price is linear in each bucket's tokens, so each bucket's rate is measured
# once through the table's calculation and checked against it on a mixed call; a price that fails the check
# is priced by the table call by call. tests/stores/costs checks both ways agree exactly.

_MTOK = Decimal(1_000_000)
_BUCKETS = 5  # input, output, cache read, cache write 5 min, cache write 1 hour
_INPUT_SIDE = (0, 2, 3, 4)
_thresholds_cache: dict[int, tuple[object, tuple[int, ...]]] = {}
_rate_cache: dict[tuple[int, int], tuple[object, tuple[Decimal, ...] | None]] = {}


def _library_price(prov, info, counts: tuple[int, ...], when) -> Decimal:
    """The table's own calculation (genai-prices wants ``input_tokens`` to be the whole input)."""
    from genai_prices.types import Usage

    input, output, read, w5, w1h = counts  # noqa: A001
    usage = Usage(input_tokens=input + read + w5 + w1h, output_tokens=output, cache_read_tokens=read,
                  cache_write_tokens=w5 + w1h, cache_write_1h_tokens=w1h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Decimal(info.calc_price(usage, prov, genai_request_timestamp=when).total_price)


def _thresholds(model_price) -> tuple[int, ...]:
    hit = _thresholds_cache.get(id(model_price))
    if hit is not None and hit[0] is model_price:
        return hit[1]
    from genai_prices.types import TieredPrices

    starts = sorted({int(t.start) for v in vars(model_price).values() if isinstance(v, TieredPrices)
                     for t in v.tiers})
    _thresholds_cache[id(model_price)] = (model_price, tuple(starts))
    return tuple(starts)


def _fast_price(prov, info, model_price, counts: tuple[int, ...], when) -> Decimal | None:
    thresholds = _thresholds(model_price)
    whole_input = sum(counts[i] for i in _INPUT_SIDE)
    band = sum(1 for t in thresholds if whole_input > t)  # the tier rule: over a threshold, that tier
    key = (id(model_price), band)
    hit = _rate_cache.get(key)
    if hit is None or hit[0] is not model_price:
        hit = (model_price, _measure(prov, info, thresholds, band, when))
        _rate_cache[key] = hit
    rates = hit[1]
    if rates is None:
        return None
    return rates[0] + sum((n * r for n, r in zip(counts, rates[1:]) if n), Decimal(0)) / _MTOK


def _measure(prov, info, thresholds: tuple[int, ...], band: int, when) -> tuple[Decimal, ...] | None:
    """(per-call price, then per million tokens of each bucket) within one tier band, or None."""
    low = thresholds[band - 1] + 1 if band else 1  # the smallest whole input in the band
    high = thresholds[band] if band < len(thresholds) else None
    if high is not None and high < low + 3:
        return None
    base = _library_price(prov, info, (0,) * _BUCKETS, when)

    def only(bucket: int, n: int) -> tuple[int, ...]:
        return tuple(n if i == bucket else 0 for i in range(_BUCKETS))

    rates = [base]
    for b in range(_BUCKETS):
        if b in _INPUT_SIDE:  # the whole input in this one bucket, so the call stays in the band
            rates.append((_library_price(prov, info, only(b, low), when) - base) * _MTOK / low)
        else:
            rates.append(_library_price(prov, info, tuple(low if i == 0 else (1_000_000 if i == b else 0)
                                                          for i in range(_BUCKETS)), when)
                         - _library_price(prov, info, only(0, low), when))
    probe = (low, 77, 1, 1, 1)  # a mixed call in the band: the rates must give the table's own price
    fast = rates[0] + sum(n * r for n, r in zip(probe, rates[1:])) / _MTOK
    return tuple(rates) if fast == _library_price(prov, info, probe, when) else None


# -- the same prices for many records at once ----------------------------------------------------------------
# A costs page prices hundreds of thousands of records. Records of one model whose price and tier band are the
# same share their rates, so their cost is summed from their summed tokens (``Rates.cost``): the same exact
# decimals as pricing each one and adding them up (every rate is a short decimal; a product of it and a token
# count is exact), found with one lookup per model and day instead of one per record.

_DAY_MS = 86_400_000


@dataclass(frozen=True)
class Rates:
    """The price of one record per bucket within one price and tier band (per call, then per million tokens of
    input, output, cache read, 5-minute and 1-hour cache write)."""

    base: Decimal
    per_mtok: tuple[Decimal, ...]
    matched: str

    def cost(self, records: int, counts) -> Decimal:
        """What ``records`` records with these summed token counts cost (exclusive buckets)."""
        return records * self.base + sum((n * r for n, r in zip(counts, self.per_mtok) if n), Decimal(0)) / _MTOK

    def saved(self, cache_read: int) -> Decimal:
        """What ``cache_read`` tokens read from the cache saved against paying them as uncached input."""
        return cache_read * (self.per_mtok[0] - self.per_mtok[2]) / _MTOK if cache_read else Decimal(0)


class Slot:
    """The price in force for a model at one time, as a record is priced (``price``): ``why`` when unpriced;
    ``rates(whole input)`` the record's rates, None when its band is priced record by record by the table."""

    __slots__ = ("why", "_found", "_model_price", "_when", "_thresholds", "_bands")

    def __init__(self, why: str, found=None, model_price=None, when=None) -> None:
        self.why, self._found, self._model_price, self._when = why, found, model_price, when
        self._thresholds = _thresholds(model_price) if model_price is not None else ()
        self._bands: dict[int, Rates | None] = {}

    def rates(self, whole_input: int) -> Rates | None:
        band = 0
        for t in self._thresholds:
            if whole_input > t:
                band += 1
        if band in self._bands:
            return self._bands[band]
        prov, info = self._found
        key = (id(self._model_price), band)
        hit = _rate_cache.get(key)
        if hit is None or hit[0] is not self._model_price:
            hit = (self._model_price, _measure(prov, info, self._thresholds, band, self._when))
            _rate_cache[key] = hit
        rates = None if hit[1] is None else Rates(hit[1][0], tuple(hit[1][1:]), f"{prov.id}/{info.id}")
        self._bands[band] = rates
        return rates


_slots: dict[tuple, Slot] = {}


def slot(provider: str, model: str, at_ms: int | None) -> Slot:
    """The price in force for ``model`` at ``at_ms`` (see :class:`Slot`). Kept per UTC day for a model whose
    prices change by date only (the table's date rule compares the UTC day); per millisecond for one priced by
    time of day (off-peak hours)."""
    provider, model = provider or "", (model or "").strip()
    day = at_ms // _DAY_MS if at_ms is not None else None
    hit = _slots.get((provider, model, day))
    if hit is not None:
        return hit
    found, why = _lookup(provider, model)
    when = (_dt.datetime.fromtimestamp(at_ms / 1000, tz=_dt.timezone.utc) if at_ms is not None
            else _dt.datetime.now(tz=_dt.timezone.utc))
    if found is None:
        made = Slot(why)
    else:
        info = found[1]
        made = Slot("", found, info.get_prices(when), when)
        by_time = any(type(getattr(c, "constraint", None)).__name__ != "StartDateConstraint"
                      and getattr(c, "constraint", None) is not None
                      for c in (info.prices if isinstance(info.prices, list) else ()))
        if by_time or at_ms is None:  # (now moves: never kept)
            return made
    if len(_slots) > 100_000:
        _slots.clear()
    _slots[(provider, model, day)] = made
    return made


def cents(usd: Decimal) -> Decimal:
    """Rounded to the cent, half up (what the totals show)."""
    from decimal import ROUND_HALF_UP

    return usd.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
