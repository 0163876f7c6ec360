"""What each scheduled run cost (#37): the usage records of its span, priced as the Costs page prices them; a
task's cost (``costs --by task``) is its runs' and drills down to their records; ``automations --json`` says
each run's cost. Checked against the demo's rows read here with sqlite3 and priced with genai-prices directly."""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from decimal import Decimal

import pytest
from genai_prices import Usage as GUsage
from genai_prices import calc_price

from daycare_gui import cli
from daycare_gui.stores import api, registry
from daycare_gui.stores.common.costs import drill
from daycare_gui.stores.common.run_costs import compute_costs, run_costs
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.records import Run, SessionRef, UsageRecord


def _priced(at: int, t: dict) -> Decimal:
    s = t["size"]
    read, write = s.get("cacheRead") or 0, s.get("cacheWrite") or 0
    return calc_price(GUsage(input_tokens=s["input"] + read + write, output_tokens=s["output"], cache_read_tokens=read,
                             cache_write_tokens=write), model_ref=t["model"], provider_id=t["provider"],
                      genai_request_timestamp=_dt.datetime.fromtimestamp(at / 1000, tz=_dt.timezone.utc)).total_price


@pytest.fixture(scope="module")
def sqlite_demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("runcosts") / "store"
    write_demo(root)
    return root


def _span_costs(db, run_id: str) -> tuple[int, Decimal]:
    """A Daycare run told from its system message (``h<id>``): the assistant records after it, up to the next
    user message of its session, priced here."""
    hid = int(run_id[1:])
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    (session,) = conn.execute("SELECT session_id FROM session_history WHERE id = ?", (hid,)).fetchone()
    stop = conn.execute("SELECT min(id) FROM session_history WHERE session_id = ? AND id > ? "
                        "AND type = 'user_message'", (session, hid)).fetchone()[0]
    rows = conn.execute("SELECT at, json_extract(data, '$.tokens') FROM session_history WHERE session_id = ? "
                        "AND id > ? AND id < ? AND type = 'assistant_message' AND json_extract(data, '$.tokens.size') "
                        "IS NOT NULL", (session, hid, stop if stop is not None else 2**62)).fetchall()
    conn.close()
    return len(rows), sum((_priced(at, json.loads(t)) for at, t in rows), Decimal(0))


def test_each_runs_cost_is_its_records_priced_and_a_tasks_cost_is_its_runs(sqlite_demo):
    db = sqlite_demo / "daycare.db"
    with registry.open_store(sqlite_demo) as opened:
        usage, autos = opened.capability(api.Usage), opened.capability(api.Automations)
        by_task = {t.group: t for t in compute_costs(usage, autos, "task").totals}
        seen = 0
        for a in autos.automations():
            runs = autos.runs(a.id) if a.runs_told else []
            costs = run_costs(usage, runs)
            for run, cost in zip(runs, costs):
                if run.id.startswith("h"):
                    records, usd = _span_costs(db, run.id)
                    assert (cost.records, cost.usd) == (records, usd), (a.title, run.id)
                    seen += records
                else:  # a skipped run, or one only known from last_run_at: it wrote no records
                    assert cost.records == 0
            spent = sum((c.usd for c in costs), Decimal(0))
            if spent:
                total = by_task[a.id]
                assert total.usd == spent and total.records == sum(c.records for c in costs)
                assert sum(p.price.usd for p in drill(usage, total.keys)) == spent
        assert seen >= 10 and by_task["cron:daily-digest"].usd > 0
        assert sum(t.usd for t in by_task.values()) == compute_costs(usage, autos, "model").overall.usd


def test_automations_json_says_what_each_run_cost(sqlite_demo, capsys):
    assert cli.main(["automations", str(sqlite_demo), "--task", "Daily digest", "--json"]) == 0
    (digest,) = json.loads(capsys.readouterr().out)["automations"]
    worked = [r for r in digest["runs"] if r["outcome"] == "worked"]
    assert worked and all(r["cost"]["records"] > 0 and Decimal(r["cost"]["usd"]) > 0 for r in worked)
    for r in worked:
        assert (r["cost"]["records"], Decimal(r["cost"]["usd"])) == _span_costs(sqlite_demo / "daycare.db", r["id"])
    skipped = [r for r in digest["runs"] if r["outcome"] == "skipped"]
    assert skipped and skipped[0]["cost"] == {"records": 0, "tokens": 0, "usd": "0", "unpriced_records": 0,
                                           "unreadable_records": 0}
    assert cli.main(["automations", str(sqlite_demo), "--task", "Daily digest"]) == 0
    assert "$0.0" in capsys.readouterr().out  # the human listing says it too


def test_cianaparrot_forecast_runs_each_cost_their_own_calls(tmp_path):
    from daycare_gui.stores.cianaparrot.demo import write_demo as write_ciana

    write_ciana(tmp_path / "c")
    with registry.open_store(tmp_path / "c") as opened:
        usage, autos = opened.capability(api.Usage), opened.capability(api.Automations)
        (forecast,) = [a for a in autos.automations() if a.runs_told and autos.runs(a.id)]
        runs = autos.runs(forecast.id)
        costs = run_costs(usage, runs)
    # oldest first: worked (a tool call and the answer), failed (no call), worked, cut off after its tool call
    assert [(r.outcome, c.records, c.tokens) for r, c in zip(runs[::-1], costs[::-1])] == [
        ("worked", 2, 490), ("failed", 0, 0), ("worked", 2, 490), ("unknown", 1, 200)]
    assert all(c.usd > 0 for c in costs if c.records)


def test_a_record_belongs_to_one_run_and_a_run_without_an_end_or_tokens_owns_none():
    """A shared agent's session (Daycare's cron system agent) holds two tasks' runs: each record goes to the
    latest run started before it; an empty run with no end takes nothing of what follows it."""
    s = SessionRef("agent", "sess")
    runs = [Run("r1", "a", 1000, 2000, "worked", session=s), Run("r2", "b", 3000, None, "unknown", session=s),
            Run("r3", "b", 5000, None, "running", session=s), Run("r4", "a", 4000, None, "failed", session=s, tokens=9)]

    class Listed(api.Usage):
        def records(self, since=None):
            for key, at in (("k1", 1500), ("k2", 2500), ("k3", 3500), ("k4", 4500), ("k5", 6000), ("k0", 900)):
                if since is None or at >= since:
                    yield UsageRecord(key, at, "anthropic", "claude-sonnet-4-5", input=100, output=10, ref=s)

    costs = run_costs(Listed(), runs)
    assert [c.keys for c in costs] == [["k1"], [], ["k5"], ["k4"]]
    assert costs[0].shown().startswith("$") and costs[1].shown() == ""
