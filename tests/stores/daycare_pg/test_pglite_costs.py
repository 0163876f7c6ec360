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


def test_pglite_demo_runs_each_cost_their_reply_and_a_tasks_cost_is_its_runs(pglite_demo):
    from daycare_gui.stores.common.run_costs import compute_costs, run_costs

    with registry.open_store(pglite_demo) as opened:
        usage, autos = opened.capability(api.Usage), opened.capability(api.Automations)
        by_task = {t.group: t for t in compute_costs(usage, autos, "task").totals}
        every = {r.key: r for r in usage.records()}
        replies = 0
        for a in autos.automations():
            runs = autos.runs(a.id) if a.runs_told else []
            costs = run_costs(usage, runs)
            for run, cost in zip(runs, costs):
                # Daycare's run: rlm_start, rlm_complete, the follow-up message and (unless it failed early)
                # one reply, priced from its own tokens here
                mine = [every[k] for k in cost.keys]
                assert all(r.ref.session_id == run.session.session_id and run.started_at <= r.at for r in mine)
                assert cost.usd == sum((_priced_alone(r) for r in mine), Decimal(0))
                replies += cost.records
            if any(c.records for c in costs):
                assert by_task[a.id].usd == sum((c.usd for c in costs), Decimal(0))
        assert replies >= 3
        assert sum(t.usd for t in by_task.values()) == compute(usage, "model").overall.usd


def _priced_alone(r) -> Decimal:
    return calc_price(GUsage(input_tokens=r.input + r.cache_read + r.cache_write_5m, output_tokens=r.output,
                             cache_read_tokens=r.cache_read, cache_write_tokens=r.cache_write_5m),
                      model_ref=r.model, provider_id=r.provider,
                      genai_request_timestamp=_dt.datetime.fromtimestamp(r.at / 1000, tz=_dt.timezone.utc)).total_price


def test_pglite_demo_totals_by_user_carry_first_and_last_names(pglite_demo):
    with registry.open_store(pglite_demo) as opened:
        labels = {t.group: t.label for t in compute(opened.capability(api.Usage), "user").totals}
    assert labels["u1owner"] == "Alex Rivera (u1owner)" and labels["u2sam"] == "Sam (u2sam)"


def test_pglite_demo_stores_own_cost_is_beside_each_day_and_the_difference_explained(pglite_demo):
    """Daycare's hourly table (written from the same calls, less its estimates and one call its process never
    counted) read here: each day's line holds its cost and tokens; the same tokens differ only by float4
    rounding; more tokens in the records are said, with the estimates among them counted."""
    server = PgliteServer(pglite_demo / "daycare.pglite", ensure_runtime(), copy=True)
    try:
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=True) as conn:
            hourly = conn.execute(
                "SELECT to_char(to_timestamp(hour_start / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), model, "
                "sum(cost)::float8, sum(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens) "
                "FROM token_stats_hourly GROUP BY 1, 2").fetchall()
            estimates = dict(conn.execute(
                "SELECT to_char(to_timestamp(at / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*) "
                "FROM session_history WHERE data->'tokens'->>'source' = 'estimate' GROUP BY 1").fetchall())
    finally:
        server.close()
    with registry.open_store(pglite_demo) as opened:
        report = compute(opened.capability(api.Usage), "model")
    lines = {(s.day, s.model): s for s in report.stored}
    assert {k: (round(s.stored_usd, 6), s.stored_tokens) for k, s in lines.items()} == \
        {(d, m): (round(c, 6), int(n)) for d, m, c, n in hourly}
    assert sum(estimates.values()) >= 2
    explained_float4 = explained_missing = 0
    for (day, _model), s in lines.items():
        if s.tokens == s.stored_tokens:
            assert abs(float(s.usd) - s.stored_usd) < 1e-4 and "float4" in s.why
            explained_float4 += 1
        else:
            assert s.tokens > s.stored_tokens and f"{s.tokens - s.stored_tokens:,} tokens" in s.why
            n = estimates.get(day, 0)
            assert (f"{n} of the records" in s.why) if n else "of the records" not in s.why
            explained_missing += 1
    assert explained_float4 and explained_missing
