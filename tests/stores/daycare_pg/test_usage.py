"""Today's Daycare (PostgreSQL, the same schema as PGlite) offers Usage (#37): per model the recomputed cost
equals the raw records priced independently with the same table, to the cent; each total drills down to
it; Daycare's own hourly cost is shown beside, never added."""

from __future__ import annotations

import datetime as _dt
from decimal import ROUND_HALF_UP, Decimal

from genai_prices import Usage as GUsage
from genai_prices import calc_price

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.costs import compute, drill


def _cent(d: Decimal) -> Decimal:
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_pg_demo_costs_equal_the_raw_rows_priced_independently(pg_demo_url):
    with registry.open_store(pg_demo_url) as opened:
        raw = opened.db.rows("SELECT at, data->'tokens' FROM session_history WHERE type = 'assistant_message' "
                             "AND data->'tokens'->'size' IS NOT NULL")
        hourly = opened.db.rows("SELECT sum(cost) FROM token_stats_hourly")[0][0]
        usage = opened.capability(api.Usage)
        report = compute(usage, "model")
        expected: dict[str, Decimal] = {}
        for at, t in raw:
            s = t["size"]
            whole = s["input"] + s.get("cacheRead", 0) + s.get("cacheWrite", 0)
            p = calc_price(GUsage(input_tokens=whole, output_tokens=s["output"], cache_read_tokens=s.get("cacheRead", 0),
                                  cache_write_tokens=s.get("cacheWrite", 0)), model_ref=t["model"],
                           provider_id=t["provider"],
                           genai_request_timestamp=_dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc))
            label = f"{t['provider']} / {t['model']}"
            expected[label] = expected.get(label, Decimal(0)) + p.total_price
        assert raw and {t.label: _cent(t.usd) for t in report.totals} == {k: _cent(v) for k, v in expected.items()}
        for total in report.totals:
            assert sum(r.price.usd for r in drill(usage, total.keys)) == total.usd
        # the store's own figure is beside the recomputed one, and the lines explain the difference
        assert report.stored and abs(sum(s.stored_usd or 0 for s in report.stored) - hourly) < 0.01
        assert all(s.why for s in report.stored)
        assert report.overall.usd == sum(expected.values())  # the hourly cost is not added in


def test_pg_calls_whose_counts_cannot_be_read_are_counted_apart(pg_fresh_url):
    """Another tool's rows in today's Daycare: tokens as text, sizes as a list, a count as text are in no
    total (never $0.00) and said; tokens stored as JSON null are a call that stored none."""
    import json

    import psycopg

    odd = [{"provider": "anthropic", "model": "claude-sonnet-4-5", "size": {"input": "lots", "output": 5}},
           "many", {"provider": "openai", "model": "gpt-5", "size": [1, 2]}, None]
    with registry.open_store(pg_fresh_url) as opened:
        before = compute(opened.capability(api.Usage), "model")
    with psycopg.connect(pg_fresh_url, autocommit=True) as conn:
        sid, at = conn.execute("SELECT session_id, max(at) FROM session_history WHERE type = 'assistant_message' "
                               "GROUP BY session_id ORDER BY 2 DESC LIMIT 1").fetchone()
        for i, tokens in enumerate(odd):
            conn.execute("INSERT INTO session_history (session_id, type, at, data) "
                         "VALUES (%s, 'assistant_message', %s, %s::jsonb)",
                         (sid, at + i + 1, json.dumps({"text": "odd", "tokens": tokens})))
    with registry.open_store(pg_fresh_url) as opened:
        usage = opened.capability(api.Usage)
        after = compute(usage, "model")
        drilled = list(drill(usage, after.unreadable.keys))
    assert before.unreadable.records == 0 and after.unreadable.records == 3
    assert after.overall.records == before.overall.records and after.overall.usd == before.overall.usd
    assert sorted(p.price.why for p in drilled) == [
        "its token count input is stored as text, not as a number",
        "its token sizes are stored as a list, not an object of counts",
        "its tokens are stored as text, not as an object"]
