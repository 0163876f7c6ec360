"""Today's Daycare (PostgreSQL, PGlite) offers the lists as the SQLite generation does: the inbox with age,
a stuck flag, filters and totals done in SQL; processes with their sandbox.json and the end of process.log;
mini apps with their code folders; a channel's members and messages as its details."""

from __future__ import annotations

import json

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.lists import STUCK_AFTER_MS, PgListing
from daycare_gui.stores.records import Query

NOW_MS = 1_794_960_000_000  # the PGlite demo's "now" (2026-11-18T00:00Z): its inbox item was posted an hour before


@pytest.fixture
def pglite_lists(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        yield store.capability(api.Collections)


def test_inbox_age_stuck_flag_filters_and_totals(pglite_lists, monkeypatch):
    lists = pglite_lists
    assert isinstance(lists, api.Listing)
    by_id = {c.id: c for c in lists.collections()}
    assert by_id["inbox"].columns == ("Posted", "Age", "State", "Kind", "Agent", "Summary")
    monkeypatch.setattr(PgListing, "clock", staticmethod(lambda: NOW_MS))  # posted an hour before: stuck
    (key,) = lists.keys("inbox", Query())
    (row,) = lists.fetch("inbox", [key])
    assert row.flag == "stuck" and row.values[1] == "1h" and row.values[5] == "Are we still on for Friday?"
    assert lists.totals("inbox", Query()) == {"items": 1, "stuck": 1}
    monkeypatch.setattr(PgListing, "clock", staticmethod(lambda: NOW_MS - 3600_000 + STUCK_AFTER_MS - 1))
    assert lists.fetch("inbox", [key])[0].flag == "" and lists.keys("inbox", Query(flags=frozenset({"stuck"}))) == []
    assert lists.keys("inbox", Query(text="FRIDAY")) == [key] and lists.keys("inbox", Query(text="zzz")) == []
    agent = next(f for f in lists.filters("inbox") if f.kind == "choice").choices[0][0]
    assert lists.keys("inbox", Query(choices=(("agent", agent),))) == [key]


def test_processes_with_their_sandbox_and_log_masked(pglite_lists):
    lists = pglite_lists
    (proc,) = lists.fetch("processes", lists.keys("processes", Query()))
    assert "sandbox.json" in proc.markdown and "process.log" in proc.markdown
    shown = proc.markdown + json.dumps(proc.raw, default=str, ensure_ascii=False) + repr(proc.values)
    from daycare_gui.stores.daycare.pg.demo import DEMO_PROCESS_ENV

    assert not [v for v in DEMO_PROCESS_ENV.values() if isinstance(v, str) and len(v) > 4 and v in shown]


def test_plain_lists_are_keyed_and_filtered_by_the_store(pglite_lists):
    """A list is read by its keys and only the rows asked for (no whole read per page), filtered in SQL on
    the columns shown, and gives the same rows as its pages."""
    lists = pglite_lists
    assert all(lists.size(cid) for cid in ("system_prompts", "processes", "observation_log"))
    for cid in ("signals", "system_prompts", "processes", "observation_log"):
        keys = lists.keys(cid, Query())
        assert [r.key for r in lists.fetch(cid, keys)] == [r.key for r in lists.rows(cid, 0, lists.size(cid))] == keys
        assert lists.fetch(cid, keys[-1:]) == (lists.rows(cid, len(keys) - 1, 1) if keys else [])
        assert lists.keys(cid, Query(text="zzz-no-such-words")) == []
    (prompt,) = lists.fetch("system_prompts", lists.keys("system_prompts", Query(text="METRIC units")))
    assert prompt.markdown == "Answer briefly; use metric units."
    assert lists.keys("processes", Query(text="npm RUN")) == ["proc-blog"]
    from daycare_gui.stores.daycare.pg.demo import DEMO_PROCESS_ENV

    secret = next(v for v in DEMO_PROCESS_ENV.values() if isinstance(v, str) and len(v) > 8)
    assert lists.keys("processes", Query(text=secret)) == []  # the environment is never searched
