"""Today's Daycare on PGlite (#37): the demo's total per model equals its assistant records read here with
psycopg (over the pinned PGlite, on a copy) and priced with genai-prices directly, to the cent; every total's
drill-down sums to it; Daycare's own hourly cost is shown beside it, never added in."""

from __future__ import annotations

import datetime as _dt
from decimal import ROUND_HALF_UP, Decimal

import psycopg
from genai_prices import Usage as GUsage
from genai_prices import calc_price

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.costs import compute, drill
from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
from daycare_gui.stores.daycare.pg.runtime import ensure_runtime


def _cent(d: Decimal) -> Decimal:
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _raw(folder):
    """(assistant records' at and tokens, the hourly table's cost), read straight from a copy of the folder."""
    server = PgliteServer(folder, ensure_runtime(), copy=True)
    try:
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=True) as conn:
            raw = conn.execute("SELECT at, data->'tokens' FROM session_history WHERE type = 'assistant_message' "
                               "AND jsonb_typeof(data->'tokens'->'size') = 'object'").fetchall()
            hourly = conn.execute("SELECT sum(cost) FROM token_stats_hourly").fetchone()[0]
    finally:
        server.close()
    return raw, hourly


def test_pglite_demo_total_per_model_equals_its_records_priced_independently(pglite_demo):
    raw, hourly = _raw(pglite_demo / "daycare.pglite")
    expected: dict[str, Decimal] = {}
    for at, t in raw:
        s = t["size"]
        read, write = s.get("cacheRead") or 0, s.get("cacheWrite") or 0
        p = calc_price(GUsage(input_tokens=s["input"] + read + write, output_tokens=s["output"],
                              cache_read_tokens=read, cache_write_tokens=write),
                       model_ref=t["model"], provider_id=t["provider"],
                       genai_request_timestamp=_dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc))
        label = f"{t['provider']} / {t['model']}"
        expected[label] = expected.get(label, Decimal(0)) + p.total_price
    assert len(raw) > 20 and expected
    with registry.open_store(pglite_demo) as opened:
        usage = opened.capability(api.Usage)
        report = compute(usage, "model")
        assert {t.label: _cent(t.usd) for t in report.totals} == {k: _cent(v) for k, v in expected.items()}
        assert report.overall.records == len(raw) and report.overall.usd == sum(expected.values())
        for by in ("model", "day", "agent", "task", "user"):
            for total in compute(usage, by).totals:
                assert sum(p.price.usd for p in drill(usage, total.keys)) == total.usd, (by, total.label)
        # the store's own cost is beside the recomputed one, its lines explained, and never added in
        assert abs(sum(s.stored_usd or 0 for s in report.stored) - hourly) < 0.01
        assert report.stored and all(s.why for s in report.stored)
