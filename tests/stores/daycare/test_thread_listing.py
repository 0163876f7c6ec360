"""Daycare's agents as the shared thread list (Listing "threads"), without Qt: the SQLite generation
filters and sorts in SQL and reads only the rows asked for; the legacy generation offers the same columns
and filters over its folders."""

from __future__ import annotations

import sqlite3

import pytest

from daycare_gui.stores import api
from daycare_gui.stores.daycare.demo import write_demo
from daycare_gui.stores.records import Query
from daycare_gui.stores.registry import open_store

BULK = 3000  # agents added to the demo: a store where a scan in Python would read thousands of rows


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    root = tmp_path_factory.mktemp("threads") / "daycare"
    write_demo(root)
    return root


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """The demo with BULK more agents, all of one new user's, none of them cron agents."""
    root = tmp_path_factory.mktemp("threads-big") / "daycare"
    write_demo(root)
    con = sqlite3.connect(root / "daycare.db")
    columns = [r[1] for r in con.execute("PRAGMA table_info(agents)") if r[1] not in ("id", "user_id", "type")]
    model = con.execute("SELECT id FROM agents WHERE type = 'permanent' LIMIT 1").fetchone()[0]
    for i in range(BULK):
        con.execute(f"INSERT INTO agents (id, user_id, type, {', '.join(columns)}) "
                    f"SELECT ?, 'bulk-user', 'permanent', {', '.join(columns)} FROM agents WHERE id = ?",
                    (f"bulk{i:020d}", model))
    con.commit()
    con.close()
    return root


def _threads(store):
    cap = store.capability(api.Conversations)
    assert isinstance(cap, api.Listing)
    return cap


def _all_rows(cap, query=Query()):
    return cap.fetch(api.THREADS, cap.keys(api.THREADS, query))


def test_sqlite_agents_list_with_the_old_panes_columns_filters_and_sorts(demo):
    with open_store(demo) as store:
        cap = _threads(store)
        assert cap.thread_columns() == ("Name", "Kind", "Lifecycle", "User", "Sessions", "Created", "Updated",
                                        "Tokens")
        assert cap.sorts(api.THREADS) == ("Name", "Kind", "Lifecycle", "User", "Created", "Updated", "Tokens")
        filters = {f.name: f for f in cap.filters(api.THREADS)}
        assert [f.kind for f in filters.values()] == ["choice", "choice", "choice", "time"]
        users = dict(filters["user"].choices)  # the owners by name, as the User column says them
        assert sorted(users.values()) == ["Alex Rivera", "Jordan Lee", "Mia Rivera", "Sam Okafor"]

        rows = _all_rows(cap)
        assert len(rows) == 15 == cap.count()
        assert {r.values[1] for r in rows} == {"user", "cron", "system", "subagent", "app", "permanent"}
        updated = [r.values[6] for r in rows]
        assert updated == sorted(updated, reverse=True)  # the list's own order: latest first
        dead = [r for r in rows if r.values[2] == "dead"]
        assert dead and all(r.flag == "dead" for r in dead)  # greyed by the list
        assert all(isinstance(r.values[4], int) for r in rows)  # sessions counted

        cron = _all_rows(cap, Query(choices=(("kind", "cron"),)))
        assert cron and len(cron) < 15 and all(r.values[1] == "cron" for r in cron)
        sam = next(k for k, v in users.items() if v == "Sam Okafor")
        assert {r.values[3] for r in _all_rows(cap, Query(choices=(("user", sam),)))} == {"Sam Okafor"}
        assert cap.keys(api.THREADS, Query(text="no-such-agent-anywhere")) == []
        assert cap.keys(api.THREADS, Query(since=10**14)) == []  # nothing updated after 5138

        for title in cap.sorts(api.THREADS):
            column = cap.thread_columns().index(title)
            for descending in (False, True):
                values = [r.values[column] for r in _all_rows(cap, Query(sort=title, descending=descending))]
                key = (lambda v: v.casefold()) if isinstance(values[0], str) else (lambda v: v)
                assert [key(v) for v in values] == sorted(map(key, values), reverse=descending), title


def test_sqlite_keys_filter_in_sql_and_fetch_reads_only_the_rows_asked_for(big):
    """On a store of 3,000 agents, asking for one user's agents reads their ids only: every filter is a
    WHERE clause, not a scan of the agents in Python; and fetch parses only the keys it is given."""
    with open_store(big) as store:
        cap = _threads(store)
        db = store.core.db
        read: list[tuple[str, int]] = []
        run = db._run

        def counting(sql, params, *, named):
            rows = run(sql, params, named=named)
            read.append((sql, len(rows)))
            return rows

        db._run = counting
        sam = next(k for k, v in dict(next(f for f in cap.filters(api.THREADS) if f.name == "user").choices).items()
                   if v == "Sam Okafor")
        del read[:]
        for query in (Query(choices=(("user", sam),)), Query(choices=(("kind", "cron"),), sort="Tokens"),
                      Query(text="Librarian", sort="Name"), Query(choices=(("lifecycle", "dead"),), sort="User")):
            keys = cap.keys(api.THREADS, query)
            assert 0 < len(keys) < 10, query
            assert sum(n for _sql, n in read) <= len(keys), (query, read)  # only the matches left SQLite
            assert all("WHERE" in sql for sql, _n in read)
            del read[:]

        everyone = cap.keys(api.THREADS, Query())
        assert len(everyone) == 15 + BULK
        del read[:]
        rows = cap.fetch(api.THREADS, everyone[:64])
        assert len(rows) == 64
        assert sum(n for _sql, n in read) <= 64 * 3  # the rows, their owners' names, their session counts


def test_legacy_agents_list_with_the_same_columns_and_filters(fixture_copy):
    with open_store(fixture_copy("daycare-808af509", with_db=False)) as store:
        cap = _threads(store)
        assert cap.thread_columns()[:4] == ("Name", "Kind", "Lifecycle", "User")
        assert [f.name for f in cap.filters(api.THREADS)] == ["kind", "lifecycle", "updated"]  # no users yet
        rows = _all_rows(cap)
        assert len(rows) == len(cap.threads()) > 0
        kind = rows[0].values[1]
        picked = _all_rows(cap, Query(choices=(("kind", kind),)))
        assert picked and all(r.values[1] == kind for r in picked)
        names = [r.values[0].casefold() for r in _all_rows(cap, Query(sort="Name"))]
        assert names == sorted(names)
        sessions = {t.id: t.session_count for t in cap.threads()}
        assert {r.key: r.values[4] for r in rows} == sessions


def test_sqlite_users_owner_first_with_what_the_old_users_page_showed(demo):
    from daycare_gui.stores.daycare.sqlite.queries.users import list_users

    with open_store(demo) as store:
        users = store.capability(api.Collections)
        rows = users.rows("users", 0, 100)
        old = list_users(store.core.db, store.core.cols)  # what the old Users page listed, in its order
        assert [r.key for r in rows] == [u.id for u in old] and old[0].is_owner
        assert rows[0].values[1] == "★ owner" and all(r.values[1] == "" for r in rows[1:])
        assert [r.values[3] for r in rows] == [", ".join(u.connector_keys) for u in old]
        assert [r.values[5] for r in rows] == [u.agent_count for u in old]
        threads = store.capability(api.Conversations)
        for row in rows:
            assert len(threads.keys(api.THREADS, row.links[0].value)) == row.values[5]  # the link lists them
        mia = next(r for r in rows if r.values[0] == "Mia Rivera")
        assert mia.values[4] == "Alex Rivera" and mia.links[1].value == ("users", rows[0].key)
