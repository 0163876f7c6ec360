"""Issue #34: what the commands print is for people — no "?" for a time not known, no class names, no
commit hashes, and no path that is not there (a PGlite store has no daycare.db; a SQLite one no
daycare.pglite)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from daycare_gui.cli import main


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DAYCARE_GUI_SEARCH_DIR", str(tmp_path / "index"))


def test_cianaparrot_hits_say_time_unknown_and_name_kinds_in_words(tmp_path, capsys):
    from daycare_gui.stores.demos import write_kind_demo

    write_kind_demo("cianaparrot", tmp_path / "cp", 1_760_000_000_000)
    assert main(["search", str(tmp_path / "cp"), "weather"]) == 0
    out = capsys.readouterr().out
    hits = [line for line in out.splitlines() if line.startswith("    #")]
    assert hits and not [h for h in hits if " ? " in h], hits
    assert "time unknown" in out
    assert "HumanMessage" not in out and "AIMessage" not in out and "(human message)" in out


def test_upgrade_of_a_pglite_store_names_no_database_file_that_is_not_there(pglite_store, capsys):
    assert main(["upgrade", str(pglite_store)]) == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    named = re.findall(r"^Database: (.+?)(?: \(PGlite\))?$", said, re.M)
    assert named and all(Path(p).exists() for p in named), named
    assert "7c62680a" not in said  # a commit hash means nothing to a reader


def test_inspect_lists_only_paths_that_exist(fixture_copy, capsys):
    root = fixture_copy("daycare-newer")
    assert main(["inspect", str(root)]) == 0
    out = capsys.readouterr().out
    listed = _listed_paths(out)
    assert listed
    for path in listed:
        assert Path(path).exists(), f"inspect lists {path}, which is not there"
    assert "daycare.pglite" not in out


def test_inspect_of_a_pglite_store_lists_no_daycare_db(pglite_store, capsys):
    assert main(["inspect", str(pglite_store)]) == 0
    out = capsys.readouterr().out
    assert _listed_paths(out) and all(Path(p).exists() for p in _listed_paths(out)), _listed_paths(out)
    assert "daycare.db" not in out and "7c62680a" not in out


def _listed_paths(out: str) -> list[str]:
    block = out.split("  paths:\n", 1)[1].split("\n  migrations:", 1)[0]
    lines = [line.split(None, 1)[1] for line in block.splitlines() if line.startswith("    ")]
    return [p for value in lines for p in value.split(", ")]
