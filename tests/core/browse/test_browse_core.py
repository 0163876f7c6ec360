"""The Qt-free helpers behind the browse pages: inbox overview, task pairing, schedules (file previews: tests/stores/test_files_confinement.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.daycare.demo.ids import NOW_MS
from daycare_gui.stores.daycare.schedule_info import schedule_info
from daycare_gui.stores.daycare.sqlite.queries.inbox_overview import inbox_agents, inbox_overview
from daycare_gui.stores.daycare.sqlite.store import open_store
from daycare_gui.stores.daycare.sqlite.task_overview import cron_entries, heartbeat_entries


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo") / "daycare"
    write_demo(root)
    store = open_store(root)
    yield store
    store.close()


def test_inbox_overview_oldest_first_with_names_and_stuck(demo):
    entries = inbox_overview(demo.db, NOW_MS)
    assert len(entries) == 9
    assert [e.item.posted_at for e in entries] == sorted(e.item.posted_at for e in entries)
    assert sum(e.stuck for e in entries) == 5
    assert all(e.agent_name for e in entries)
    assert entries[0].age_ms == 9 * 86_400_000
    one = entries[0].agent_id
    assert {e.agent_id for e in inbox_overview(demo.db, NOW_MS, one)} == {one}


def test_inbox_pages_by_key_and_filters_in_sql(demo):
    from daycare_gui.stores.daycare.sqlite.queries.inbox import InboxFilter, inbox_totals

    pages, after = [], None
    while True:  # three items a page, each after the last one held
        page = inbox_overview(demo.db, NOW_MS, limit=3, after=after)
        if not page:
            break
        pages.append(page)
        after = page[-1]
    assert [len(p) for p in pages] == [3, 3, 3]
    assert [e.id for p in pages for e in p] == [e.id for e in inbox_overview(demo.db, NOW_MS)]
    assert inbox_totals(demo.db, NOW_MS) == (9, 5)
    stuck = InboxFilter(stuck_only=True)
    assert inbox_totals(demo.db, NOW_MS, stuck) == (5, 5)
    assert all(e.stuck for e in inbox_overview(demo.db, NOW_MS, flt=stuck))
    rice = inbox_overview(demo.db, NOW_MS, flt=InboxFilter(text="Leftover Rice"))
    assert len(rice) == 1 and "leftover rice" in rice[0].item.summary()
    by_name = inbox_overview(demo.db, NOW_MS, flt=InboxFilter(text="discord"))  # in the agent's descriptor
    assert by_name and all("discord" in (e.agent_name or "") for e in by_name)
    assert inbox_totals(demo.db, NOW_MS, InboxFilter(text="100%_no_such")) == (0, 0)


def test_inbox_agents_counts(demo):
    agents = inbox_agents(demo.db, NOW_MS)
    assert sum(a.items for a in agents) == 9
    assert sum(a.stuck for a in agents) == 5
    assert agents[0].stuck == 1 and "stuck" in agents[0].label


def test_cron_entries_pair_files_and_rows(demo):
    entries = {e.id: e for e in cron_entries(demo)}
    assert entries["daily-digest"].presence == "both"
    assert entries["daily-digest"].reads == "row"
    assert entries["standup-notes"].presence == "row"
    assert entries["plant-photos"].presence == "file"
    assert entries["plant-photos"].reads == "nothing"
    assert entries["weekly-review"].aliases["schedule"] == "cron"
    assert entries["daily-digest"].get("schedule") == "0 7 * * *"
    hb = {e.id: e for e in heartbeat_entries(demo)}
    assert hb["weekly-budget"].presence == "row" and hb["check-inbox"].presence == "both"


def test_schedule_info_valid_and_invalid():
    now = dt.datetime(2026, 3, 1, 12, 0)
    ok = schedule_info("0 7 * * *", now=now)
    assert ok.valid and "07:00" in ok.words
    assert len(ok.next_runs) == 5 and ok.next_runs[0] == dt.datetime(2026, 3, 2, 7, 0)
    bad = schedule_info("61 * * * *", now=now)
    assert not bad.valid and bad.next_runs == () and "minute" in bad.summary()
    assert not schedule_info(None).valid

