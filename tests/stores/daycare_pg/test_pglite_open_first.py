"""What a PGlite open costs beyond PGlite itself (#35): the copy made by the kernel, the sidecar's memory
arenas capped, PGlite's files checked beside the folder checks, inspect counting the history from the one
pass over it, and an agent's session list answered without that pass when the last open of the same,
unchanged store already read every session's record ids."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

import pytest

from daycare_gui.stores.daycare.pg import folder_copy
from daycare_gui.stores.daycare.pg.folder_copy import copy_pglite
from tests.pg_helpers import traced_statements


def _digests(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.skipif(not hasattr(os, "copy_file_range"), reason="copy_file_range is Linux's")
def test_the_copy_is_made_by_the_kernel_byte_for_byte(pglite_demo, tmp_path, monkeypatch):
    calls = []
    real = os.copy_file_range

    def counted(src, dst, count, *args):
        calls.append(count)
        return real(src, dst, count, *args)

    monkeypatch.setattr(os, "copy_file_range", counted)
    read = []
    monkeypatch.setattr(folder_copy, "copy_stream", lambda *a, **k: read.append(a) or 0)
    copy = tmp_path / "copy"
    copy_pglite(pglite_demo / "daycare.pglite", copy)
    assert calls and not read  # no file went through Python's reads and writes
    source = _digests(pglite_demo / "daycare.pglite")
    copied = _digests(copy)
    assert copied and all(source[rel] == digest for rel, digest in copied.items())
    assert "base" in {rel.split("/")[0] for rel in copied}


@pytest.mark.skipif(not hasattr(os, "copy_file_range"), reason="copy_file_range is Linux's")
def test_a_file_system_without_kernel_copies_gets_the_same_bytes(pglite_demo, tmp_path, monkeypatch):
    def refused(*_args):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refused)
    copy = tmp_path / "copy"
    copy_pglite(pglite_demo / "daycare.pglite", copy)
    source = _digests(pglite_demo / "daycare.pglite")
    copied = _digests(copy)
    assert copied and all(source[rel] == digest for rel, digest in copied.items())


def test_a_file_that_grows_without_end_stops_the_kernel_copy(tmp_path, monkeypatch):
    src = tmp_path / "store"
    (src / "base").mkdir(parents=True)
    (src / "base" / "1").write_bytes(b"x" * 10)
    monkeypatch.setattr(folder_copy, "growth_limit", lambda size: 4)  # as if it had grown past its bound
    with pytest.raises(folder_copy.FileGrew):
        copy_pglite(src, tmp_path / "copy")


def test_the_sidecar_runs_with_its_malloc_arenas_capped(pglite_demo):
    from daycare_gui.stores import registry

    with registry.open_store(pglite_demo) as store:
        environ = Path(f"/proc/{store.server.proc.pid}/environ").read_bytes().split(b"\0")
    assert b"MALLOC_ARENA_MAX=1" in environ




def _browse(store) -> tuple[dict, tuple]:
    """Every agent's session list as the Agents page reads it, and the largest session's count and end."""
    from daycare_gui.stores import api

    cap = store.capability(api.Conversations)
    listed = {s.ref.session_id: s.message_count for t in cap.threads() for s in cap.sessions(t.id)}
    largest = max((s for t in cap.threads() for s in cap.sessions(t.id)), key=lambda s: s.message_count).ref
    count, last = cap.tail(largest)
    page = [p.key for p in cap.page_before(largest, None, 3)]
    return listed, (largest.session_id, count, last, page)


def _truth(store) -> tuple[dict, dict]:
    counts = {r[0]: int(r[1]) for r in store.db.rows("SELECT session_id, count(*) FROM session_history GROUP BY 1")}
    ids = {}
    for sid, i in store.db.rows("SELECT session_id, id FROM session_history ORDER BY id"):
        ids.setdefault(sid, []).append(int(i))
    return counts, ids


def _scans(statements: list[str]) -> list[str]:
    return [s for s in statements if "session_history" in s and "GROUP BY" in s.upper()]


def test_reopening_an_unchanged_store_lists_sessions_without_a_pass_over_the_history(pglite_demo, tmp_path,
                                                                                   monkeypatch):
    from daycare_gui.stores import registry
    from daycare_gui.stores.common import tree_fingerprint

    monkeypatch.setattr(tree_fingerprint, "RACY_NS", 0)  # the demo was copied a moment ago: trust its stat now
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))

    with registry.open_store(pglite_demo) as store:
        counts, ids = _truth(store)
        statements = traced_statements(store)
        first = _browse(store)
        assert _scans(statements), "the first open reads every session's record ids once"
    listed, (sid, count, last, page) = first
    assert all(listed[s] == counts.get(s, 0) for s in listed) and sum(counts.values()) > 0
    assert (count, last, page) == (len(ids[sid]), ids[sid][-1], ids[sid][-3:])

    records = list(cache.rglob("history-keys.json"))
    assert len(records) == 1 and records[0].stat().st_mode & 0o777 == 0o600
    assert records[0].parent.stat().st_mode & 0o777 == 0o700

    with registry.open_store(pglite_demo) as store:  # the same store, unchanged
        statements = traced_statements(store)
        assert _browse(store) == first
        assert not _scans(statements), statements

    table = next(p for p in (pglite_demo / "daycare.pglite" / "base").rglob("*") if p.is_file())
    st = table.stat()
    os.utime(table, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # a store that changed since
    with registry.open_store(pglite_demo) as store:
        statements = traced_statements(store)
        assert _browse(store) == first
        assert _scans(statements), "a store whose fingerprint differs is read again, not taken from the record"


def test_a_damaged_record_of_the_keys_is_read_again_from_the_copy(pglite_demo, tmp_path, monkeypatch):
    from daycare_gui.stores import registry
    from daycare_gui.stores.common import tree_fingerprint

    monkeypatch.setattr(tree_fingerprint, "RACY_NS", 0)
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    with registry.open_store(pglite_demo) as store:
        first = _browse(store)
    record = next(cache.rglob("history-keys.json"))
    import json

    data = json.loads(record.read_text())
    import base64

    pieces = data["data"]["blob"]  # base64 texts of 1 MB of ids each
    raw = bytearray(base64.b64decode(pieces[0])) if pieces else bytearray()
    if raw:
        raw[0] ^= 0xFF  # one id damaged on the disk
        pieces[0] = base64.b64encode(bytes(raw)).decode()
    else:  # every session of the demo is one run of ids: one run damaged
        sid, run = data["data"]["sessions"][0]
        lo, hi = run.split("-")
        data["data"]["sessions"][0] = [sid, f"{lo}-{int(hi) + 1}"]
    record.write_text(json.dumps(data))
    with registry.open_store(pglite_demo) as store:
        statements = traced_statements(store)
        assert _browse(store) == first
        assert _scans(statements)


def test_inspect_counts_the_history_from_the_one_pass_over_it(pglite_demo):
    from daycare_gui.stores import registry

    with registry.open_store(pglite_demo) as store:
        truth = int(store.db.scalar("SELECT count(*) FROM session_history"))
        statements = traced_statements(store)
        report = store.report()
        assert report["counts"]["session_history"] == truth > 0
        # one pass: the history read in slices of its pages (TID ranges), each page once, nothing else of it
        passes = [s for s in (t.replace('"', "") for t in statements) if "FROM session_history" in s]
        starts = [s.split("ctid >= '(", 1)[1].split(",", 1)[0] for s in passes if "ctid >= '(" in s]
        assert passes and len(starts) == len(passes) == len(set(starts)) and "0" in starts, passes
        # grouping nothing: a count, and the task agents' ids (every session's ids grouped took 3-5x as long)
        assert not any("GROUP BY" in s.upper() for s in passes), passes


def test_pglites_files_are_checked_beside_the_folder_checks_not_before_them(pglite_demo, monkeypatch):
    import threading

    from daycare_gui.stores import registry
    from daycare_gui.stores.daycare.pg import runtime

    where = []
    real = runtime.find_runtime

    def find():
        where.append(threading.current_thread() is threading.main_thread())
        return real()

    monkeypatch.setattr(runtime, "find_runtime", find)
    with registry.open_store(pglite_demo) as store:
        assert store.db.scalar("SELECT count(*) FROM agents") > 0
    assert where == [False]


def test_keys_too_many_to_be_read_back_are_not_written(pglite_demo, tmp_path, monkeypatch):
    from daycare_gui.stores import registry
    from daycare_gui.stores.common import kept, tree_fingerprint

    monkeypatch.setattr(tree_fingerprint, "RACY_NS", 0)
    monkeypatch.setattr(kept, "MAX_BYTES", 64)  # a record past this is never read: the store's would be
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    with registry.open_store(pglite_demo) as store:
        _browse(store)
    assert not list(cache.rglob("history-keys.json"))


def test_a_session_list_asked_first_after_the_open_sends_no_schema_question(pglite_demo):
    from daycare_gui.stores import api, registry

    with registry.open_store(pglite_demo) as store:
        statements = traced_statements(store)
        agent = store.db.scalar("SELECT agent_id FROM sessions ORDER BY id LIMIT 1")
        sessions = store.capability(api.Conversations).sessions(agent)
        assert sessions
        assert not [s for s in statements if "information_schema" in s], statements


def test_closing_a_read_copy_ends_pglite_without_a_checkpoint_and_removes_the_copy(pglite_demo):
    import signal

    from daycare_gui.stores import registry

    store = registry.open_store(pglite_demo)
    proc, workdir = store.server.proc, store.server.workdir
    store.close()
    assert proc.returncode == -signal.SIGKILL  # (a checkpoint into a folder deleted a moment later: skipped)
    assert not workdir.exists()


def test_a_working_copy_served_for_a_write_is_still_stopped_cleanly(pglite_demo, tmp_path):
    from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
    from daycare_gui.stores.daycare.pg.runtime import ensure_runtime

    work = tmp_path / "work"
    copy_pglite(pglite_demo / "daycare.pglite", work, whole=True)
    server = PgliteServer(work, ensure_runtime(), copy=False)
    proc = server.proc
    server.close()
    assert proc.returncode == 0 and (work / "PG_VERSION").is_file()
