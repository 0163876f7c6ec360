"""Edits to today's Daycare, as Daycare makes them: the current version closed, the next one inserted,
in one short transaction; refused while the engine runs (unless insisted), conflicts detected; on PGlite a
working copy is edited and swapped in, and a failure leaves the folder byte-identical."""

from __future__ import annotations

import hashlib
import os

import psycopg
import pytest

from daycare_gui.stores import api, registry
from tests.conftest import snapshot_tree


def _versions(url: str, table: str, key: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(f"SELECT version, valid_to IS NULL FROM {table} WHERE id = %s ORDER BY version",
                            (key,)).fetchall()


def test_server_cron_edit_adds_a_version(pg_fresh_url):
    with registry.open_store(pg_fresh_url) as store:
        assert store.summary().generation == "postgres"
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-digest")
        fields = {f.name for f in tasks.editable(task)}
        assert {"schedule", "timezone", "enabled", "title", "body"} <= fields
        updated = tasks.update(task, {"schedule": "15 8 * * 1-5", "timezone": "Europe/Berlin"})
        assert (updated.schedule, updated.timezone) == ("15 8 * * 1-5", "Europe/Berlin")
    assert _versions(pg_fresh_url, "tasks_cron", "cron-digest") == [(1, False), (2, True)]
    with psycopg.connect(pg_fresh_url) as conn:  # the closed version is untouched apart from valid_to
        old = conn.execute("SELECT schedule, timezone FROM tasks_cron WHERE id='cron-digest' AND version=1").fetchone()
    assert old == ("0 7 * * *", "Europe/Lisbon")


def test_server_edit_refuses_a_stale_version(pg_fresh_url):
    with registry.open_store(pg_fresh_url) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-backup")
        tasks.update(task, {"enabled": False})  # someone else's edit, after ours was read
        with pytest.raises(api.WriteConflict):
            tasks.update(task, {"schedule": "0 3 * * *"})
    assert _versions(pg_fresh_url, "tasks_cron", "cron-backup") == [(1, False), (2, True)]


def test_server_invalid_schedule_writes_nothing(pg_fresh_url):
    with registry.open_store(pg_fresh_url) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-digest")
        with pytest.raises(api.WriteRefused, match="not valid"):
            tasks.update(task, {"schedule": "every morning"})
    assert _versions(pg_fresh_url, "tasks_cron", "cron-digest") == [(1, True)]


def test_server_document_edit_and_conflict(pg_fresh_url):
    with registry.open_store(pg_fresh_url) as store:
        docs = store.capability(api.Documents)
        ref = next(d for d in docs.documents() if d.title == "Lisbon trip")
        body = docs.read(ref)
        docs.save(ref, body + b"\nFlight: TP 1234\n", hashlib.sha256(body).hexdigest())
        assert b"TP 1234" in docs.read(ref)
        with pytest.raises(api.WriteConflict):  # the hash of what we first read is stale now
            docs.save(ref, body + b"\nother\n", hashlib.sha256(body).hexdigest())
    assert _versions(pg_fresh_url, "documents", "doc-trip") == [(1, False), (2, True)]


def test_server_password_never_shown(pg_server, capsys):
    from daycare_gui.cli import main

    url = pg_server.url(password="wrong-Secret-99")
    assert main(["inspect", url]) == 2
    captured = capsys.readouterr()
    assert "wrong-Secret-99" not in captured.out + captured.err
    assert "cannot connect" in captured.err and "••••••••" in captured.err


def test_server_password_from_pgpassword(pg_server, pg_demo_url, monkeypatch, capsys):
    from daycare_gui.cli import main
    from tests.pg_helpers import PASSWORD

    monkeypatch.setenv("PGPASSWORD", PASSWORD)
    url = pg_server.url("daycare_demo", password=None)
    assert main(["inspect", url, "--json"]) == 0
    out = capsys.readouterr().out
    assert '"generation": "postgres"' in out and PASSWORD not in out


def test_pglite_edit_swaps_in_a_verified_copy(pglite_demo):
    folder = pglite_demo / "daycare.pglite"
    with registry.open_store(pglite_demo) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-plants")
        tasks.update(task, {"enabled": True})
        # the store now serves a fresh copy of the edited folder
        assert next(t for t in tasks.tasks() if t.id == "cron-plants").enabled
    backups = list(pglite_demo.glob(".daycare-gui-backup-*"))
    assert len(backups) == 1 and (backups[0] / "PG_VERSION").is_file()
    assert not list(pglite_demo.glob(".daycare-gui-edit-*"))  # no working copy left behind
    with registry.open_store(folder) as store:  # reopened from disk: the edit is there
        assert next(t for t in store.capability(api.Tasks).tasks() if t.id == "cron-plants").enabled


def test_pglite_failed_edit_leaves_the_folder_as_it_was(pglite_demo):
    before = snapshot_tree(pglite_demo)
    with registry.open_store(pglite_demo) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-digest")
        stale = type(task)(**{**task.__dict__, "raw": {**task.raw, "version": 99}})
        with pytest.raises(api.WriteConflict):
            tasks.update(stale, {"enabled": False})
    assert snapshot_tree(pglite_demo) == before


def test_pglite_edit_refused_while_the_engine_runs(pglite_demo):
    (pglite_demo / "engine.pid").write_text(str(os.getpid()))
    before = snapshot_tree(pglite_demo)
    with registry.open_store(pglite_demo) as store:
        assert store.summary().engine_running
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-digest")
        with pytest.raises(api.WriteRefused, match="engine is running .*; it may overwrite"):
            tasks.update(task, {"enabled": False})
    assert snapshot_tree(pglite_demo) == before


def _modes(root) -> dict[str, int]:
    return {str(p.relative_to(root)): p.lstat().st_mode & 0o7777 for p in [root, *sorted(root.rglob("*"))]}


def _make_private(folder) -> None:
    """The modes of a store kept from others: folders 0750, files 0640, PG_VERSION 0600."""
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o750 if path.is_dir() else 0o640)
    (folder / "PG_VERSION").chmod(0o600)


def test_pglite_copy_keeps_modes_and_owners(pglite_demo, tmp_path):
    from daycare_gui.stores.daycare.pg.folder_copy import _recycled_wal, copy_pglite

    folder = pglite_demo / "daycare.pglite"
    _make_private(folder)
    (folder / "pg_tblspc").chmod(0o700)  # an empty folder
    if os.geteuid() == 0:  # only root can give a file to someone else (a GUI run with sudo)
        os.chown(folder / "PG_VERSION", 4242, 4343)
    copy = tmp_path / "copy"
    copy_pglite(folder, copy)
    # (the WAL segments PostgreSQL recycled are left out: see test_pglite_open_cost)
    recycled = {f"pg_wal/{p.name}" for p in (folder / "pg_wal").iterdir() if _recycled_wal(p, p.relative_to(folder))}
    expected = {k: v for k, v in _modes(folder).items() if k != "postmaster.pid" and k not in recycled}
    assert _modes(copy) == expected
    if os.geteuid() == 0:
        st = (copy / "PG_VERSION").stat()
        assert (st.st_uid, st.st_gid) == (4242, 4343)


def test_pglite_edit_keeps_the_store_private(pglite_demo):
    folder = pglite_demo / "daycare.pglite"
    _make_private(folder)
    before = _modes(folder)
    with registry.open_store(pglite_demo) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-plants")
        tasks.update(task, {"enabled": True})
    after = _modes(folder)
    assert {k: after[k] for k in before if k in after} == {k: before[k] for k in before if k in after}
    assert all(mode & 0o027 == 0 for mode in after.values())  # nothing for others, nothing group-writable
    (backup,) = pglite_demo.glob(".daycare-gui-backup-*")
    assert _modes(backup) == before  # the old store, as it was


def _edit_with_something_before_the_swap(pglite_demo, monkeypatch, meanwhile):
    """Enable cron-plants; ``meanwhile()`` runs after the edited copy was verified, right before the swap."""
    import daycare_gui.stores.daycare.pg.writes as writes

    real_verify = writes._verify

    def verify_then(folder, runtime):
        real_verify(folder, runtime)
        meanwhile()

    monkeypatch.setattr(writes, "_verify", verify_then)
    with registry.open_store(pglite_demo) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-plants")
        assert not task.enabled
        tasks.update(task, {"enabled": True})


def _plants_enabled(store_dir) -> bool:
    with registry.open_store(store_dir) as store:
        return next(t for t in store.capability(api.Tasks).tasks() if t.id == "cron-plants").enabled


@pytest.mark.parametrize("change", ["new file", "file rewritten"])
def test_pglite_edit_stops_when_the_folder_changes_meanwhile(pglite_demo, monkeypatch, change):
    folder = pglite_demo / "daycare.pglite"
    seen = {}

    def another_writer():
        if change == "new file":
            (folder / "written-meanwhile").write_bytes(b"engine data")
        else:  # same size, different bytes
            conf = folder / "postgresql.auto.conf"
            conf.write_bytes(conf.read_bytes().upper())
        seen["tree"] = snapshot_tree(folder)

    with pytest.raises(api.WriteConflict, match="changed by another program.*nothing was written") as refused:
        _edit_with_something_before_the_swap(pglite_demo, monkeypatch, another_writer)
    assert ("written-meanwhile" if change == "new file" else "postgresql.auto.conf") in str(refused.value)
    assert snapshot_tree(folder) == seen["tree"]  # the other writer's change kept
    # no backup, no working copy (the demo's data directory files are beside the folder)
    assert not [p.name for p in pglite_demo.iterdir() if p.name.startswith(".daycare-gui-")]
    assert not _plants_enabled(pglite_demo)


def test_pglite_edit_stops_when_the_engine_starts_meanwhile(pglite_demo, monkeypatch):
    before = snapshot_tree(pglite_demo)

    def engine_starts():
        (pglite_demo / "engine.pid").write_text(str(os.getpid()))  # a live process

    with pytest.raises(api.WriteRefused, match="engine is running.*started while the edit"):
        _edit_with_something_before_the_swap(pglite_demo, monkeypatch, engine_starts)
    assert snapshot_tree(pglite_demo) == {**before, "engine.pid": str(os.getpid()).encode()}
    (pglite_demo / "engine.pid").unlink()
    assert not _plants_enabled(pglite_demo)


def test_fingerprint_sees_a_rewrite_within_one_clock_tick(tmp_path):
    import time

    from daycare_gui.stores.daycare.pg.writes import RACY_NS, fingerprint

    page = tmp_path / "base" / "1" / "16384"
    page.parent.mkdir(parents=True)
    page.write_bytes(b"a" * 8192)
    racy_since = time.time_ns() - RACY_NS
    before = fingerprint(tmp_path, racy_since)
    assert fingerprint(tmp_path, racy_since) == before
    st = page.stat()
    page.write_bytes(b"b" * 8192)  # same size; the clock did not move on (mtime put back)
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert fingerprint(tmp_path, racy_since) != before


def test_pglite_edit_of_a_store_written_a_moment_ago(pglite_demo):
    """Files written just before the edit are hashed in the fingerprint; seconds later, at the swap, the
    same files must still count as unchanged."""
    folder = pglite_demo / "daycare.pglite"
    for path in folder.rglob("*"):
        os.utime(path)  # as if Daycare had just written them
    with registry.open_store(pglite_demo) as store:
        tasks = store.capability(api.Tasks)
        task = next(t for t in tasks.tasks() if t.id == "cron-plants")
        tasks.update(task, {"enabled": True})
    assert _plants_enabled(pglite_demo)
