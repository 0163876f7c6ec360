"""A model call whose token counts another tool left as something else (text, a list, sizes that are not an
object) is counted apart, never as a call that cost $0.00: no total counts it, the Costs report, the CLI and the
CSV say how many and why (without quoting the stored value), its drill-down prices it as unknown, and the
message itself says why. Qt-free."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from daycare_gui import cli
from daycare_gui.stores import api, registry
from daycare_gui.stores.common.costs import compute, drill
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.records.history import history_record_from
from daycare_gui.stores.daycare.sqlite.usage import usage_record

PLANTED = "sk-ant-api03-PLANTEDsecretVALUE0123456789"  # a secret pasted into a count field: never shown


def _odd_calls() -> list[dict]:
    size = {"input": 100, "output": 50, "cacheRead": 0, "cacheWrite": 0}
    call = {"provider": "anthropic", "model": "claude-sonnet-4-5"}
    return [
        {**call, "size": {**size, "input": PLANTED}},  # a count stored as text
        PLANTED,  # the tokens themselves stored as text
        {**call, "size": [100, 50]},  # sizes that are a list
    ]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    """The SQLite demo as written, and a copy with the odd calls and two readable ones added."""
    base = tmp_path_factory.mktemp("unreadable")
    plain, odd = base / "plain", base / "odd"
    write_demo(plain)
    shutil.copytree(plain, odd)
    conn = sqlite3.connect(odd / "daycare.db")
    sid, at = conn.execute("SELECT session_id, max(at) FROM session_history WHERE type = 'assistant_message'").fetchone()
    rows = [{"text": "odd", "tokens": t} for t in _odd_calls()]
    rows.append({"text": "none said", "tokens": None})  # null: the call stored none (not a problem)
    rows.append({"text": "digits", "tokens": {"provider": "anthropic", "model": "claude-sonnet-4-5",
                                              "size": {"input": "1000", "output": 10}}})  # text of digits reads
    conn.executemany("INSERT INTO session_history (session_id, type, at, data) VALUES (?, 'assistant_message', ?, ?)",
                     [(sid, at + i + 1, json.dumps(r)) for i, r in enumerate(rows)])
    conn.commit()
    conn.close()
    return plain, odd


def _report(root, by="model"):
    with registry.open_store(root) as opened:
        usage = opened.capability(api.Usage)
        report = compute(usage, by)
        drilled = list(drill(usage, report.unreadable.keys))
    return report, drilled


def test_calls_with_unreadable_counts_are_counted_apart_and_said(stores):
    plain, odd = stores
    before, _ = _report(plain)
    after, drilled = _report(odd)
    assert before.unreadable.records == 0 and before.unreadable_why == ""
    # the three odd calls are in no total; the one whose counts are text of digits is read as numbers
    assert after.unreadable.records == 3
    assert after.overall.records == before.overall.records + 1
    assert after.overall.input == before.overall.input + 1000 and after.overall.output == before.overall.output + 10
    assert after.overall.usd > before.overall.usd
    assert "input is stored as text" in after.unreadable_why
    # the drill-down has each of them, priced as unknown (never $0), each saying why
    assert len(drilled) == 3 and all(p.price.usd is None for p in drilled)
    whys = sorted(p.price.why for p in drilled)
    assert whys == ["its token count input is stored as text, not as a number",
                    "its token sizes are stored as a list, not an object of counts",
                    "its tokens are stored as text, not as an object"]
    assert PLANTED not in repr(after.as_dict()) + repr(drilled)


def test_the_cli_and_the_csv_say_how_many_calls_are_not_counted(stores, capsys, tmp_path):
    _plain, odd = stores
    assert cli.main(["costs", str(odd)]) == 0
    out = capsys.readouterr().out
    assert "Not counted in any total: 3 model calls whose token counts cannot be read" in out
    assert PLANTED not in out
    assert cli.main(["costs", str(odd), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unreadable_calls"]["records"] == 3 and len(data["unreadable_calls"]["keys"]) == 3
    target = tmp_path / "costs.csv"
    assert cli.main(["export", str(odd), "costs", "--out", str(target)]) == 0
    import csv

    last = list(csv.reader(target.read_text().splitlines()))[-1]
    assert last[0] == "unreadable" and last[2] == "3" and last[8] == ""  # no cost, not $0
    assert PLANTED not in target.read_text()


def test_the_message_says_why_its_tokens_are_not_counted():
    problems = [history_record_from("assistant_message", 1, {"text": "x", "tokens": t}).read_problem()
                for t in _odd_calls()]
    assert all(p and "Costs counts this call apart" in p for p in problems)
    assert not any(PLANTED in p for p in problems)
    fine = {"provider": "p", "model": "m", "size": {"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0}}
    assert history_record_from("assistant_message", 1, {"text": "x", "tokens": fine}).read_problem() is None
    assert history_record_from("assistant_message", 1, {"text": "x", "tokens": None}).read_problem() is None
    # its header shows no token figure (0 would say the call used none), its facts say the counts cannot be read
    from daycare_gui.stores.daycare.history_messages import message_of

    for tokens in _odd_calls():
        shown = message_of(history_record_from("assistant_message", 1, {"text": "x", "tokens": tokens}))
        assert shown.tokens is None and dict(shown.meta).get("Tokens", "cannot be read") == "cannot be read"
    read = message_of(history_record_from("assistant_message", 1, {"text": "x", "tokens": {
        **fine, "size": {**fine["size"], "total": 3}}}))  # (Daycare writes the total beside the four)
    assert read.tokens == 3 and dict(read.meta)["Tokens"] == "3"
    files = history_record_from("user_message", 1, {"text": "x", "files": "report.pdf"}).read_problem()
    assert files == "its files are stored as text, not as a list of files (Raw JSON shows them)"
    assert history_record_from("user_message", 1, {"text": "x", "files": []}).read_problem() is None


def test_todays_daycare_reads_a_call_as_its_rows_hold_it():
    """PGlite and PostgreSQL hand the tokens object over as JSON: the same record, the same problems."""
    for tokens in _odd_calls():
        rec = usage_record("h1", 1, "s", "a", 5, tokens)
        assert rec is not None and rec.problem and rec.tokens == 0 and PLANTED not in rec.problem
    assert usage_record("h1", 1, "s", "a", 5, None) is None  # none stored
    good = usage_record("h1", 1, "s", "a", 5, {"provider": "p", "model": "m", "source": "usage",
                                               "size": {"input": 7, "output": 3, "cacheRead": 2, "cacheWrite": 1}})
    assert (good.problem, good.input, good.output, good.cache_read, good.cache_write_5m) == ("", 7, 3, 2, 1)


def test_other_kinds_count_unreadable_totals_apart(tmp_path):
    from daycare_gui.stores.agentstack.demo import write_demo as write_agentstack

    root = tmp_path / "as"
    write_agentstack(root)
    db = next(root.rglob("aistack.db"))
    conn = sqlite3.connect(db)
    agent = conn.execute("SELECT agent_id FROM agent_resource_metrics WHERE tokens_consumed > 0").fetchone()[0]
    conn.execute("UPDATE agent_resource_metrics SET tokens_consumed = ? WHERE agent_id = ?", (PLANTED, agent))
    conn.commit()
    conn.close()
    report, drilled = _report(root, "agent")
    assert report.unreadable.records == 1 and agent not in {t.label for t in report.totals}
    assert report.unreadable_why == "its token count tokens_consumed is stored as text, not as a number"
    assert [p.record.thread_title for p in drilled] == [agent]


def test_a_runs_cost_says_its_unreadable_calls():
    from daycare_gui.stores.common.run_costs import RunCost
    from daycare_gui.stores.records import UsageRecord

    cost = RunCost()
    cost.add(UsageRecord("k1", 1, "anthropic", "claude-sonnet-4-5", problem="its tokens are stored as text"))
    assert cost.shown() == "unreadable" and cost.as_dict()["unreadable_records"] == 1
    cost.add(UsageRecord("k2", 1_760_000_000_000, "anthropic", "claude-sonnet-4-5", input=1000, output=100))
    assert cost.shown().startswith("$") and cost.shown().endswith(" + unreadable")


def test_a_langchain_usage_whose_counts_are_not_numbers_is_counted_apart():
    """CianaParrot's usage_metadata, as LangChain stores it: a count that is text makes the call unreadable
    (never a call that used no tokens); counts that are numbers split the cache out of the input."""
    from daycare_gui.stores.cianaparrot.usage import _record

    meta = {"model_provider": "anthropic", "model_name": "claude-sonnet-4-5"}
    odd = _record("chat", "t1", "m1", {"input_tokens": PLANTED, "output_tokens": 5}, meta, 1)
    assert odd.problem == "its token count input_tokens is stored as text, not as a number" and odd.tokens == 0
    good = _record("chat", "t1", "m2", {"input_tokens": 1000, "output_tokens": 5,
                                        "input_token_details": {"cache_read": 600, "cache_creation": 100}}, meta, 1)
    assert (good.problem, good.input, good.cache_read, good.cache_write_5m, good.output) == ("", 300, 600, 100, 5)


def test_several_unreadable_counts_are_each_named():
    from daycare_gui.stores.common.token_counts import read_counts

    counts, why = read_counts({"input": "x", "output": 3, "cacheRead": [1], "cacheWrite": True})
    assert counts == [0, 3, 0, 0]
    assert why == ("its token counts are not numbers: input is stored as text, cacheRead is stored as a list, "
                   "cacheWrite is stored as true or false")
    assert read_counts({"input": 7.9, "output": "12", "cacheRead": None}) == ([7, 12, 0], "")


def _charts(root):
    with registry.open_store(root) as opened:
        charts = opened.capability(api.Charts)
        days = charts.tokens_per_day()
        return days, charts.unreadable_token_calls()


def test_the_overviews_tokens_per_day_count_what_costs_counts(stores):
    """The Overview's tokens per day add up to what Costs counts, calls whose counts cannot be read left out
    and counted apart (before, a count stored as text was summed as 0, the call's other counts kept)."""
    plain, odd = stores
    for root in (plain, odd):
        report, _ = _report(root)
        days, unreadable = _charts(root)
        assert sum(d.value for d in days) == report.overall.input + report.overall.output
        assert unreadable == report.unreadable.records
    assert _charts(odd)[1] == 3 and _charts(plain)[1] == 0
    assert PLANTED not in repr(_charts(odd))
