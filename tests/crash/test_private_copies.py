"""Private copies of a user's data in the temporary folder (Daycare's SQLite snapshot, AgentStack's, a PGlite
read copy): made 0700/0600, named for their owner and locked by it; a process killed with SIGKILL leaves them,
and the next start of anything (here ``daycare-gui inspect`` of an unrelated store) removes them, while
the copies of a process still running and anything not ours stay."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time

import pytest

from daycare_gui.stores.common import leftovers, private_copies
from tests.crash import harness
from tests.crash.helpers import dead_pid
from tests.crash.private_stores import agentstack_with_wal, child_env, ours, short_tmp, sqlite_with_wal
from tests.stores.agentstack.builder import Builder

# Opens the three kinds of store that are read from a private copy, says what it reads, then waits.
HOLDER = """
import sys
import time
from pathlib import Path
from daycare_gui.stores.common.sqlite_ro import ReadOnlyDatabase
from daycare_gui.stores import registry
from daycare_gui.stores.agentstack.database import Database

daycare = ReadOnlyDatabase(sys.argv[1], live=False)
agentstack = Database(Path(sys.argv[2]), live=False)
pglite = registry.open_store(sys.argv[3]) if len(sys.argv) > 3 else None
print(daycare.mode.name, agentstack.mode, pglite and pglite.generation, flush=True)
sys.stdin.read()
for store in (daycare, agentstack, pglite):
    if store is not None:
        store.close()
"""


def _hold(env, *stores) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, *map(str, stores)], env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().split()
    assert line[:2] == ["snapshot", "snapshot"], line
    return proc


def _kinds(names: list[str]) -> list[str]:
    return sorted(n.split("-")[2] for n in names)  # daycare-gui-<kind>-<pid>-…


def test_a_killed_instance_s_copies_go_at_the_next_start_of_anything(tmp_path, pglite_store):
    sqlite_db, agentstack_db = sqlite_with_wal(tmp_path / "s"), agentstack_with_wal(tmp_path / "a")
    unrelated = Builder(tmp_path / "unrelated" / "aistack.db")
    unrelated.memory("k", "v")
    unrelated = unrelated.close()
    with short_tmp() as tmp:
        env = child_env(tmp)
        killed = _hold(env, sqlite_db, agentstack_db, pglite_store)
        assert _kinds(ours(tmp)) == ["agentstack", "pglite", "snapshot"]
        for name in ours(tmp):  # a copy of the user's data: this user's only
            assert stat.S_IMODE((tmp / name).stat().st_mode) == 0o700, name
        snapshot = next(tmp.glob("daycare-gui-snapshot-*"))
        assert stat.S_IMODE((snapshot / "daycare.db").stat().st_mode) == 0o600
        assert all(f"-{killed.pid}-" in name for name in ours(tmp))
        killed.kill()
        killed.wait(30)
        harness.wait_gone(str(tmp / f"daycare-gui-pglite-{killed.pid}-"))  # its PGlite helper sees stdin close
        assert _kinds(ours(tmp)) == ["agentstack", "pglite", "snapshot"]  # what SIGKILL leaves

        live = _hold(env, sqlite_db, agentstack_db)
        try:
            kept = ours(tmp)
            assert len(kept) == 5
            out = subprocess.run([sys.executable, "-m", "daycare_gui", "inspect", str(unrelated)], env=env,
                                 capture_output=True, text=True, timeout=120)
            assert out.returncode == 0, out.stderr
            assert ours(tmp) == sorted(n for n in kept if f"-{live.pid}-" in n)  # the running one's stay
        finally:
            live.stdin.close()
            live.wait(30)
        assert ours(tmp) == []  # and go when it closes


@pytest.fixture
def tmp_dir(tmp_path, monkeypatch):
    folder = tmp_path / "systmp"
    folder.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    return folder


def test_a_live_owner_s_lock_keeps_its_copy_whatever_its_name_says(tmp_dir):
    """The lock decides over the pid in the name (another pid namespace sharing /tmp sees other pids)."""
    own = leftovers.private_folder("daycare-gui-agentstack-")
    try:
        start = private_copies.process_start(os.getpid())
        assert own.path.name.startswith(f"daycare-gui-agentstack-{os.getpid()}-t{start}-")
        assert stat.S_IMODE(own.path.stat().st_mode) == 0o700
        elsewhere = tmp_dir / f"daycare-gui-agentstack-{dead_pid()}-t1-xyz"
        os.rename(own.path, elsewhere)
        own.path = elsewhere
        assert leftovers.sweep_private_copies() == []
        assert elsewhere.is_dir()
        [found] = leftovers.snapshot_copies()
        assert found.alive is True and not leftovers.remove(found)
    finally:
        own.remove()
    assert list(tmp_dir.iterdir()) == []


def test_a_free_lock_or_another_start_time_means_the_owner_is_gone_even_if_its_pid_runs(tmp_dir):
    me = os.getpid()
    start = private_copies.process_start(me)
    free_lock = tmp_dir / f"daycare-gui-pglite-{me}-t{start}-aaa"  # a reused pid: the lock tells
    free_lock.mkdir()
    (free_lock / private_copies.LOCK_NAME).write_bytes(b"")
    reused = tmp_dir / f"daycare-gui-snapshot-{me}-t{start + 1}-bbb"  # no lock: the start time tells
    reused.mkdir()
    same = tmp_dir / f"daycare-gui-snapshot-{me}-t{start}-ccc"  # no lock yet, same process: being made
    same.mkdir()
    older = tmp_dir / f"daycare-gui-cianaparrot-{me}-ddd"  # named before start times: the pid alone
    older.mkdir()
    assert sorted(p.name for p in leftovers.sweep_private_copies()) == sorted([reused.name, free_lock.name])
    assert sorted(p.name for p in tmp_dir.iterdir()) == sorted([same.name, older.name])


def test_the_sweep_never_touches_what_is_not_ours(tmp_dir, tmp_path):
    gone = dead_pid()
    target = tmp_path / "precious"
    target.mkdir()
    (target / "data").write_bytes(b"keep")
    link = tmp_dir / f"daycare-gui-snapshot-{gone}-t1-aaa"  # a symbolic link dressed as ours
    link.symlink_to(target, target_is_directory=True)
    trap = tmp_dir / f"daycare-gui-agentstack-{gone}-t1-bbb"  # its lock file a link to someone's file
    trap.mkdir()
    (trap / private_copies.LOCK_NAME).symlink_to(target / "data")
    inner = tmp_dir / f"daycare-gui-pglite-{gone}-t1-ccc"  # ours and abandoned, with a link inside
    inner.mkdir()
    (inner / "link").symlink_to(target, target_is_directory=True)
    for name in (f"daycare-gui-snapshot-{gone}", "daycare-gui-snapshot-nopid", f"someone-else-{gone}-t1-x",
                 f"daycare-gui-unknown-{gone}-t1-x", f"daycare-gui-snapshot-{gone}-t1-a-b"):
        (tmp_dir / name).mkdir()
    (tmp_dir / f"daycare-gui-cianaparrot-{gone}-t1-file").write_bytes(b"a file, not a folder of ours")
    before = sorted(p.name for p in tmp_dir.iterdir())
    assert leftovers.sweep_private_copies() == [inner]
    assert sorted(p.name for p in tmp_dir.iterdir()) == sorted(set(before) - {inner.name})
    assert (target / "data").read_bytes() == b"keep" and list(target.iterdir()) == [target / "data"]


def test_a_folder_without_its_lock_goes_by_its_name_once_its_owner_has_ended(tmp_dir):
    """E.g. one whose owner was cut short while removing it (the lock file went first)."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        start = private_copies.process_start(proc.pid)
        folder = tmp_dir / f"daycare-gui-fts-check-{proc.pid}-t{start}-x"
        folder.mkdir()
        assert leftovers.sweep_private_copies() == []  # its owner runs
    finally:
        proc.stdin.close()
        proc.wait(30)
    assert leftovers.sweep_private_copies() == [folder]


def test_a_killed_window_s_demo_store_goes_at_the_next_start(tmp_path):
    unrelated = Builder(tmp_path / "unrelated" / "aistack.db").close()
    with short_tmp() as tmp:
        env = child_env(tmp)
        window = subprocess.Popen([sys.executable, "-m", "daycare_gui", "--demo"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while not list(tmp.glob("daycare-gui-demo-*/daycare/daycare.db")) and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            window.kill()
            window.wait(30)
        assert [n for n in ours(tmp) if n.startswith(f"daycare-gui-demo-{window.pid}-")] == ours(tmp) != []
        subprocess.run([sys.executable, "-m", "daycare_gui", "inspect", str(unrelated)], env=env,
                       capture_output=True, timeout=120, check=True)
        assert ours(tmp) == []


PGLITE_HOLDER = """
import sys
from daycare_gui.stores import registry
store = registry.open_store(sys.argv[1])
print(store.generation, flush=True)
sys.stdin.read()
"""


def test_a_killed_instance_s_copy_in_ram_goes_at_the_next_start(tmp_path, pglite_store):
    """A small store's copy is made in a RAM folder of the user's (stores.common.ram_folders): a SIGKILL
    leaves it there, holding memory, until the next start of anything removes it."""
    unrelated = Builder(tmp_path / "unrelated" / "aistack.db")
    unrelated.memory("k", "v")
    unrelated = unrelated.close()
    with short_tmp() as tmp:
        ram = tmp / "ram"
        ram.mkdir(mode=0o700)
        env = dict(child_env(tmp), DAYCARE_GUI_RAM_DIR=str(ram))
        killed = subprocess.Popen([sys.executable, "-c", PGLITE_HOLDER, str(pglite_store)], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert killed.stdout.readline().strip() == "pglite"
        [copy] = ours(ram)
        assert f"-{killed.pid}-" in copy and stat.S_IMODE((ram / copy).stat().st_mode) == 0o700
        assert ours(tmp) == []  # (nothing of it in the temporary folder)
        killed.kill()
        killed.wait(30)
        harness.wait_gone(str(ram / f"daycare-gui-pglite-{killed.pid}-"))
        assert ours(ram) == [copy]  # what SIGKILL leaves
        out = subprocess.run([sys.executable, "-m", "daycare_gui", "inspect", str(unrelated)], env=env,
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert ours(ram) == []
