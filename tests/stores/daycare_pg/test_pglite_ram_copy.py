"""A small PGlite store's private copy is made in a RAM folder of this user's (stores.common.ram_folders)
and keeps every promise of a copy in the temporary folder: 0700 folder, files no more open than the
store's, served by PGlite, removed on close, on a cancel and on a failure; a large store's copy stays on
disk. (The RAM folder here is a test's own, named by DAYCARE_GUI_RAM_DIR.)"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

import psycopg
import pytest

from daycare_gui.stores.common import ram_folders
from daycare_gui.stores.common.opening import OpenCancelled
from daycare_gui.stores.daycare.pg import pglite_copy
from daycare_gui.stores.daycare.pg.pglite_copy import PgliteServer
from daycare_gui.stores.daycare.pg.runtime import ensure_runtime


@pytest.fixture
def ram(monkeypatch):
    """A RAM folder for the test (short: the sidecar's socket goes inside the copy's folder)."""
    folder = Path(tempfile.mkdtemp(prefix="dg-ram-", dir="/tmp"))
    monkeypatch.setenv(ram_folders.OVERRIDE, str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_a_small_store_is_served_from_a_private_copy_in_ram_removed_on_close(pglite_store, ram):
    store = pglite_store / "daycare.pglite"
    server = PgliteServer(store, ensure_runtime())
    try:
        assert server.workdir.parent == ram
        assert stat.S_IMODE(server.workdir.stat().st_mode) == 0o700
        assert server.socket_dir.parent == server.workdir  # the socket too: nobody else's to reach
        for path in server.data.rglob("*"):
            if path.is_file() and (store / path.relative_to(server.data)).is_file():
                was = stat.S_IMODE((store / path.relative_to(server.data)).stat().st_mode)
                assert not stat.S_IMODE(path.stat().st_mode) & ~was & 0o077, path  # no more open than the store's
        url = server.url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(url, autocommit=True) as conn:
            assert conn.execute("SELECT count(*) FROM agents").fetchone()[0] > 0
    finally:
        server.close()
    assert os.listdir(ram) == []


def test_a_cancelled_copy_in_ram_is_removed(pglite_store, ram, monkeypatch):
    made: list[Path] = []
    real = pglite_copy.copy_pglite

    def copy(src, dest, progress=None, cancelled=lambda: False, skipped=None, **kw):
        made.append(dest)
        return real(src, dest, progress, lambda: True, skipped, **kw)

    monkeypatch.setattr(pglite_copy, "copy_pglite", copy)
    with pytest.raises(OpenCancelled):
        PgliteServer(pglite_store / "daycare.pglite", ensure_runtime())
    assert made and made[0].parent.parent == ram
    assert os.listdir(ram) == []


def test_a_failed_copy_in_ram_is_removed_and_its_sidecar_stopped(pglite_store, ram, monkeypatch):
    made: list[Path] = []
    real = pglite_copy.copy_pglite

    def copy(src, dest, *args, **kw):
        made.append(dest)
        real(src, dest, *args, **kw)
        raise OSError(28, "No space left on device")

    spawned = []
    real_spawn = PgliteServer._spawn

    def spawn(self, *args, **kw):
        real_spawn(self, *args, **kw)
        spawned.append(self.proc)

    monkeypatch.setattr(pglite_copy, "copy_pglite", copy)
    monkeypatch.setattr(PgliteServer, "_spawn", spawn)
    with pytest.raises(OSError, match="No space left"):
        PgliteServer(pglite_store / "daycare.pglite", ensure_runtime())
    assert made and made[0].parent.parent == ram
    assert os.listdir(ram) == []
    assert spawned and spawned[0].poll() is not None


def test_a_store_over_the_cap_is_copied_to_the_temporary_folder(pglite_store, ram, monkeypatch):
    monkeypatch.setattr(ram_folders, "MAX_BYTES", 1 << 20)  # the demo's 24 MB: as the 1M demo's gigabytes
    tmp = Path(tempfile.mkdtemp(prefix="dg-tmp-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    try:
        server = PgliteServer(pglite_store / "daycare.pglite", ensure_runtime())
        try:
            assert server.workdir.parent == tmp
            assert os.listdir(ram) == []
        finally:
            server.close()
        assert os.listdir(tmp) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
