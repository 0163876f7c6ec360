"""What a PGlite open costs beyond PGlite itself (#35): the copy made by the kernel, the sidecar's memory
arenas capped, and an agent's session list answered without a pass over the history when the last open
of the same, unchanged store already read every session's record ids."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

import pytest

from daycare_gui.stores.daycare.pg import pglite_copy
from daycare_gui.stores.daycare.pg.pglite_copy import copy_pglite


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
    monkeypatch.setattr(pglite_copy, "copy_stream", lambda *a, **k: read.append(a) or 0)
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
    monkeypatch.setattr(pglite_copy, "growth_limit", lambda size: 4)  # as if it had grown past its bound
    with pytest.raises(pglite_copy.FileGrew):
        copy_pglite(src, tmp_path / "copy")


def test_the_sidecar_runs_with_its_malloc_arenas_capped(pglite_demo):
    from daycare_gui.stores import registry

    with registry.open_store(pglite_demo) as store:
        environ = Path(f"/proc/{store.server.proc.pid}/environ").read_bytes().split(b"\0")
    assert b"MALLOC_ARENA_MAX=1" in environ
