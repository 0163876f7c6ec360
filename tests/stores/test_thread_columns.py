"""Each kind's thread list says what its threads are: Linggen projects with their workspace and sessions,
CianaParrot chats with their channel (a filter too) and threads; a kind that gives nothing gets the default."""

from __future__ import annotations

from daycare_gui.stores import api
from daycare_gui.stores.records import Query
from daycare_gui.stores.registry import open_store


def _rows(cap, query=Query()):
    return cap.fetch(api.THREADS, cap.keys(api.THREADS, query))


def test_linggen_projects_show_their_workspace_and_session_count(tmp_path):
    from daycare_gui.stores.linggen import write_demo

    with open_store(write_demo(tmp_path / "linggen")) as store:
        cap = store.capability(api.Conversations)
        assert cap.thread_columns() == ("Name", "Workspace", "Sessions", "Updated")
        rows = _rows(cap)
        by_id = {t.id: t for t in cap.threads()}
        assert {r.key for r in rows} == set(by_id)
        for r in rows:
            assert r.values[1] == dict(by_id[r.key].meta).get("path", "")
            assert r.values[2] == by_id[r.key].session_count
        assert any(r.values[1].startswith("/") for r in rows)  # a real workspace path, not the layout
        counts = [r.values[2] for r in _rows(cap, Query(sort="Sessions", descending=True))]
        assert counts == sorted(counts, reverse=True)


def test_cianaparrot_chats_show_and_filter_by_their_channel(tmp_path):
    from daycare_gui.stores.cianaparrot import write_demo

    with open_store(write_demo(tmp_path / "ciana")) as store:
        cap = store.capability(api.Conversations)
        assert cap.thread_columns() == ("Name", "Channel", "Threads", "Updated")
        rows = _rows(cap)
        channels = {r.values[1] for r in rows}
        assert len(channels) > 1, channels  # e.g. telegram chats and a scheduled task's runs
        (spec,) = cap.filters(api.THREADS)
        assert spec.kind == "choice" and {v for v, _label in spec.choices} == channels
        for channel in channels:
            picked = _rows(cap, Query(choices=(("channel", channel),)))
            assert picked and {r.values[1] for r in picked} == {channel}
        assert sum(r.values[2] for r in rows) == sum(t.session_count for t in cap.threads())


def test_a_kind_without_its_own_columns_gets_the_default_thread_list():
    from daycare_gui.stores.records import SessionRecord, SessionRef, ThreadRecord

    class Plain(api.Conversations):
        def threads(self):
            return [ThreadRecord("b", "beta", "second", 2000, 3), ThreadRecord("a", "Alpha", "first", 1000, 5)]

        def sessions(self, thread_id):
            return [SessionRecord(SessionRef(thread_id, "s"), "s")] if thread_id else []

        def message_count(self, ref):
            return 0

        def messages(self, ref, start, limit):
            return []

    cap = Plain()
    assert cap.thread_columns() == api.THREAD_COLUMNS == ("Name", "About", "Sessions", "Updated")
    assert cap.keys(api.THREADS, Query()) == ["b", "a"]  # the kind's own order
    assert cap.keys(api.THREADS, Query(sort="Name")) == ["a", "b"]
    assert cap.keys(api.THREADS, Query(sort="Updated", descending=True)) == ["b", "a"]
    assert cap.keys(api.THREADS, Query(text="SECOND")) == ["b"]
    (row,) = cap.fetch(api.THREADS, ["a"])
    assert row.values[:3] == ("Alpha", "first", 5) and row.values[3].year == 1970
