"""What a PGlite store costs to open and browse (#35): the copy leaves out the WAL segments PostgreSQL
recycled, sessions are counted and paged from their record ids read once (no OFFSET, no pass over the
history per session list), and the user's folder stays byte for byte what it was."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.folder_copy import copy_pglite
from tests.pg_helpers import traced_statements


def _largest(cap):
    sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
    return max(sessions, key=lambda s: s.message_count).ref


def test_pglite_pages_of_a_session_are_read_by_key_without_offset(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        cap = store.capability(api.Conversations)
        ref = _largest(cap)
        truth = [r[0] for r in store.db.rows("SELECT id FROM session_history WHERE session_id = :s ORDER BY id",
                                             {"s": ref.session_id})]
        total = len(truth)
        assert total >= 6 and cap.message_count(ref) == total
        statements = traced_statements(store)
        last = cap.messages(ref, total - 3, 3)  # the last page by position, as an export or a jump asks it
        middle = cap.messages(ref, 2, 3)
        count, newest = cap.tail(ref)
        end = cap.page_before(ref, newest + 1, 3)
        assert [int(m.id) for m in last] == truth[-3:] == [p.key for p in end]
        assert [int(m.id) for m in middle] == truth[2:5]
        assert (count, newest) == (total, truth[-1])
        assert cap.locate(ref, str(truth[4])) == 4
        assert cap.key_chunk(ref, truth[1], 2) == truth[2:4]
        assert statements, "the pages were read from the store"
        assert not [s for s in statements if "OFFSET" in s.upper()], statements


def test_pglite_session_lists_read_the_history_once(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        cap = store.capability(api.Conversations)
        truth = {r[0]: int(r[1]) for r in store.db.rows(
            "SELECT session_id, count(*) FROM session_history GROUP BY session_id")}
        threads = cap.threads()
        assert len(threads) >= 3
        cap.sessions(threads[0].id)  # the first list reads every session's record ids
        statements = traced_statements(store)
        seen = {}
        for thread in threads[1:]:
            for s in cap.sessions(thread.id):
                seen[s.ref.session_id] = s.message_count
        assert seen and all(n == truth.get(sid, 0) for sid, n in seen.items())
        assert any(n > 0 for n in seen.values())
        assert len(statements) <= 2 * (len(threads) - 1)  # the agent's active session and its sessions rows
        assert not [s for s in statements if "session_history" in s], statements


def _tree(root: Path) -> dict[str, tuple[int, str]]:
    out = {}
    for dirpath, dirs, names in os.walk(root):
        for name in dirs + names:
            path = Path(dirpath, name)
            st = path.lstat()
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
            out[str(path.relative_to(root))] = (st.st_mode, digest)
    return out


def test_opening_and_browsing_leaves_the_users_folder_byte_identical(pglite_demo):
    before = _tree(pglite_demo)
    with registry.open_store(pglite_demo) as store:
        cap = store.capability(api.Conversations)
        ref = _largest(cap)
        cap.messages(ref, 0, 5)
        cap.page_before(ref, None, 5)
        store.report()
        autos = store.capability(api.Automations)
        for automation in autos.automations():
            autos.runs(automation.id)
    assert _tree(pglite_demo) == before


def _segment_name(segno: int, seg_size: int) -> str:
    per_log = 0x1_0000_0000 // seg_size
    return f"00000001{segno // per_log:08X}{segno % per_log:08X}"


def test_recycled_wal_segments_stay_out_of_the_copy_and_it_still_opens(pglite_demo, tmp_path):
    wal = pglite_demo / "daycare.pglite" / "pg_wal"
    size = 1 << 20  # PGlite's segment size
    written = sorted(n for n in os.listdir(wal) if len(n) == 24 and (wal / n).stat().st_size == size)
    newest = max(int(n[8:16], 16) * (0x1_0000_0000 // size) + int(n[16:24], 16) for n in written)
    # PostgreSQL renames a segment it no longer needs to a future name and leaves its old bytes in it;
    # a never-written one holds zeros.
    recycled = _segment_name(newest + 7, size)
    shutil.copyfile(wal / written[0], wal / recycled)
    zeros = _segment_name(newest + 8, size)
    (wal / zeros).write_bytes(bytes(size))
    with registry.open_store(pglite_demo) as store:
        expected = store.counts()

    copy = tmp_path / "copy"
    copy_pglite(pglite_demo / "daycare.pglite", copy)
    copied = set(os.listdir(copy / "pg_wal"))
    assert recycled not in copied and zeros not in copied
    assert (wal / recycled).is_file() and (wal / zeros).is_file()  # the store keeps them
    kept = [n for n in written if n in copied]
    assert kept, "the segment the last checkpoint is in is copied"

    with registry.open_store(pglite_demo) as store:  # and a store whose copy left them out reads the same
        assert store.counts() == expected

    whole = tmp_path / "whole"  # an edit's copy, swapped in as the store, keeps every file the store had
    copy_pglite(pglite_demo / "daycare.pglite", whole, whole=True)
    assert {recycled, zeros} <= set(os.listdir(whole / "pg_wal"))


def test_server_last_page_by_position_names_no_offset(pg_demo_url):
    with registry.open_store(pg_demo_url) as store:
        cap = store.capability(api.Conversations)
        ref = _largest(cap)
        every = cap.messages(ref, 0, cap.message_count(ref))
        statements = traced_statements(store)
        assert [m.id for m in cap.messages(ref, len(every) - 2, 2)] == [m.id for m in every[-2:]]
        assert statements and not [s for s in statements if "OFFSET" in s.upper()], statements


def test_pglite_inspect_counts_every_table_in_one_statement(pglite_demo):
    """``inspect`` of a PGlite copy counts its tables in one round trip to the sidecar (one statement a table
    cost ~10 ms each), and every count is the table's own count(*)."""
    with registry.open_store(pglite_demo, live=False) as store:
        statements = traced_statements(store)
        counts = store.counts()
        counting = [s for s in statements if "count(*)" in s]
        assert len(counting) == 1, counting
        tables = store.db.tables()
        assert len(tables) > 30 and all(t in counts for t in tables)
        for table in tables:
            assert counts[table] == store.db.scalar(f'SELECT count(*) FROM "{table}"'), table


def test_pglite_inspect_counts_the_history_and_tells_runs_without_grouping_it_by_session(pglite_demo):
    """``inspect`` needs the history's count and the task agents' runs: one pass that groups nothing gives
    both (every session's ids, grouped in PGlite, took 3 to 5 times as long on the 1M demo). What it says is
    what every session's ids say."""
    from daycare_gui.stores.report import inspect_report

    with registry.open_store(pglite_demo, live=False) as store:
        statements = traced_statements(store)
        through_cursor, rows_with = [], store.db.rows_with  # (its statements go past SQLAlchemy's events)
        store.db.rows_with = lambda settings, sql: through_cursor.append(sql) or rows_with(settings, sql)
        report = inspect_report(store)
        grouped = [s for s in statements + through_cursor if "GROUP BY session_id" in s]
        assert not grouped  # no session's ids grouped
        assert report["counts"]["session_history"] == store.db.scalar("SELECT count(*) FROM session_history")
        assert report["automations"]["runs"] > 0
    with registry.open_store(pglite_demo, live=False) as store:
        from daycare_gui.stores.daycare.pg.history_keys import history_keys

        history_keys(store).total()  # every session's ids, read first: the runs told from them
        assert inspect_report(store)["automations"] == report["automations"]


def test_pglite_open_reads_its_schema_in_one_statement(pglite_demo, monkeypatch):
    """A PGlite copy's tables and columns come from one question to PostgreSQL's catalog (two to
    information_schema took 80 to 270 ms of the open), with the names information_schema gives."""
    from daycare_gui.stores.daycare.pg import database

    asked = []
    real = database.PgDatabase.rows
    monkeypatch.setattr(database.PgDatabase, "rows",
                        lambda self, sql, params=None: asked.append(sql) or real(self, sql, params))
    with registry.open_store(pglite_demo, live=False) as store:
        schema = [s for s in asked if "information_schema" in s or "pg_catalog.pg_class" in s]
        assert len(schema) == 1, schema
        tables, columns = store.db.tables(), dict(store.db._columns)
        store.db._tables = store.db._columns = None  # asked again of information_schema
        assert store.db.tables() == tables and len(tables) > 30
        store.db.columns("agents")
        assert store.db._columns == columns
