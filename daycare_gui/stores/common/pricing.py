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
    from genai_prices.types import Usage

    writes = cache_write_5m + cache_write_1h
    usage = Usage(input_tokens=input + cache_read + writes, output_tokens=output, cache_read_tokens=cache_read,
                  cache_write_tokens=writes, cache_write_1h_tokens=cache_write_1h)
    when = (_dt.datetime.fromtimestamp(at_ms / 1000, tz=_dt.timezone.utc) if at_ms is not None
            else _dt.datetime.now(tz=_dt.timezone.utc))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            calc = info.calc_price(usage, prov, genai_request_timestamp=when)
    except (ValueError, LookupError, ArithmeticError) as exc:
        return Price(None, why=f"the price table cannot price it ({exc})")
    return Price(Decimal(calc.total_price), f"{prov.id}/{info.id}")


def cents(usd: Decimal) -> Decimal:
    """Rounded to the cent, half up (what the totals show)."""
    from decimal import ROUND_HALF_UP

    return usd.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
