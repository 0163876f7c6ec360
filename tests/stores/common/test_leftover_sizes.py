"""Looking for a killed instance's private copies at an open (and before a repeated command's kept answer)
does not walk the copies of instances still running: their size was summed file by file (a PGlite copy is
~1,100 files: 10-25 ms) and then dropped, at every PGlite open, the window's own head start's copy included."""

from __future__ import annotations

import tempfile

from daycare_gui.stores.common import leftovers, ram_folders
from tests.crash.helpers import dead_pid


def test_only_the_copies_of_gone_owners_are_measured(tmp_path, monkeypatch):
    ram = tmp_path / "ram"
    ram.mkdir(mode=0o700)
    monkeypatch.setenv(ram_folders.OVERRIDE, str(ram))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = ram / f"{leftovers.PGLITE_READ_PREFIX}{dead_pid()}-t1-abcdefgh"
    dead.mkdir(mode=0o700)
    (dead / "PG_VERSION").write_text("17\n")
    live = leftovers.private_folder(leftovers.PGLITE_READ_PREFIX, ram)
    measured = []
    real = leftovers.size_on_disk
    monkeypatch.setattr(leftovers, "size_on_disk", lambda path: measured.append(path) or real(path))
    try:
        [gone] = leftovers.read_copies(gone_only=True)
        assert gone.path == dead and gone.alive is False and gone.size == 3
        assert measured == [dead]  # the live copy is not walked
        assert {c.path for c in leftovers.read_copies()} == {dead, live.path}  # (all, when asked for all)
    finally:
        live.remove()
