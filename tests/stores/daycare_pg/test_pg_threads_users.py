"""Today's Daycare (PostgreSQL, the demo) through the shared thread list and users collection: the same
columns, filters and sorts as a SQLite store's, done in SQL; users with their keys, agents and links."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.records import Query
from daycare_gui.stores.registry import open_store


def _rows(cap, query=Query()):
    return cap.fetch(api.THREADS, cap.keys(api.THREADS, query))


def test_agents_filtered_and_sorted_in_sql_with_the_sqlite_columns(pg_demo_url):
    with open_store(pg_demo_url) as store:
        cap = store.capability(api.Conversations)
        assert cap.thread_columns() == ("Name", "Kind", "Lifecycle", "User", "Sessions", "Created", "Updated")
        assert [f.name for f in cap.filters(api.THREADS)] == ["kind", "lifecycle", "user", "updated"]
        rows = _rows(cap)
        assert len(rows) == cap.count() == len(cap.threads())
        assert {r.key: r.values[4] for r in rows} == {t.id: t.session_count for t in cap.threads()}
        users = dict(next(f for f in cap.filters(api.THREADS) if f.name == "user").choices)
        for uid, label in users.items():
            mine = _rows(cap, Query(choices=(("user", uid),)))
            assert mine and {r.values[3] for r in mine} == {label}
            assert {r.raw["user_id"] for r in mine} == {uid}
        for kind in {r.values[1] for r in rows}:
            assert {r.values[1] for r in _rows(cap, Query(choices=(("kind", kind),)))} == {kind}
        assert cap.keys(api.THREADS, Query(text="no-such-agent-anywhere")) == []
        assert cap.keys(api.THREADS, Query(text="%")) == []  # a LIKE wildcard typed is a character
        assert cap.keys(api.THREADS, Query(since=10**14)) == []
        for title in cap.sorts(api.THREADS):
            column = cap.thread_columns().index(title)
            for descending in (False, True):
                values = [r.values[column] for r in _rows(cap, Query(sort=title, descending=descending))]
                key = (lambda v: v.casefold()) if isinstance(values[0], str) else (lambda v: v)
                assert [key(v) for v in values] == sorted(map(key, values), reverse=descending), title


def test_users_with_keys_agent_counts_and_a_link_to_their_agents(pg_demo_url):
    with open_store(pg_demo_url) as store:
        users = store.capability(api.Collections)
        spec = next(c for c in users.collections() if c.id == "users")
        assert spec.columns == ("Name", "Role", "Nametag", "Connector keys", "Parent user", "Agents", "Created", "Id")
        rows = users.rows("users", 0, 100)
        assert len(rows) == users.size("users") == 2
        threads = store.capability(api.Conversations)
        for row in rows:
            link = row.links[0]
            assert link.target == "threads" and link.value == Query(choices=(("user", row.key),))
            assert row.values[5] == len(threads.keys(api.THREADS, link.value)) > 0  # the count is the list
            assert row.values[3].startswith("telegram:")
        assert users.row("users", rows[1].key) == rows[1]
