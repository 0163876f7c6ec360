"""The PGlite sidecar's memory (#35): Node runs PGlite's WebAssembly compiled by Liftoff only, with a small
young generation, and the one pass over the history asks PGlite for 16 MB of work memory, not 48, and takes
its answer a few thousand sessions at a time.

On the 1M-record demo the sidecar peaked at ~420 MB with Node's defaults (TurboFan's code and compiler memory,
16 MB semi-spaces full of the garbage PGlite makes of each reply, a 48 MB hash); the figures are in
bench/README.md. PGlite itself starts PostgreSQL with 16 MB of shared buffers instead of the 128 MB compiled
into it, which it zeroes at start (the sidecar changes the value in PGlite's memory before PostgreSQL reads
it). Memory is asserted only where a test can see it whatever the machine (rows kept by the sidecar after
they were served); otherwise what the sidecar is started with, and that it still reads the store as before."""

from __future__ import annotations

from pathlib import Path

from daycare_gui.stores import api, registry
from daycare_gui.stores.daycare.pg.runtime import SIDECAR


def _argv(pid: int) -> list[str]:
    return [a.decode() for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a]


def test_the_sidecar_runs_webassembly_by_liftoff_only_with_a_small_young_generation(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        argv = _argv(store.server.proc.pid)
        served = [str(store.server.data), str(store.server.socket_dir)]
        cap = store.capability(api.Conversations)
        thread = cap.threads()[0]
        sessions = cap.sessions(thread.id)  # PGlite answers as before under these options
        assert sessions and any(s.message_count for s in sessions)
        ref = max(sessions, key=lambda s: s.message_count).ref
        count, _last = cap.tail(ref)
        assert count == sessions[[s.ref for s in sessions].index(ref)].message_count
        assert len(cap.page_before(ref, None, 3)) == min(3, count)
    script = argv.index(str(SIDECAR))
    node_options = argv[1:script]  # Node's own options come before the script; after it they would be its arguments
    assert "--liftoff-only" in node_options
    assert "--max-semi-space-size=1" in node_options
    assert argv[script + 1:] == served


def test_the_sidecar_s_malloc_has_one_arena_and_maps_large_blocks_of_their_own(pglite_demo):
    """glibc raises its mmap threshold to the largest block freed, after which PGlite's large replies come from
    a heap that fragments and keeps its pages: the sidecar runs with the threshold fixed at glibc's first
    128 kB (and one arena), and reads the store as before."""
    with registry.open_store(pglite_demo) as store:
        pid = store.server.proc.pid
        environ = dict(item.split(b"=", 1) for item in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
                       if b"=" in item)
        cap = store.capability(api.Conversations)
        assert any(s.message_count for t in cap.threads() for s in cap.sessions(t.id))
    assert environ.get(b"MALLOC_MMAP_THRESHOLD_") == b"131072"
    assert environ.get(b"MALLOC_ARENA_MAX") == b"1"


def test_the_pass_over_the_history_asks_for_16_mb_of_work_memory_in_one_statement(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        asked: list[tuple[dict, str]] = []
        plain = store.db.rows_with

        def rows_with(settings, sql):
            asked.append((dict(settings), sql))
            return plain(settings, sql)

        store.db.rows_with = rows_with
        cap = store.capability(api.Conversations)
        truth = {r[0]: int(r[1]) for r in store.db.rows(
            "SELECT session_id, count(*) FROM session_history GROUP BY session_id")}
        listed = {s.ref.session_id: s.message_count for t in cap.threads() for s in cap.sessions(t.id)}
    scans = [(settings, sql) for settings, sql in asked if "session_history" in sql]
    assert len(scans) == 1  # every session's ids in one statement: PGlite answers each statement whole
    assert scans[0][0]["work_mem"] == "16MB"
    assert listed and all(n == truth.get(sid, 0) for sid, n in listed.items())


def test_a_node_that_refuses_one_of_the_options_still_serves_the_store(pglite_demo, monkeypatch):
    """The options are V8's (--liftoff-only is one it marks "for testing"): a Node whose V8 lacks one stops
    at once with "bad option", and the store still opens, served by a sidecar started without them."""
    from daycare_gui.stores.daycare.pg import pglite_copy

    monkeypatch.setattr(pglite_copy, "SIDECAR_NODE_FLAGS", ("--no-such-option-for-daycare-gui",))
    with registry.open_store(pglite_demo) as store:
        argv = _argv(store.server.proc.pid)
        cap = store.capability(api.Conversations)
        assert any(s.message_count for t in cap.threads() for s in cap.sessions(t.id))
    assert argv[1] == str(SIDECAR)


def test_the_pass_over_the_history_is_read_in_slices_of_pages(pglite_demo, monkeypatch):
    """PGlite's sidecar holds each reply whole, several times over: every session's ids (11 MB on the 1M demo)
    come in one reply per slice of the history's pages, never all at once, and the session lists count what
    they did before."""
    from daycare_gui.stores.daycare.pg import history_keys

    monkeypatch.setattr(history_keys, "SLICE_PAGES", 1)
    with registry.open_store(pglite_demo) as store:
        asked: list[str] = []
        plain = store.db.rows_with

        def rows_with(settings, sql):
            asked.append(sql)
            return plain(settings, sql)

        store.db.rows_with = rows_with
        pages = int(store.db.scalar("SELECT pg_relation_size('session_history') / "
                                    "current_setting('block_size')::bigint"))
        truth = {r[0]: int(r[1]) for r in store.db.rows(
            "SELECT session_id, count(*) FROM session_history GROUP BY session_id")}
        cap = store.capability(api.Conversations)
        listed = {s.ref.session_id: s.message_count for t in cap.threads() for s in cap.sessions(t.id)}
    scans = [sql for sql in asked if "session_history" in sql]
    assert pages > 1 and len(scans) == pages  # one reply per page of the history, each its sessions' ids
    assert all("ctid" in sql for sql in scans)
    assert len(truth) > 8 and listed == {sid: truth.get(sid, 0) for sid in listed}


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_the_sidecar_keeps_no_row_it_has_served(pglite_demo):
    """PGlite 0.3 parses each message it answers into JS objects and appends them to a list that only its
    execProtocol empties: the sidecar, calling execProtocolRaw, kept every row it ever served (~14 MB after
    the 1M demo's history pass, and more with each page). Answers of 4 MB each: after ten, thirty more leave
    the sidecar's memory about where it was, where each added its 4 MB string (~140 MB)."""
    with registry.open_store(pglite_demo) as store:
        pid = store.server.proc.pid
        big = "SELECT repeat('x', 4000000) || :n"
        for n in range(10):  # PostgreSQL's memory, Node's heap and malloc's grow to what such answers need
            assert len(store.db.scalar(big, {"n": str(n)})) == 4000001
        before = _rss_mb(pid)
        for n in range(10, 40):
            assert store.db.scalar(big, {"n": str(n)}).endswith(str(n))
        grown = _rss_mb(pid) - before
        assert store.db.scalar("SELECT count(*) FROM agents") > 0  # and it still answers
    assert grown < 40, f"the sidecar grew by {grown:.0f} MB over thirty answers of 4 MB"


def _opened_with(store) -> dict[str, str]:
    return {name: store.db.scalar(f"SHOW {name}") for name in ("shared_buffers", "wal_buffers", "max_connections")}


def test_pglite_runs_with_16_mb_of_shared_buffers_and_reads_the_store_as_before(pglite_demo):
    with registry.open_store(pglite_demo) as store:
        settings = _opened_with(store)
        cap = store.capability(api.Conversations)
        truth = {r[0]: int(r[1]) for r in store.db.rows(
            "SELECT session_id, count(*) FROM session_history GROUP BY session_id")}
        listed = {s.ref.session_id: s.message_count for t in cap.threads() for s in cap.sessions(t.id)}
    assert settings == {"shared_buffers": "16MB", "wal_buffers": "4MB", "max_connections": "100"}
    assert listed and all(n == truth.get(sid, 0) for sid, n in listed.items())


def test_a_value_postgresql_refuses_starts_pglite_again_as_it_ships(pglite_demo, monkeypatch):
    """PostgreSQL stops PGlite's start on a value below its minimum (1 kB of shared buffers): the sidecar
    starts PGlite again without it, and the store opens with PGlite's own 128 MB."""
    from daycare_gui.stores.daycare.pg import pglite_copy

    monkeypatch.setattr(pglite_copy, "SIDECAR_PGLITE_SETTINGS", {"shared_buffers": "1kB"})
    with registry.open_store(pglite_demo) as store:
        settings = _opened_with(store)
        log = store.server.log_tail()
        cap = store.capability(api.Conversations)
        assert any(s.message_count for t in cap.threads() for s in cap.sessions(t.id))
    assert settings["shared_buffers"] == "128MB"
    assert "shared_buffers=1kB" in log and "started again as it ships" in log


def test_a_setting_pglite_has_not_compiled_in_or_a_value_too_long_is_left_as_pglite_has_it(pglite_demo, monkeypatch):
    """Only a value PGlite's own command line sets can change (max_connections is PostgreSQL's default, not
    in it), and only in the room its string has ("4MB" holds no "1024MB"); the others are left alone and
    the store opens."""
    from daycare_gui.stores.daycare.pg import pglite_copy

    monkeypatch.setattr(pglite_copy, "SIDECAR_PGLITE_SETTINGS",
                        {"max_connections": "10", "wal_buffers": "1024MB", "shared_buffers": "32MB"})
    with registry.open_store(pglite_demo) as store:
        settings = _opened_with(store)
        assert store.db.scalar("SELECT count(*) FROM agents") > 0
    assert settings == {"shared_buffers": "32MB", "wal_buffers": "4MB", "max_connections": "100"}


def test_reading_a_pglite_store_imports_no_sqlalchemy(pglite_demo, tmp_path):
    """The window's share (#35): SQLAlchemy cost it ~15 MB on the 1M demo, for one connection's queries that
    psycopg sends as well. Opening, an agent's sessions, a session's pages, and the settings queries run
    without it (a fresh interpreter: this one has imported it for other tests)."""
    import json
    import os
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent(f"""
        import json, sys
        from daycare_gui.stores import api, registry
        with registry.open_store({str(pglite_demo)!r}) as store:
            cap = store.capability(api.Conversations)
            sessions = [s for t in cap.threads() for s in cap.sessions(t.id)]
            ref = max(sessions, key=lambda s: s.message_count).ref
            count, last = cap.tail(ref)
            page = cap.page_before(ref, None, 3)
            rows = store.db.mappings("SELECT id FROM session_history WHERE session_id = :s AND id <= :k "
                                     "ORDER BY id DESC LIMIT 1", {{"s": ref.session_id, "k": last}})
        print(json.dumps({{"count": count, "page": len(page), "last": rows[0]["id"] == last,
                          "sqlalchemy": sorted(m for m in sys.modules if m.split(".")[0] == "sqlalchemy")[:3]}}))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["count"] > 3 and got["page"] == 3 and got["last"]
    assert got["sqlalchemy"] == []
