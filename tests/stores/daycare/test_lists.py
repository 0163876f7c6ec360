"""Daycare SQLite and legacy stores offer their lists as shared Collections (keyed, filtered by the store):
what the Daycare-only Inbox, Channels, Signals, Processes, Expose, System prompts and Apps pages showed."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.ids import NOW_MS
from daycare_gui.stores.daycare.sqlite.collections import DaycareLists
from daycare_gui.stores.records import Query


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(dest)
    return dest


@pytest.fixture
def lists(demo, monkeypatch):
    monkeypatch.setattr(DaycareLists, "clock", staticmethod(lambda: NOW_MS))
    with registry.open_store(demo) as store:
        yield store.capability(api.Collections)


def _sql(db, sql, *args):
    conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def test_inbox_oldest_first_with_age_stuck_flags_filters_and_totals(lists, demo):
    keys = lists.keys("inbox", Query())
    assert keys == [r[0] for r in _sql(demo / "daycare.db", "SELECT id FROM inbox ORDER BY posted_at, id")]
    rows = lists.fetch("inbox", keys)
    assert [r.flag for r in rows][:5] == ["stuck"] * 5 and [r.flag for r in rows].count("stuck") == 5
    assert rows[0].values[1] == "9d" and rows[0].values[2] == "stuck"
    assert all("no such agent" not in r.values[4] for r in rows)
    assert lists.totals("inbox", Query()) == {"items": 9, "stuck": 5}
    stuck = Query(flags=frozenset({"stuck"}))
    assert len(lists.keys("inbox", stuck)) == 5 and lists.totals("inbox", stuck) == {"items": 5, "stuck": 5}
    assert len(lists.keys("inbox", Query(text="leftover RICE"))) == 1
    agent_filter = next(f for f in lists.filters("inbox") if f.kind == "choice")
    one = agent_filter.choices[0][0]
    assert {r.raw["agentId"] if "agentId" in (r.raw or {}) else r.links[0].value
            for r in lists.fetch("inbox", lists.keys("inbox", Query(choices=(("agent", one),))))} == {one}
    assert [f.kind for f in lists.filters("inbox")] == ["choice", "flag"]


def test_channels_with_their_messages_and_members_as_details(lists, demo):
    channels = {c.id: c for c in lists.collections()}
    assert channels["channels"].details == ("channel_messages", "channel_members")
    assert channels["channel_messages"].detail and channels["channel_members"].detail
    keys = lists.keys("channels", Query())
    assert len(keys) == 2
    for key in keys:
        (channel_id,) = _sql(demo / "daycare.db", "SELECT id FROM channels WHERE rowid = ?", int(key))[0]
        (n,) = _sql(demo / "daycare.db", "SELECT count(*) FROM channel_messages WHERE channel_id = ?", channel_id)[0]
        assert len(lists.keys("channel_messages", Query(parent=key))) == n > 0
    assert [lists.fetch("channels", [k])[0].values[lists.list_columns("channels").index("name")]
            for k in lists.keys("channels", Query(text="family"))] == ["family"]


def test_signals_processes_expose_and_prompts_match_their_tables(lists, demo):
    for cid, table in (("signals", "signals_events"), ("subscriptions", "signals_subscriptions"),
                       ("delayed", "signals_delayed"), ("processes", "processes"), ("expose", "expose_endpoints"),
                       ("system_prompts", "system_prompts")):
        (n,) = _sql(demo / "daycare.db", f'SELECT count(*) FROM "{table}"')[0]
        assert lists.size(cid) == n > 0, cid
        assert lists.keys(cid, Query(text="zzz-no-such-value")) == []
    prompt = lists.fetch("system_prompts", lists.keys("system_prompts", Query())[:1])[0]
    assert prompt.markdown == prompt.raw["prompt"]
    shown = json.dumps([r.values for cid in ("processes", "expose")
                        for r in lists.fetch(cid, lists.keys(cid, Query()))], default=str, ensure_ascii=False)
    shown += json.dumps([r.raw for cid in ("processes", "expose") for r in lists.fetch(cid, lists.keys(cid, Query()))],
                        default=str, ensure_ascii=False)
    assert "development" not in shown and "argon2" not in shown and "••••••••" in shown
    assert lists.keys("processes", Query(text="development")) == []  # a masked value is never searched


def test_apps_with_rules_grants_and_revoke_actions(lists, demo):
    rows = lists.fetch("apps", lists.keys("apps", Query()))
    assert len(rows) == 3
    deploy = next(r for r in rows if r.values[0] == "deploy-check")
    assert deploy.values[4] == "3 allow / 2 deny" and "## Granted permissions" in deploy.markdown
    assert [a.id for a in lists.row_actions("apps", deploy)] == [f"revoke:{t}" for t in deploy.raw["granted"]] + [
        "delete"]
    assert all(a.writes for a in lists.row_actions("apps", deploy))
    assert any(lk.label == "Edit PERMISSIONS.md" for lk in deploy.links)


def test_revoke_refuses_a_changed_file_and_keeps_a_backup(demo, tmp_path):
    store_dir = tmp_path / "daycare"
    shutil.copytree(demo, store_dir)
    state = store_dir / "workspace" / "apps" / "deploy-check" / "state.json"
    before = state.read_bytes()
    with registry.open_store(store_dir) as store:
        lists = store.capability(api.Collections)
        deploy = next(r for r in lists.fetch("apps", lists.keys("apps", Query())) if r.values[0] == "deploy-check")
        state.write_bytes(before.replace(b"]", b', "@events"]', 1))  # Daycare wrote meanwhile
        with pytest.raises(api.WriteConflict):
            lists.run_row_action("apps", deploy, "revoke:@network")
        assert state.read_bytes() == before.replace(b"]", b', "@events"]', 1)
        state.write_bytes(before)
        said = lists.run_row_action("apps", deploy, "revoke:@network")
    assert "@network" in said
    assert "@network" not in json.loads(state.read_bytes())["permissions"]
    backups = list((store_dir / ".daycare-gui-backups").glob("deploy-check-state.json.*.bak"))
    assert [b.read_bytes() for b in backups] == [before]


def test_legacy_store_lists_channels_from_files(fixture_copy):
    with registry.open_store(fixture_copy("daycare-808af509", with_db=False)) as store:
        lists = store.capability(api.Collections)
        assert "inbox" not in {c.id for c in lists.collections()}
        (key,) = lists.keys("channels", Query())
        messages = lists.fetch("channel_messages", lists.keys("channel_messages", Query(parent=key)))
        columns = lists.list_columns("channel_messages")
        assert [m.values[columns.index("text")] for m in messages] == ["deploy done"]
        members = lists.fetch("channel_members", lists.keys("channel_members", Query(parent=key)))
        assert [m.values[1] for m in members] == ["alex"]
