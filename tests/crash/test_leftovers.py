"""Leftovers of interrupted writes are reported, and removed by the next run only when their writer is gone."""

from __future__ import annotations

import os
import sqlite3

from daycare_gui.stores.common import leftovers
from daycare_gui.stores.common.edit.atomic import load_for_edit, save_atomic
from daycare_gui.stores.daycare.sqlite.migrations.catalog import MIGRATIONS
from daycare_gui.stores.daycare.sqlite.migrations.upgrade import run_upgrade
from daycare_gui.stores.daycare.sqlite.store import open_store
from tests.conftest import snapshot_tree
from tests.core.migrations.helpers import migrate
from tests.crash.helpers import dead_pid

DEAD, LIVE = dead_pid(), os.getpid()


def plant(folder, names, payload=b"half-written"):
    for name in names:
        path = folder / name
        if name.endswith(".pglite") or name.startswith("daycare-gui-pglite-"):
            path.mkdir()
            (path / "PG_VERSION").write_bytes(b"17\n")
        else:
            path.write_bytes(payload)


def upgrade_names(pid, db="daycare.db"):
    base = f".{db}.upgrade-{pid}-1700000000000"
    return [base, base + "-wal", base + "-shm"]


def test_every_kind_of_leftover_is_found_with_size_pid_and_liveness(tmp_path):
    (tmp_path / "notes.md").write_text("x")
    plant(tmp_path, upgrade_names(DEAD) + [f".notes.md.{LIVE}-ab12cd34.tmp", ".notes.md.zz9yy8xx.tmp",
                                           f".daycare-gui-edit-{DEAD}-1700000000000.pglite"])
    for ms in range(1, 6):
        plant(tmp_path, [f".daycare-gui-backup-{ms}000-daycare.pglite"])
    (tmp_path / ".unrelated.tmp").write_text("not ours")
    found = {lo.path.name: lo for lo in leftovers.in_folder(tmp_path)}
    assert set(found) == set(upgrade_names(DEAD)) | {
        f".notes.md.{LIVE}-ab12cd34.tmp", ".notes.md.zz9yy8xx.tmp", f".daycare-gui-edit-{DEAD}-1700000000000.pglite",
        ".daycare-gui-backup-1000-daycare.pglite", ".daycare-gui-backup-2000-daycare.pglite"}  # 3 newest kept
    up = found[upgrade_names(DEAD)[0]]
    assert (up.what, up.size, up.pid, up.alive, up.removable) == (leftovers.UPGRADE, 12, DEAD, False, True)
    live = found[f".notes.md.{LIVE}-ab12cd34.tmp"]
    assert live.alive is True and not live.removable and "still running" in live.message()
    assert found[".notes.md.zz9yy8xx.tmp"].pid is None and not found[".notes.md.zz9yy8xx.tmp"].removable
    assert "gone" in up.message() and "12 bytes" in up.message()


def test_upgrade_removes_dead_working_copies_and_keeps_live_ones(tmp_path):
    (tmp_path / "s").mkdir()
    migrate(tmp_path / "s", migrations=MIGRATIONS[:5]).close()
    folder = tmp_path / "s"
    plant(folder, upgrade_names(DEAD) + upgrade_names(LIVE))
    problems = [p for p in open_store(folder).problems if "leftover" in p.message]
    assert sorted(os.path.basename(p.path) for p in problems) == sorted(upgrade_names(DEAD) + upgrade_names(LIVE))
    result = run_upgrade(folder / "daycare.db", backup=False)
    assert result.ok
    names = {p.name for p in folder.iterdir()}
    assert not names & set(upgrade_names(DEAD))
    assert set(upgrade_names(LIVE)) <= names
    assert all((folder / n).read_bytes() == b"half-written" for n in upgrade_names(LIVE))
    assert sqlite3.connect(folder / "daycare.db").execute("SELECT count(*) FROM _migrations").fetchone()[0] == len(
        MIGRATIONS)


def test_upgrade_of_an_up_to_date_store_still_cleans(tmp_path):
    (tmp_path / "s").mkdir()
    migrate(tmp_path / "s").close()
    folder = tmp_path / "s"
    before = snapshot_tree(folder)
    plant(folder, upgrade_names(DEAD))
    assert run_upgrade(folder / "daycare.db", backup=False).applied == []
    assert snapshot_tree(folder) == before


def test_a_save_removes_dead_temp_files_in_its_folder_and_touches_nothing_else(tmp_path):
    (tmp_path / "a.md").write_text("old")
    (tmp_path / "b.json").write_text("{}")
    (tmp_path / "sub").mkdir()
    dead_elsewhere = f".x.{DEAD}-aaaaaaaa.tmp"
    plant(tmp_path / "sub", [dead_elsewhere])
    plant(tmp_path, [f".b.json.{DEAD}-qwertyui.tmp", f".a.md.{LIVE}-asdfghjk.tmp", ".a.md.oldstyle.tmp"])
    before = snapshot_tree(tmp_path)
    save_atomic(tmp_path / "a.md", b"new", expected_sha256=load_for_edit(tmp_path / "a.md").sha256)
    after = snapshot_tree(tmp_path)
    expected = dict(before)
    expected["a.md"] = b"new"
    del expected[f".b.json.{DEAD}-qwertyui.tmp"]
    assert after == expected  # live and pid-less temp files, other folders: untouched


def test_pglite_read_copies_of_dead_instances_are_removed_on_open_and_live_ones_left_unmentioned(tmp_path, monkeypatch):
    from daycare_gui.stores.daycare.pg import open as pg_open
    from daycare_gui.stores.problems import ProblemLog

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp))
    plant(tmp, [f"daycare-gui-pglite-{DEAD}-abc", f"daycare-gui-pglite-{LIVE}-def", "someone-else"])
    store = tmp_path / "store"
    store.mkdir()
    plant(store, [f".daycare-gui-edit-{DEAD}-1.pglite"])
    problems = ProblemLog()
    pg_open._report_leftovers(problems, store, read_copies=True)
    messages = {os.path.basename(p.path): p.message for p in problems}
    assert messages[f"daycare-gui-pglite-{DEAD}-abc"].endswith("removed")
    # a copy whose instance still runs is in use (another window's, of any store): kept, and not called
    # a leftover of this store
    assert f"daycare-gui-pglite-{LIVE}-def" not in messages
    assert "next PGlite edit" in messages[f".daycare-gui-edit-{DEAD}-1.pglite"]
    assert sorted(p.name for p in tmp.iterdir()) == [f"daycare-gui-pglite-{LIVE}-def", "someone-else"]
    assert (store / f".daycare-gui-edit-{DEAD}-1.pglite").exists()  # only an edit removes working copies


def test_inspect_json_lists_leftovers(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "s").mkdir()
    migrate(tmp_path / "s").close()
    plant(tmp_path / "s", upgrade_names(DEAD)[:1])
    out = subprocess.run([sys.executable, "-m", "daycare_gui", "inspect", "--json", str(tmp_path / "s")],
                         capture_output=True, text=True, env=dict(os.environ), timeout=120)
    data = json.loads(out.stdout)
    [problem] = [p for p in data["problems"] if "leftover" in p["message"]]
    assert problem["path"].endswith(upgrade_names(DEAD)[0])
    assert f"process {DEAD}, which is gone" in problem["message"]
