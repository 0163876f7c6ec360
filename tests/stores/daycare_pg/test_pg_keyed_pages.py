"""KeyedPages on today's Daycare (a PostgreSQL server): pages by session_history.id hold what the
positional pages hold, and reading the end of a session names no OFFSET."""

from __future__ import annotations

from daycare_gui.stores import api, registry


def test_pg_pages_by_id_agree_with_positions_and_skip_offset(pg_demo_url):
    with registry.open_store(pg_demo_url) as store:
        cap = store.capability(api.Conversations)
        sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
        ref = max(sessions, key=lambda s: cap.message_count(s.ref)).ref
        total = cap.message_count(ref)
        every = cap.messages(ref, 0, total)
        assert total >= 3
        statements: list[str] = []
        db = store.db
        rows = db.rows

        def traced(sql, params=None):
            statements.append(sql)
            return rows(sql, params)

        db.rows = traced
        count, last = cap.tail(ref)
        assert (count, last) == (total, int(every[-1].id))
        page = cap.page_before(ref, last + 1, 2)
        assert [p.message().id for p in page] == [m.id for m in every[-2:]]
        assert [p.message().text for p in cap.page_after(ref, None, 2)] == [m.text for m in every[:2]]
        keys = cap.key_chunk(ref, None, total)
        assert [str(k) for k in keys] == [m.id for m in every]
        assert cap.locate(ref, every[-1].id) == total - 1
        assert cap.locate(ref, "999999999") is None
        assert isinstance(cap.raw(ref, keys[0]), dict)  # jsonb as stored
        assert statements and not [s for s in statements if "OFFSET" in s.upper()]
