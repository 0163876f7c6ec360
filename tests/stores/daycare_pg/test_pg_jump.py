"""Quick open on today's Daycare (a PostgreSQL server): narrow queries, current versions only."""

from __future__ import annotations

import psycopg

from daycare_gui.stores import api, registry
from daycare_gui.stores.common.jump import JumpIndex, entries_of
from daycare_gui.stores.records import SessionRef


def test_server_store_items_found_by_fragment_nametag_and_name(pg_demo_url):
    with psycopg.connect(pg_demo_url, autocommit=True) as conn:
        sid, aid = conn.execute("SELECT id, agent_id FROM sessions ORDER BY id LIMIT 1").fetchone()
        uid, nametag = conn.execute("SELECT id, nametag FROM users WHERE valid_to IS NULL ORDER BY id LIMIT 1").fetchone()
        agents = conn.execute("SELECT count(DISTINCT id) FROM agents WHERE valid_to IS NULL").fetchone()[0]
    with registry.open_store(pg_demo_url) as opened:
        assert opened.capability(api.Directory) is not None  # not one sessions() call per agent
        index = JumpIndex(entries_of(opened))
    assert sum(1 for e in index.entries if e.kind == "agent") == agents  # one per agent, not per version
    hit = index.find("session", sid)
    assert hit.ref == SessionRef(aid, sid)  # the shared conversation view opens it
    assert hit in index.search(sid[3:9])
    user = index.search(f"@{nametag}")[0]
    assert (user.kind, user.key, user.collection) == ("user", uid, "users")  # a row of the Users list
    assert index.find("row", f"users:{uid}") is user
    assert {"agent", "session", "user", "task", "doc", "table"} <= {e.kind for e in index.entries}
