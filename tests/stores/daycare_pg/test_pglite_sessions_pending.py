"""An agent's session list on a PGlite copy does not wait for the history's one scan (#35): Daycare's schema
has no index on session_history.session_id, so counting a session's records reads the whole history once.
The list comes at once with every count pending (never 0), the scan runs in the background from the moment
the agent list is read, and the counts then equal what SQL counts. The scan is held here by an event, as a
scan of a million records would still be running."""

from __future__ import annotations

import threading

import pytest

from daycare_gui.stores import api
from daycare_gui.stores.api import THREADS
from daycare_gui.stores.daycare.pg import history_keys
from daycare_gui.stores.records import Query

HELD_S = 60  # a guard against a hang, not a timing: every wait below ends as soon as what it waits for is done


@pytest.fixture
def held_scan(monkeypatch):
    """The history's scan waits at its first query until ``release`` is set (``reached`` says it got there)."""
    reached, release = threading.Event(), threading.Event()
    real = history_keys.HistoryKeys._aggregate

    def held(self, where=""):
        reached.set()
        assert release.wait(HELD_S), "the scan was never released"
        return real(self, where)

    monkeypatch.setattr(history_keys.HistoryKeys, "_aggregate", held)
    return reached, release


def _truth(store) -> dict[str, int]:
    return {r[0]: int(r[1]) for r in store.db.rows("SELECT session_id, count(*) FROM session_history GROUP BY 1")}


def _busiest_agent(store) -> str:
    return store.db.scalar("SELECT s.agent_id FROM sessions s JOIN session_history h ON h.session_id = s.id "
                           "GROUP BY s.agent_id ORDER BY count(*) DESC, s.agent_id LIMIT 1")


def test_the_session_list_is_shown_with_pending_counts_before_the_scan_then_sqls_counts(pglite_demo, held_scan,
                                                                                      tmp_path, monkeypatch):
    from daycare_gui.stores import registry

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    reached, release = held_scan
    with registry.open_store(pglite_demo) as store:
        truth, agent = _truth(store), _busiest_agent(store)
        cap = store.capability(api.Conversations)
        listed = cap.sessions_now(agent)  # answered while the scan is held
        assert listed and all(s.count_pending and s.message_count is None for s in listed)
        assert reached.wait(HELD_S)  # the scan was started by the list, in the background
        release.set()
        cap.wait_for_counts()
        counted = cap.sessions_now(agent)
        assert [s.ref for s in counted] == [s.ref for s in listed]
        assert not any(s.count_pending for s in counted)
        assert {s.ref.session_id: s.message_count for s in counted} == {
            s.ref.session_id: truth.get(s.ref.session_id, 0) for s in listed}
        assert sum(s.message_count for s in counted) > 0
        # the command line's sessions() still counts every session before it answers
        assert [s.message_count for s in cap.sessions(agent)] == [s.message_count for s in counted]


def test_the_scan_starts_when_the_agent_list_is_read_and_the_session_list_then_has_its_counts(pglite_demo,
                                                                                               tmp_path,
                                                                                               monkeypatch):
    from daycare_gui.stores import registry

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with registry.open_store(pglite_demo) as store:
        truth, agent = _truth(store), _busiest_agent(store)
        cap = store.capability(api.Conversations)
        keys = history_keys.history_keys(store)
        assert keys.known() is None or keys._scan is not None  # (a first open: nothing kept)
        rows = cap.fetch(THREADS, cap.keys(THREADS, Query())[:50])  # the agent list's first screen
        assert rows
        scan = keys._scan
        assert scan is not None, "reading the agent list starts the history's scan"
        scan.join(HELD_S)
        listed = cap.sessions_now(agent)  # the user clicks the agent after the scan: counts at once
        assert listed and not any(s.count_pending for s in listed)
        assert {s.ref.session_id: s.message_count for s in listed} == {
            s.ref.session_id: truth.get(s.ref.session_id, 0) for s in listed}


def test_the_agent_list_is_read_while_a_count_waits_for_the_history(pglite_demo, held_scan, tmp_path, monkeypatch):
    """The window counts the store on its background worker while the Agents page reads its list on the
    other: a count asked before anything started the scan must not hold the list up until the scan ends (it
    did: the count read the history under the lock the list's rows take to start the scan)."""
    from daycare_gui.stores import registry

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    reached, release = held_scan
    with registry.open_store(pglite_demo) as store:
        truth = _truth(store)
        cap = store.capability(api.Conversations)
        keys = cap.keys(THREADS, Query())
        counted = {}
        counting = threading.Thread(target=lambda: counted.update(store.counts()), daemon=True)
        counting.start()  # the navigation's counts, before the agent list is read
        assert reached.wait(HELD_S)  # ... reading the history, held there
        listed = {}
        listing = threading.Thread(target=lambda: listed.update(rows=cap.fetch(THREADS, keys[:50])), daemon=True)
        listing.start()
        listing.join(HELD_S)  # (a guard against a hang: the rows need nothing from the history's scan)
        held = not listed
        release.set()
        counting.join(HELD_S)
        listing.join(HELD_S)
        assert not held, "the agent list waited for the history's scan"
        assert [r.key for r in listed["rows"]] == keys[:50]
        assert counted["session_history"] == sum(truth.values())


def test_a_session_opened_before_its_count_is_known_opens_at_its_end_from_the_one_scan(pglite_demo, held_scan,
                                                                                       tmp_path, monkeypatch):
    from daycare_gui.stores import registry

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    reached, release = held_scan
    with registry.open_store(pglite_demo) as store:
        truth, agent = _truth(store), _busiest_agent(store)
        ids = [int(r[0]) for r in store.db.rows(
            "SELECT h.id FROM session_history h JOIN sessions s ON s.id = h.session_id WHERE s.agent_id = :a "
            "AND h.session_id = (SELECT session_id FROM session_history h2 JOIN sessions s2 ON s2.id = h2.session_id "
            "WHERE s2.agent_id = :a GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) ORDER BY h.id", {"a": agent})]
        cap = store.capability(api.Conversations)
        session = max(cap.sessions_now(agent), key=lambda s: truth.get(s.ref.session_id, 0))
        assert session.count_pending
        statements = []
        real_aggregate = history_keys.HistoryKeys._aggregate
        monkeypatch.setattr(history_keys.HistoryKeys, "_aggregate",
                            lambda self, where="": statements.append(where) or real_aggregate(self, where))
        answer = {}
        opening = threading.Thread(target=lambda: answer.update(
            tail=cap.tail(session.ref), page=[p.key for p in cap.page_before(session.ref, None, 3)]))
        opening.start()  # the view opens it at its end: it waits for the scan under way
        assert reached.wait(HELD_S)
        release.set()
        opening.join(HELD_S)
        assert answer["tail"] == (len(ids), ids[-1]) and answer["page"] == ids[-3:]
        assert all(where for where in statements), "the history was read once, by the scan's slices"


def test_closing_the_store_ends_a_scan_under_way(pglite_demo, held_scan, tmp_path, monkeypatch):
    from daycare_gui.stores import registry

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    reached, release = held_scan
    store = registry.open_store(pglite_demo)
    agent = _busiest_agent(store)
    store.capability(api.Conversations).sessions_now(agent)
    keys = history_keys.history_keys(store)
    assert reached.wait(HELD_S)
    copy = store.server.workdir
    store.close()
    release.set()
    keys._scan.join(HELD_S)
    assert not keys._scan.is_alive() and keys._ids is None  # nothing kept from a copy already gone
    assert not copy.exists()


def test_ids_in_another_order_than_the_heaps_come_ascending_from_every_slice():
    """A row updated in place moves in the heap: a session's ids then come out of order, across slices too;
    PostgreSQL's base64 breaks its lines every 76 characters."""
    import base64
    import struct

    def pg_base64(*ids: int) -> str:
        text = base64.b64encode(b"".join(struct.pack(">q", i) for i in ids)).decode()
        return "\n".join(text[i:i + 76] for i in range(0, len(text), 76))

    first, second = pg_base64(*range(40, 10, -1)), pg_base64(7, 2**40, 3)
    assert "\n" in first
    got = history_keys._ids_of(first, second)
    assert list(got) == sorted([*range(11, 41), 7, 2**40, 3])


def test_the_pass_holds_each_slice_s_ids_as_numbers_not_every_slice_s_text(monkeypatch):
    """Every slice of the history holds nearly every session, so the pass once kept a text per session and
    slice until the end (the window's peak on the 1M demo): each slice is now decoded as it
    comes. 2,000 sessions in 40 slices, two ids each a slice: the pass's peak stays within 3 times what its ids
    take (8 bytes each: 1.9 times here), where the texts kept took 6.6 times; the ids are every slice's, in order."""
    import base64
    import json
    import struct
    import tracemalloc

    sessions, slices = 2000, 40

    class Slices:
        def scalar(self, sql):
            return slices  # pages: one a slice (SLICE_PAGES = 1)

        def rows_with(self, settings, sql):
            lo = int(sql.split("ctid >= '(")[1].split(",")[0])
            return [(json.dumps({f"s{n}": base64.b64encode(struct.pack(">qq", *self.ids(n, lo))).decode()
                                 for n in range(sessions)}),)]

        @staticmethod
        def ids(n, lo):
            return (lo * 2 * sessions + 2 * n, lo * 2 * sessions + 2 * n + 1)

    monkeypatch.setattr(history_keys, "SLICE_PAGES", 1)
    keys = history_keys.HistoryKeys(Slices())
    tracemalloc.start()
    try:
        got = keys._read()
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(got) == sessions
    assert list(got["s7"]) == [i for lo in range(slices) for i in Slices.ids(7, lo)]
    assert peak < 3 * sessions * slices * 2 * 8, f"the pass peaked at {peak / 1e6:.1f} MB"


def test_keeping_the_ids_holds_them_once_or_twice_not_four_times_and_they_come_back(tmp_path):
    """The ids read by the window's first pass are kept for the next open, written from the window's process
    right after the pass: as one base64 text, then the record's JSON and its bytes, they made the window's
    peak (+40 MB on the 1M demo). A million ids of 2,000 interleaved sessions (8 MB): encoding and saving
    them peaks within 3 times that (2.5), where it took 4.7; the record loads back the same ids, and so does a
    record of one text as the versions before wrote it."""
    import base64
    import json
    import tracemalloc
    from array import array

    from daycare_gui.stores.common import kept
    from daycare_gui.stores.common.tree_fingerprint import fingerprint

    sessions = 2000
    ids = {f"s{n}": array("q", range(n, 1_000_000, sessions)) for n in range(sessions)}
    ids["run"] = array("q", range(10**6, 10**6 + 500))  # a session written at once: a run, not in the blob
    root = tmp_path / "store.pglite"
    root.mkdir()
    (root / "PG_VERSION").write_text("17\n")
    store, fp, base = kept.real_path(root), fingerprint([root], now_ns=0), tmp_path / "kept"
    tracemalloc.start()
    try:
        assert kept.save(store, history_keys.KEPT_NAME, fp, history_keys._encoded(ids), base)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * 1_000_000 * 8, f"keeping the ids peaked at {peak / 1e6:.1f} MB"
    assert history_keys._decoded(kept.load(store, history_keys.KEPT_NAME, fp, base)) == ids
    earlier = history_keys._encoded(ids)
    earlier["blob"] = base64.b64encode(b"".join(base64.b64decode(p) for p in earlier["blob"])).decode()
    assert history_keys._decoded(json.loads(json.dumps(earlier))) == ids
