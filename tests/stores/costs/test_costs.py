"""Costs you can check (#37): every total equals an independent pricing of the raw rows with the same table,
to the cent; every total's drill-down sums to it; unknown models stay unpriced with their tokens; a store
without usage says so. Qt-free."""

from __future__ import annotations

import datetime as _dt
import json
import re
import sqlite3
from decimal import ROUND_HALF_UP, Decimal

import pytest
from genai_prices import Usage as GUsage
from genai_prices import calc_price

from daycare_gui import cli
from daycare_gui.stores import api, registry
from daycare_gui.stores.common.costs import compute, drill
from daycare_gui.stores.common.pricing import price, table_info
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.records import SessionRef, UsageRecord


def _cent(d: Decimal) -> Decimal:
    return d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _independent(provider: str, model: str, at: int, size: dict) -> Decimal:
    """genai-prices called directly, as its documentation says: input_tokens is the whole input."""
    read, write = size.get("cacheRead") or 0, size.get("cacheWrite") or 0
    usage = GUsage(input_tokens=(size.get("input") or 0) + read + write, output_tokens=size.get("output") or 0,
                   cache_read_tokens=read, cache_write_tokens=write)
    when = _dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc)
    return calc_price(usage, model_ref=model, provider_id=provider, genai_request_timestamp=when).total_price


@pytest.fixture(scope="module")
def sqlite_demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("costs") / "store"
    write_demo(root)
    return root


def test_sqlite_demo_total_per_model_equals_the_raw_rows_priced_independently(sqlite_demo):
    conn = sqlite3.connect(f"file:{sqlite_demo / 'daycare.db'}?immutable=1", uri=True)
    expected: dict[str, Decimal] = {}
    for at, raw in conn.execute("SELECT at, json_extract(data, '$.tokens') FROM session_history "
                                "WHERE type = 'assistant_message' AND json_extract(data, '$.tokens.size') IS NOT NULL"):
        t = json.loads(raw)
        label = f"{t['provider']} / {t['model']}"
        expected[label] = expected.get(label, Decimal(0)) + _independent(t["provider"], t["model"], at, t["size"])
    stats_total = sum(sum(m.get("total", 0) for p in json.loads(s).values() for m in p.values())
                      for (s,) in conn.execute("SELECT stats FROM agents"))
    conn.close()
    with registry.open_store(sqlite_demo) as opened:
        usage = opened.capability(api.Usage)
        report = compute(usage, "model")
        got = {t.label: _cent(t.usd) for t in report.totals}
        assert got == {k: _cent(v) for k, v in expected.items()}
        assert len(got) == 5 and not report.unpriced
        # agents.stats (the same calls again) is never added: the tokens are the records' alone
        assert report.overall.tokens < stats_total + report.overall.tokens
        assert report.overall.records == 66
        for total in report.totals:
            rows = list(drill(usage, total.keys))
            assert len(rows) == total.records
            assert sum(r.price.usd for r in rows) == total.usd  # exactly, before any rounding


@pytest.mark.parametrize("by", ["day", "agent", "user", "task", "session"])
def test_every_grouping_adds_up_to_the_same_total_and_each_drills_down(sqlite_demo, by):
    with registry.open_store(sqlite_demo) as opened:
        usage = opened.capability(api.Usage)
        by_model = compute(usage, "model")
        report = compute(usage, by)
        assert sum(t.usd for t in report.totals) == by_model.overall.usd
        assert sum(t.records for t in report.totals) == by_model.overall.records
        keys = [k for t in report.totals for k in t.keys]
        assert len(keys) == len(set(keys)) == by_model.overall.records  # every record in exactly one line


def test_a_model_missing_from_the_table_is_unpriced_with_its_tokens_never_zero():
    class Fake(api.Usage):
        def records(self, since=None):
            yield UsageRecord("a", 1_770_000_000_000, "acme", "acme-super-9", input=1000, output=200,
                              ref=SessionRef("t", "s"))
            yield UsageRecord("b", 1_770_000_000_000, "anthropic", "claude-sonnet-4-5", input=1000, output=200)

    report = compute(Fake(), "model")
    acme = next(t for t in report.totals if t.label == "acme / acme-super-9")
    assert acme.unpriced_records == 1 and acme.unpriced_tokens == 1200 and acme.usd == 0
    assert report.unpriced["acme / acme-super-9"][0] == 1200
    assert report.overall.unpriced_records == 1 and report.overall.tokens == 2400
    from daycare_gui.commands.costs import human

    text = human(report)
    assert "acme / acme-super-9" in text and "unpriced" in text.split("acme / acme-super-9")[1].splitlines()[0]
    assert not re.search(r"\$0\.00(?!\d)", text)  # the unpriced model is not shown as costing nothing


def test_pricing_rules_cache_tiers_and_dates():
    at = 1_770_000_000_000
    base = price("anthropic", "claude-sonnet-4-5", at, input=1_000_000).usd
    read = price("anthropic", "claude-sonnet-4-5", at, cache_read=1_000_000).usd
    w5 = price("anthropic", "claude-sonnet-4-5", at, cache_write_5m=1_000_000).usd
    w1h = price("anthropic", "claude-sonnet-4-5", at, cache_write_1h=1_000_000).usd
    assert read < base < w5 < w1h  # a read is cheaper than input; a one-hour write dearer than a 5-minute one
    # the long-context tier is decided per record by all of its input: over the threshold every token pays more
    small = price("anthropic", "claude-sonnet-4", at, input=100_000).usd
    big = price("anthropic", "claude-sonnet-4", at, input=300_000).usd
    assert big >= small * 3
    assert price("", "", at, input=5).usd is None
    info = table_info()
    assert info.source == "genai-prices" and info.version and "genai-prices" in info.line()


def test_cianaparrot_counts_each_ai_message_once_though_every_checkpoint_repeats_it(tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo as write_ciana

    root = tmp_path / "ciana"
    write_ciana(root)
    db = next(root.rglob("checkpoints.db"))
    conn = sqlite3.connect(db)
    copies = conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0]
    conn.close()
    with registry.open_store(root) as opened:
        recs = list(opened.capability(api.Usage).records())
        report = compute(opened.capability(api.Usage), "model")
    ids = [r.key for r in recs]
    # the demo's answers with usage (5 in chats, 4 in its scheduled runs), not one per checkpoint holding them
    assert len(ids) == len(set(ids)) == 9 < copies
    assert sum(r.tokens for r in recs) == report.overall.tokens and report.overall.usd > 0 and not report.unpriced


def test_cianaparrot_keeps_the_largest_output_of_a_repeated_response():
    from daycare_gui.stores.cianaparrot import usage as cu

    class Reader:
        def top_level_ids(self, thread_id):
            return ["1ef00000-0000-6000-8000-000000000001", "1ef00000-0000-6000-8000-000000000002"]

        def writes_of(self, thread_id, ns, cid, channel=None):
            out = 5 if cid.endswith("1") else 40  # the same message id stored twice, the second complete

            class W:
                decoded = type("D", (), {"value": [{"type": "ai", "content": "x", "id": "m1",
                                                    "usage_metadata": {"input_tokens": 100, "output_tokens": out},
                                                    "response_metadata": {"model_name": "gpt-4o"}}],
                                         "problem": None})()
            return [W()]

        def latest(self, thread_id):
            return None

    best, unread = cu.CianaUsage(None)._thread(Reader(), "t")
    assert list(best) == ["m1"] and best["m1"][0]["output_tokens"] == 40 and unread == ""


def test_a_store_with_no_usage_says_so(tmp_path, capsys):
    from daycare_gui.stores.linggen.demo import write_demo as write_linggen

    root = tmp_path / "lg"
    write_linggen(root)
    assert cli.main(["costs", str(root)]) == 0
    assert "No token usage is stored here." in capsys.readouterr().out
    assert cli.main(["costs", str(root), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["empty"] == "No token usage is stored here."


def test_costs_command_groups_and_since(sqlite_demo, capsys):
    assert cli.main(["costs", str(sqlite_demo), "--by", "day", "--json"]) == 0
    days = [t["group"] for t in json.loads(capsys.readouterr().out)["totals"]]
    assert days == sorted(days) and len(days) > 3
    assert cli.main(["costs", str(sqlite_demo), "--by", "day", "--since", days[-1], "--json"]) == 0
    assert [t["group"] for t in json.loads(capsys.readouterr().out)["totals"]] == [days[-1]]
    assert cli.main(["costs", str(sqlite_demo), "--since", "yesterday"]) == 2
    assert "--since" in capsys.readouterr().err


def test_export_writes_the_costs_table_as_csv_with_the_totals(sqlite_demo, tmp_path, capsys):
    import csv
    import os

    out = tmp_path / "costs.csv"
    assert cli.main(["export", str(sqlite_demo), "costs:model", "--out", str(out)]) == 0
    assert os.stat(out).st_mode & 0o777 == 0o600
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    with registry.open_store(sqlite_demo) as opened:
        report = compute(opened.capability(api.Usage), "model")
    assert [(r["label"], Decimal(r["usd"]), int(r["tokens"])) for r in rows[:-1]] == \
        [(t.label, t.usd, t.tokens) for t in report.totals]
    assert rows[-1]["label"] == "Total" and Decimal(rows[-1]["usd"]) == report.overall.usd
    assert cli.main(["export", str(sqlite_demo), "costs", "--out", str(out)]) == 2  # kept without --force
    assert "exists" in capsys.readouterr().err
    assert cli.main(["export", str(sqlite_demo), "costs:colour"]) == 2


def test_csv_never_hands_a_spreadsheet_a_formula_from_the_store():
    import io

    from daycare_gui.stores.common.export.costs_csv import write_costs_csv

    class Fake(api.Usage):
        def records(self, since=None):
            yield UsageRecord("a", 1_770_000_000_000, "anthropic", "claude-sonnet-4-5", input=10, output=2,
                              user="=HYPERLINK(\"http://x\")")

    buf = io.StringIO()
    write_costs_csv(compute(Fake(), "user"), buf)
    assert "'=HYPERLINK" in buf.getvalue() and ",=HYPERLINK" not in buf.getvalue()


def test_the_measured_rates_give_exactly_the_tables_own_price_tiers_and_thresholds_included():
    import random

    from daycare_gui.stores.common import pricing

    models = [("anthropic", "claude-sonnet-4-5"), ("anthropic", "claude-sonnet-4"), ("openai", "gpt-5"),
              ("openrouter", "google/gemini-2.5-pro"), ("google", "gemini-2.5-pro"), ("openai", "gpt-4o")]
    rng = random.Random(37)
    calls = []
    for _ in range(1500):
        counts = [rng.choice([0, rng.randrange(300), rng.randrange(300_000)]) for _ in range(5)]
        calls.append((rng.choice(models), 1_700_000_000_000 + rng.randrange(10**11), counts))
    for edge in (128_000, 200_000):  # a call right at a long-context threshold and one token over it
        for whole in (edge - 1, edge, edge + 1):
            calls.append((("anthropic", "claude-sonnet-4-5"), 1_770_000_000_000, [whole - 30, 5, 10, 10, 10]))
            calls.append((("google", "gemini-2.5-pro"), 1_770_000_000_000, [whole - 30, 5, 10, 10, 10]))
    for (provider, model), at, (inp, out, read, w5, w1h) in calls:
        ours = price(provider, model, at, input=inp, output=out, cache_read=read, cache_write_5m=w5,
                     cache_write_1h=w1h).usd
        usage = GUsage(input_tokens=inp + read + w5 + w1h, output_tokens=out, cache_read_tokens=read,
                       cache_write_tokens=w5 + w1h, cache_write_1h_tokens=w1h)
        theirs = calc_price(usage, model_ref=model, provider_id=provider,
                            genai_request_timestamp=_dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc))
        assert ours == theirs.total_price, (provider, model, inp, out, read, w5, w1h)
    assert any(r[1] is not None for r in pricing._rate_cache.values())  # the fast way was taken


def test_agentstack_offers_its_one_token_total_per_agent_unpriced(tmp_path):
    from daycare_gui.stores.agentstack.demo import write_demo as write_agentstack

    root = tmp_path / "as"
    write_agentstack(root)
    db = next(root.rglob("aistack.db"))
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    stored = dict(conn.execute("SELECT agent_id, tokens_consumed FROM agent_resource_metrics "
                               "WHERE tokens_consumed > 0"))
    conn.close()
    with registry.open_store(root) as opened:
        report = compute(opened.capability(api.Usage), "agent")
    assert {t.label: t.tokens for t in report.totals} == stored and stored
    assert report.overall.usd == 0 and report.overall.unpriced_tokens == sum(stored.values())
    assert "tokens_consumed" in report.source


def test_cache_efficiency_per_session_is_the_read_share_and_what_paying_them_as_input_would_have_cost(sqlite_demo):
    with registry.open_store(sqlite_demo) as opened:
        usage = opened.capability(api.Usage)
        report = compute(usage, "session")
        records = list(usage.records())
    t = max(report.totals, key=lambda x: x.saved)
    mine = [r for r in records if r.key in set(t.keys)]
    read = sum(r.cache_read for r in mine)
    seen = sum(r.input + r.cache_read + r.cache_write_5m + r.cache_write_1h for r in mine)
    assert read and t.cache_read_share == read / seen
    as_input = sum(price(r.provider, r.model, r.at, input=r.input + r.cache_read, output=r.output,
                         cache_write_5m=r.cache_write_5m).usd for r in mine)
    assert t.saved == as_input - t.usd > 0


def test_summed_totals_equal_every_record_priced_alone_across_tiers_dates_and_off_peak_hours():
    """compute sums the tokens of records that share a price and prices them once: each line must still be
    exactly the sum of its records priced one by one (``price``), for every grouping, a long-context tier,
    a price that changed on a date, an off-peak hour and an unknown model included."""
    import random

    rng = random.Random(3637)
    models = [("anthropic", "claude-sonnet-4-5"), ("google", "gemini-2.5-pro"), ("openai", "gpt-5"),
              ("deepseek", "deepseek-chat"), ("deepseek", "deepseek-v4-pro"), ("acme", "acme-9")]
    recs = []
    for i in range(3000):
        provider, model = rng.choice(models)
        at = 1_786_000_000_000 + rng.randrange(90 * 86_400_000)  # across 2026-08-17 and around the clock
        counts = [rng.choice([0, rng.randrange(2000), rng.randrange(150_000, 260_000)]) for _ in range(5)]
        recs.append(UsageRecord(f"k{i}", at, provider, model, *counts, ref=SessionRef(f"a{i % 7}", f"s{i % 13}"),
                                thread_title=f"agent {i % 7}", user=f"u{i % 3}", task=f"t{i % 5}",
                                estimated=rng.choice([True, False, None])))

    class Listed(api.Usage):
        def records(self, since=None):
            return iter(recs)

    alone = {r.key: price(r.provider, r.model, r.at, input=r.input, output=r.output, cache_read=r.cache_read,
                          cache_write_5m=r.cache_write_5m, cache_write_1h=r.cache_write_1h).usd for r in recs}
    for by in ("model", "day", "agent", "session", "task", "user"):
        report = compute(Listed(), by)
        assert sum(t.records for t in report.totals) == len(recs)
        for t in report.totals + [report.overall] + report.sessions_cache + report.models_cache:
            priced = [alone[k] for k in t.keys if alone[k] is not None]
            assert t.usd == sum(priced, Decimal(0)), (by, t.label)
            assert t.unpriced_records == len(t.keys) - len(priced)
        assert report.overall.usd == sum(t.usd for t in report.totals)
    assert "acme / acme-9" in report.unpriced
    from daycare_gui.stores.common.costs import price_record

    saved = {r.key: price_record(r, with_savings=True).saved for r in recs}
    for t in report.models_cache + [report.overall]:  # what the cache reads saved, summed the same way
        assert t.saved == sum((saved[k] for k in t.keys if saved[k]), Decimal(0)), t.label


def test_compute_says_how_far_it_read_and_stops_when_cancelled(monkeypatch):
    from daycare_gui.stores.common import costs

    monkeypatch.setattr(costs, "PROGRESS_EVERY", 1000)
    recs = [UsageRecord(f"k{i}", 1_770_000_000_000 + i, "anthropic", "claude-sonnet-4-5", input=10, output=5)
            for i in range(5000)]
    read = []

    class Listed(api.Usage):
        def records(self, since=None):
            for r in recs:
                read.append(r.key)
                yield r

    said: list[int] = []
    assert compute(Listed(), "model", progress=said.append).overall.records == 5000
    assert said == [1000, 2000, 3000, 4000]
    read.clear()
    compute(Listed(), "model", cancelled=lambda: len(read) > 1500)
    assert 1500 < len(read) <= 2001  # asked every 500 records: it stopped at the next check


def test_a_totals_records_are_looked_up_by_key_the_same_as_read_in_full(sqlite_demo):
    with registry.open_store(sqlite_demo) as opened:
        usage = opened.capability(api.Usage)
        every = list(usage.records())
        some = [every[i].key for i in range(0, len(every), 3)]
        looked_up = list(usage.records_of(some[::-1] + ["h999999999", "nothing", "h-1", "h١٢"]))
        assert looked_up == [r for r in every if r.key in set(some)]  # in the store's order, the rest ignored
        report = compute(usage, "agent")
        total = report.totals[0]
        assert sum(p.price.usd for p in drill(usage, total.keys)) == total.usd


def test_a_cianaparrot_thread_whose_messages_cannot_be_read_is_counted_apart(tmp_path):
    """A thread whose checkpoints and message writes are payloads never opened (pickle) is not left out of
    Costs without a word: one record stands for it, counted apart, saying why; the other threads count."""
    from daycare_gui.stores.cianaparrot.demo import write_demo as write_ciana

    root = tmp_path / "ciana"
    write_ciana(root)
    with registry.open_store(root) as opened:
        before = compute(opened.capability(api.Usage), "model")
        per_thread = {}
        for r in opened.capability(api.Usage).records():
            per_thread[r.ref.session_id] = per_thread.get(r.ref.session_id, 0) + 1
    thread = max(per_thread, key=per_thread.get)
    conn = sqlite3.connect(next(root.rglob("checkpoints.db")))
    with conn:
        conn.execute("UPDATE checkpoints SET type = 'pickle' WHERE thread_id = ?", (thread,))
        conn.execute("UPDATE writes SET type = 'pickle' WHERE thread_id = ? AND channel = 'messages'", (thread,))
    conn.close()
    with registry.open_store(root) as opened:
        usage = opened.capability(api.Usage)
        after = compute(usage, "model")
        (unread,) = list(drill(usage, after.unreadable.keys))
    assert before.unreadable.records == 0
    assert after.overall.records == before.overall.records - per_thread[thread]
    assert after.unreadable.records == 1 and unread.record.ref.session_id == thread
    assert "its thread's messages cannot all be read" in after.unreadable_why
    assert "pickle payload: not opened" in after.unreadable_why
    assert unread.price.usd is None
