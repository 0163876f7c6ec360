"""A damaged PGlite folder is named in one sentence (issue #39): which file, what it should be, and that
Daycare would not start on it either — not PGlite's trap text ("unreachable", "Aborted(). Build with
-sASSERTIONS…"). The command exits 2 and leaves no copy behind."""

from __future__ import annotations

import os
import random
import shutil
import tempfile

import pytest

from daycare_gui.cli import main


def _changed_version(folder):
    (folder / "PG_VERSION").write_text("16\n")
    return "PG_VERSION", '"17"'


def _random_control(folder):
    control = folder / "global" / "pg_control"
    control.write_bytes(random.Random(39).randbytes(control.stat().st_size))
    return "global/pg_control", "checksum"


def _garbage_map(folder):
    mapfile = folder / "global" / "pg_filenode.map"
    mapfile.write_bytes(random.Random(39).randbytes(mapfile.stat().st_size))
    return "global/pg_filenode.map", "relation map"


def _xact_loop(folder):
    shutil.rmtree(folder / "pg_xact")
    (folder / "pg_xact").symlink_to("pg_xact")
    return "pg_xact", "loops back on itself"


@pytest.fixture
def private_tmp(monkeypatch):
    """Copies go to a temporary folder of this test's own, so the test can see none is left."""
    tmp = tempfile.mkdtemp(prefix="dg-damage-")
    monkeypatch.setattr(tempfile, "tempdir", tmp)
    yield tmp
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.mark.parametrize("damage", [_changed_version, _random_control, _garbage_map, _xact_loop],
                         ids=["PG_VERSION", "pg_control", "pg_filenode.map", "pg_xact-loop"])
def test_inspect_names_the_damaged_file_in_one_sentence(pglite_fixture, capsys, private_tmp, damage):
    folder = pglite_fixture / "daycare.pglite"
    name, says = damage(folder)
    assert main(["inspect", str(pglite_fixture)]) == 2
    err = capsys.readouterr().err
    message = err.strip().splitlines()[-1]
    assert message.startswith(f"daycare-gui: {folder / name} ")
    assert says in message and message.endswith("Daycare would not start on this folder either")
    assert "unreachable" not in err and "Aborted" not in err and "Traceback" not in err
    assert not os.listdir(private_tmp)  # no copy left behind


def test_a_trap_the_checks_miss_is_said_in_words_too(pglite_fixture, capsys, private_tmp, monkeypatch):
    """The fallback: PGlite's trap on a damage no check caught becomes a sentence, the copy removed."""
    from daycare_gui.stores.daycare.pg import pglite_check

    monkeypatch.setattr(pglite_check, "check_pglite_folder", lambda folder: None)
    _changed_version(pglite_fixture / "daycare.pglite")
    assert main(["inspect", str(pglite_fixture)]) == 2
    err = capsys.readouterr().err
    assert "unreachable" not in err and "Aborted" not in err
    assert "the folder is damaged and Daycare would not start on it either" in err.strip().splitlines()[-1]
    assert not os.listdir(private_tmp)
