"""Every column the Agents table shows sorts in SQL in the order its cells read (names, owners, tokens)."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores.daycare.sqlite.queries.agents import fetch_agents, list_agent_ids
from daycare_gui.stores.daycare.sqlite.queries.users import list_users

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

words = st.one_of(st.none(), st.just(""), st.text("abcXYZ 09·_-", min_size=1, max_size=6),
                  st.integers(0, 9), st.booleans())
descriptor_objects = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(["user", "cron", "system", "subagent", "app", "permanent", "odd"]),
                       st.none(), st.integers(0, 3))},
    optional={k: words for k in ("id", "name", "connector", "userId", "channelId", "tag", "appId", "username")},
)
descriptors = st.one_of(descriptor_objects.map(json.dumps), st.sampled_from(["not json", "[1, 2]", "null"]),
                        st.none())
sizes = st.one_of(st.integers(0, 10_000), st.floats(0, 100, allow_nan=False), st.booleans(), st.none(),
                  st.text("ab", max_size=2))
stats = st.one_of(
    st.dictionaries(st.sampled_from(["openai", "anthropic"]),
                    st.one_of(st.dictionaries(st.sampled_from(["m1", "m2"]),
                                              st.one_of(st.fixed_dictionaries({"total": sizes}), st.integers(0, 5))),
                              st.integers(0, 5)),
                    max_size=2).map(json.dumps),
    st.sampled_from(["{", "[]", "7"]), st.none())
users = st.sampled_from([None, "u1", "u2", "u3", "ghost"])


def _write(path, agents) -> None:
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE users (id TEXT PRIMARY KEY, is_owner INTEGER, created_at INTEGER, updated_at INTEGER,
                            parent_user_id TEXT, name TEXT, nametag TEXT);
        INSERT INTO users VALUES ('u1', 1, 1, 1, NULL, 'zoe', 'zz'), ('u2', 0, 2, 2, NULL, NULL, 'Bob'),
                                 ('u3', 0, 3, 3, NULL, '', NULL);
        CREATE TABLE agents (id TEXT PRIMARY KEY, user_id TEXT, type TEXT, descriptor TEXT, active_session_id TEXT,
                             permissions TEXT, tokens TEXT, stats TEXT, lifecycle TEXT, created_at INTEGER,
                             updated_at INTEGER);
    """)
    conn.executemany("INSERT INTO agents (id, user_id, type, descriptor, stats, lifecycle, created_at, updated_at) "
                     "VALUES (?, ?, 'x', ?, ?, 'active', 1, 1)",
                     [(f"a{i:02d}", u, d, s) for i, (u, d, s) in enumerate(agents)])
    conn.commit()
    conn.close()


@SETTINGS
@given(st.lists(st.tuples(users, descriptors, stats), min_size=1, max_size=12))
def test_sql_order_matches_what_the_cells_show(tmp_path_factory, agents):
    path = tmp_path_factory.mktemp("agents") / "daycare.db"
    _write(path, agents)
    with ReadOnlyDatabase(path) as db:
        rows = fetch_agents(db, [f"a{i:02d}" for i in range(len(agents))])
        labels = {u.id: u.name or (f"@{u.nametag}" if u.nametag else u.id) for u in list_users(db)}
        shown = {
            "name": lambda a: (a.name.lower(), a.id),
            "tokens": lambda a: (a.token_total.total, a.id),
            "user": lambda a: (labels.get(a.user_id, a.user_id or "").lower(), a.id),
        }
        for sort, key in shown.items():
            ascending = list_agent_ids(db, sort=sort, descending=False)
            assert [key(rows[i])[0] for i in ascending] == sorted(key(a)[0] for a in rows.values()), sort
            descending = list_agent_ids(db, sort=sort, descending=True)
            assert [key(rows[i])[0] for i in descending] == sorted((key(a)[0] for a in rows.values()), reverse=True)
