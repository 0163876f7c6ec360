"""A named pipe or a device where a store keeps a file: every command ends, says what it left out, and no
copy grows past the store's size (issue #39's FIFO and /dev/zero items)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from daycare_gui.stores.daycare.pg.folder_copy import copy_pglite
from tests.conftest import FIXTURES
from tests.crash.harness import run_command
from tests.hostile.guard import finishes
from tests.pg_helpers import unpack_pglite_fixture, use_test_pglite

HANG_S = 60  # a hang is what is caught


def _env(tmp_path: Path, private_tmp: Path) -> dict[str, str]:
    env = dict(os.environ, TMPDIR=str(private_tmp), DAYCARE_GUI_SEARCH_DIR=str(tmp_path / "index"))
    use_test_pglite(env)
    return env


def test_linggen_messages_linked_to_a_pipe_inspect_search_export_end(tmp_path, private_tmp):
    from tests.stores.linggen.builder import standard_home

    home = standard_home(tmp_path / "home").root
    messages = home / "projects" / "-work-app" / "sessions" / "sess-1700000000-aaaa0001" / "messages.jsonl"
    messages.unlink()
    os.mkfifo(tmp_path / "pipe")
    messages.symlink_to(tmp_path / "pipe")
    env = _env(tmp_path, private_tmp)

    code, out, err = run_command(["inspect", "--json", str(home)], env, timeout=HANG_S)
    assert code == 0, f"inspect hung or failed: {err[-500:]}"
    said = [p["message"] for p in json.loads(out)["problems"] if p["path"] == str(messages)]
    assert said == ["cannot read file: a named pipe (FIFO), not a regular file; not read"]
    code, out, err = run_command(["search", str(home), "login", "--json"], env, timeout=HANG_S)
    assert code == 0, f"search hung or failed: {err[-500:]}"
    code, out, err = run_command(["export", str(home), "session:sess-1700000000-aaaa0001"], env, timeout=HANG_S)
    assert code == 0 and "Fix login bug" in out, f"export hung or failed: {err[-500:]}"
    # the session's messages could not be read: the export says so rather than look complete
    assert "could not be read" in err and str(messages) in err and "not in the export" in err
    assert os.listdir(private_tmp) == []


@pytest.fixture
def pglite_folder(tmp_path) -> Path:
    return unpack_pglite_fixture(FIXTURES / "daycare-pglite-7c3c466c.tar.gz", tmp_path / "store") / "daycare.pglite"


def _bytes_under(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def test_pglite_copy_takes_regular_files_only_and_stays_in_the_store(pglite_folder, tmp_path):
    store_bytes = _bytes_under(pglite_folder)
    outside = tmp_path / "outside.txt"
    outside.write_text("not the store's")
    os.mkfifo(tmp_path / "pipe")
    os.mkfifo(pglite_folder / "base" / "a-pipe")
    (pglite_folder / "pg_logical" / "to-a-pipe").symlink_to(tmp_path / "pipe")
    (pglite_folder / "pg_stat" / "zero").symlink_to("/dev/zero")
    (pglite_folder / "out").symlink_to(outside)
    (pglite_folder / "loop").symlink_to("loop")
    (pglite_folder / "folder-link").symlink_to(pglite_folder / "global")
    (pglite_folder / "version-link").symlink_to("PG_VERSION")
    dest = tmp_path / "copy"

    def runaway(done_mb: int, _total, _message) -> None:  # a copy past the store's size fails, not fills the disk
        assert done_mb <= 2 * store_bytes / (1 << 20) + 1, "the copy grew past twice the store's size"

    finishes(lambda: copy_pglite(pglite_folder, dest, runaway), fifos=[tmp_path / "pipe", pglite_folder / "base" / "a-pipe"],
             what="the PGlite copy")
    assert (dest / "version-link").read_bytes() == (pglite_folder / "PG_VERSION").read_bytes()  # inside: copied
    assert not (dest / "version-link").is_symlink()
    for left_out in ("base/a-pipe", "pg_logical/to-a-pipe", "pg_stat/zero", "out", "loop", "folder-link"):
        assert not os.path.lexists(dest / left_out), left_out
    skipped: list = []
    copy_pglite(pglite_folder, tmp_path / "again", skipped=skipped)
    reasons = dict(skipped)
    assert reasons["base/a-pipe"] == "a named pipe (FIFO), not a regular file; not copied"
    assert reasons["pg_logical/to-a-pipe"].startswith("a link out of the store")
    assert reasons["pg_stat/zero"].startswith("a link out of the store (to /dev/zero)")
    assert reasons["out"].startswith("a link out of the store")
    assert reasons["loop"].startswith("a link that leads nowhere")
    assert reasons["folder-link"] == "a link to a folder, not a regular file; not copied"
    assert _bytes_under(dest) <= store_bytes + len(b"17\n")


def test_pglite_store_with_a_piped_pg_xact_says_so_and_ends(pglite_folder, tmp_path, private_tmp):
    shutil.rmtree(pglite_folder / "pg_xact")
    os.mkfifo(tmp_path / "pipe")
    (pglite_folder / "pg_xact").symlink_to(tmp_path / "pipe")
    code, out, err = run_command(["inspect", "--json", str(pglite_folder.parent)], _env(tmp_path, private_tmp), timeout=HANG_S * 2)
    assert code is not None, f"inspect hung: {err[-500:]}"
    assert "Traceback" not in err
    # said before anything is copied (the folder PostgreSQL keeps its commit log in is a pipe), or, if the
    # check before PGlite starts ever lets it through, by the copy that leaves the pipe out
    assert "pg_xact" in out + err and ("commit log" in out + err or "not copied" in out + err)
    assert os.listdir(private_tmp) == []


def test_pglite_store_with_a_device_is_not_copied_to_a_full_disk(pglite_folder, tmp_path, private_tmp):
    (pglite_folder / "pg_stat" / "zero").symlink_to("/dev/zero")
    code, out, err = run_command(["inspect", "--json", str(pglite_folder.parent)], _env(tmp_path, private_tmp), timeout=HANG_S * 2)
    assert code == 0, f"inspect hung or failed ({code}): {err[-500:]}"
    problems = {p["path"]: p["message"] for p in json.loads(out)["problems"]}
    assert problems[str(pglite_folder / "pg_stat" / "zero")].startswith("a link out of the store (to /dev/zero)")
    assert os.listdir(private_tmp) == []


def test_agentstack_snapshot_does_not_copy_a_device_beside_the_database(tmp_path, private_tmp):
    """The write-ahead log holds data, so inspect reads a snapshot; the journal beside it is /dev/zero."""
    from tests.stores.agentstack.builder import Builder

    b = Builder(tmp_path / "proj" / "data" / "aistack.db")
    b.memory("k", "a memory")
    live = tmp_path / "live"
    live.mkdir()
    b.conn.execute("PRAGMA wal_autocheckpoint=0")
    b.memory("k2", "only in the write-ahead log")
    for suffix in ("", "-wal"):  # the files as the writer has them (its connection still open)
        shutil.copyfile(str(b.path) + suffix, str(live / "aistack.db") + suffix)
    b.conn.close()
    (live / "aistack.db-journal").symlink_to("/dev/zero")
    code, out, err = run_command(["inspect", "--json", str(live / "aistack.db")], _env(tmp_path, private_tmp), timeout=HANG_S)
    assert code is not None and "Traceback" not in err, err[-2000:]
    assert "character device" in out + err, (out + err)[-1000:]
    assert os.listdir(private_tmp) == []
    sqlite3.connect(f"file:{live / 'aistack.db'}?mode=ro&immutable=1", uri=True).close()


def test_cianaparrot_checkpoints_database_as_a_pipe_is_said_not_waited_on(tmp_path, private_tmp):
    """SQLite opens its file blocking: a named pipe in checkpoints.db's place hung inspect."""
    from tests.stores.cianaparrot.builder import make_deployment

    root = make_deployment(tmp_path / "ciana")
    db = root / "data" / "checkpoints.db"
    db.unlink()
    os.mkfifo(db)
    code, out, err = run_command(["inspect", "--json", str(root)], _env(tmp_path, private_tmp), timeout=HANG_S)
    assert code == 0, f"inspect hung or failed ({code}): {err[-500:]}"
    problems = {p["path"]: p["message"] for p in json.loads(out)["problems"]}
    assert problems[str(db)] == ("cannot read the checkpoints database (a named pipe (FIFO), not a regular file; "
                                 "not read)")


def test_pglite_table_file_left_out_of_the_copy_is_a_message_not_a_traceback(pglite_folder, tmp_path, private_tmp):
    """The copy leaves out a catalog file that is a link to a named pipe; PGlite starts, and reading then
    fails: search and export say so in one line (they printed a traceback)."""
    os.mkfifo(tmp_path / "pipe")
    for name in ("2658", "16617"):  # a catalog index, and the table of the messages search reads
        (pglite_folder / "base" / "1" / name).unlink()
        (pglite_folder / "base" / "1" / name).symlink_to(tmp_path / "pipe")
    env = _env(tmp_path, private_tmp)
    for args in (["export", str(pglite_folder.parent), "session:s1"], ["search", str(pglite_folder.parent), "the"]):
        code, out, err = run_command(args, env, timeout=HANG_S * 2)
        assert "Traceback" not in err, err[-2000:]
        assert code == 1 and "cannot read this store" in err and "could not open file" in err, (code, err[-500:])
    assert os.listdir(private_tmp) == []


def test_a_database_that_is_a_pipe_is_called_a_pipe_not_missing(tmp_path, private_tmp):
    """Opened by its own path, an aistack.db or checkpoints.db that is a named pipe is said to be one: "does
    not exist" sent the user looking for a file that is there."""
    (tmp_path / "data").mkdir()
    for name in ("aistack.db", "checkpoints.db"):
        db = tmp_path / "data" / name
        os.mkfifo(db)
        code, out, err = run_command(["inspect", str(db)], _env(tmp_path, private_tmp), timeout=HANG_S)
        assert code == 2 and "Traceback" not in err
        assert "named pipe (FIFO)" in err and "does not exist" not in err and "no such file" not in err
        db.unlink()
