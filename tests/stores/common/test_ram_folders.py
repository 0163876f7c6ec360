"""A small private copy goes to a RAM folder of this user's (stores.common.ram_folders): only a private one
on tmpfs, only when the copy is small beside the cap, the free space and the memory; and a crashed
instance's copy there is found and removed like one in the temporary folder."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from daycare_gui.stores.common import leftovers, private_copies, ram_folders
from tests.crash.helpers import dead_pid

MB = 1 << 20


@pytest.fixture
def runtime_dir(tmp_path, monkeypatch):
    """An XDG runtime folder (0700, ours) that the mount table says is a tmpfs; nothing else is in RAM."""
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    mounts = tmp_path / "mounts"
    mounts.write_text(f"/dev/vda / ext4 rw 0 0\ntmpfs {str(run).replace(' ', chr(92) + '040')} tmpfs rw 0 0\n")
    monkeypatch.setattr(ram_folders, "MOUNTS", str(mounts))
    monkeypatch.delenv(ram_folders.OVERRIDE, raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    return run


def test_the_private_runtime_folder_on_tmpfs_is_where_a_small_copy_goes(runtime_dir):
    assert ram_folders.folders() == [runtime_dir]  # (/dev/shm is not a tmpfs by this mount table)
    assert ram_folders.folder_for(24 * MB) == runtime_dir


def test_a_runtime_folder_others_may_enter_is_not_used(runtime_dir):
    runtime_dir.chmod(0o755)
    assert ram_folders.folders() == []
    assert ram_folders.folder_for(MB) is None


def test_a_link_named_as_the_runtime_folder_is_not_used(runtime_dir, tmp_path, monkeypatch):
    link = tmp_path / "link"
    link.symlink_to(runtime_dir)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(link))
    assert ram_folders.folders() == []


def test_a_runtime_folder_on_disk_is_not_used(runtime_dir, tmp_path, monkeypatch):
    (tmp_path / "mounts").write_text("/dev/vda / ext4 rw 0 0\n")
    assert ram_folders.folders() == []


def test_only_a_copy_well_under_the_cap_the_free_space_and_the_memory_goes_to_ram(runtime_dir, monkeypatch):
    assert ram_folders.folder_for(ram_folders.MAX_BYTES + 1) is None  # the 1M demo's gigabytes stay on disk
    monkeypatch.setattr(ram_folders, "_free", lambda folder: 60 * MB)
    assert ram_folders.folder_for(24 * MB) is None  # would take more than a quarter of the room there
    assert ram_folders.folder_for(10 * MB) == runtime_dir
    monkeypatch.setattr(ram_folders, "_available_memory", lambda: 30 * MB)
    assert ram_folders.folder_for(10 * MB) is None  # nor of the memory the kernel says is available


def test_the_override_names_the_folder_or_turns_ram_copies_off(tmp_path, monkeypatch):
    monkeypatch.setenv(ram_folders.OVERRIDE, "")
    assert ram_folders.folders() == [] and ram_folders.folder_for(1) is None
    monkeypatch.setenv(ram_folders.OVERRIDE, str(tmp_path))
    assert ram_folders.folder_for(1) == tmp_path


def test_a_crashed_instance_s_copy_in_ram_is_swept_and_a_live_one_s_stays(tmp_path, monkeypatch):
    """The next start of anything removes what a killed instance left in the RAM folder, as in the
    temporary folder: left there, 24 MB of the user's data would hold memory until the next reboot."""
    ram, tmp = tmp_path / "ram", tmp_path / "tmp"
    ram.mkdir(mode=0o700)
    tmp.mkdir()
    monkeypatch.setenv(ram_folders.OVERRIDE, str(ram))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    dead = ram / f"{leftovers.PGLITE_READ_PREFIX}{dead_pid()}-t1-abcdefgh"
    (dead / "data").mkdir(parents=True, mode=0o700)
    (dead / "data" / "PG_VERSION").write_text("17\n")
    live = leftovers.private_folder(leftovers.PGLITE_READ_PREFIX, ram)
    try:
        found = {lo.path: lo for lo in leftovers.read_copies()}
        assert set(found) == {dead, live.path}
        assert found[dead].alive is False and found[live.path].alive is True
        assert leftovers.sweep_private_copies() == [dead]
        assert not dead.exists() and live.path.is_dir()
    finally:
        live.remove()
    assert os.listdir(ram) == []


def test_a_private_folder_in_ram_is_this_user_s_alone(tmp_path):
    folder = private_copies.PrivateFolder("daycare-gui-pglite-1-t1-", tmp_path)
    try:
        assert folder.path.parent == tmp_path
        assert folder.path.stat().st_mode & 0o777 == 0o700
        assert (folder.path / private_copies.LOCK_NAME).is_file()
    finally:
        folder.remove()
    assert not Path(folder.path).exists()
